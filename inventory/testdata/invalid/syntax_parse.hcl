device "a" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
  ports "Ethernet1/1" { speed = "100G", cable = "3m" } # ERROR LL100: Invalid single-argument block definition
}
