device "leaf1" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
}

device "leaf1" { # ERROR LL101: Duplicate device name
  vendor   = "eos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.2"
}
