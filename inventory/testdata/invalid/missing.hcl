device "a" { # ERROR LL118: Missing vendor
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
}

device "b" { # ERROR LL118: Missing address
  vendor   = "eos"
  platform = "Arista-7060CX-32S"
  ports "Ethernet1" { # ERROR LL118: Missing speed
    cable = "1m"
  }
}

device "bad name" { # ERROR LL123: Invalid device name
  vendor   = "eos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.3"
}
