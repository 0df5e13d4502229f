device "leaf1" {
  vendor   = "sonic"
  platform = "Arista-7060CX-32" # ERROR LL103: Unknown platform
  address  = "192.0.2.1"
}
