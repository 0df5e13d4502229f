device "a" {
  vendor   = "sonic"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.300" # ERROR LL104: Invalid management address
}

device "b" {
  vendor   = "sonic"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1:22" # ERROR LL104: Invalid management address
}

device "c" {
  vendor   = "sonic"
  platform = "Arista-7060CX-32S"
  address  = "bad_host.example" # ERROR LL104: Invalid management address
}
