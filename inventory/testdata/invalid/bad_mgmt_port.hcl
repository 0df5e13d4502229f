device "a" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
  port     = 70000 # ERROR LL105: Management port out of range
}

device "b" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.2"
  port     = 0 # ERROR LL105: Management port out of range
}
