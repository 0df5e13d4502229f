device "leaf1" {
  vendor   = "junos" # ERROR LL102: Unknown vendor
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
}

device "leaf2" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.2"
  ports "Ethernet1/1" {
    speed = "100G"
  }
}

# No second diagnostic for a link to the device that was left out.
link {
  a = "leaf1:Ethernet1/1"
  b = "leaf2:Ethernet1/1"
}
