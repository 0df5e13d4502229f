device "a" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
  ports "Ethernet1/32-1" { # ERROR LL106: Invalid port range
    speed = "100G"
  }
  ports "Ethernet1/1-x" { # ERROR LL106: Invalid port range
    speed = "100G"
  }
  ports "Ethernet0-126 step 4" { # ERROR LL106: Invalid port range
    speed = "100G"
  }
}
