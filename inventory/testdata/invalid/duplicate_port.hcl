device "a" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
  ports "Ethernet1/1-32" {
    speed = "100G"
  }
  ports "Ethernet1/30-34" { # ERROR LL107: Duplicate port
    speed = "100G"
  }
}

device "b" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.2"
  ports "Ethernet1/1-4,Ethernet1/3" { # ERROR LL107: Duplicate port
    speed = "100G"
  }
  ports "Ethernet1/3" { # ERROR LL107: Duplicate port
    speed = "100G"
  }
}
