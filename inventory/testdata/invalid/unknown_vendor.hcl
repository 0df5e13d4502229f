device "leaf1" {
  vendor   = "junos" # ERROR LL102: Unknown vendor
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
}
