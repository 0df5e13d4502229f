device "a" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
  ports "Ethernet1/1-4" {
    speed = "100G"
  }
}

device "b" {
  vendor   = "eos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.2"
  ports "Ethernet1-4" {
    speed = "100G"
  }
}

link {
  a = "a:Ethernet1/1"
  b = "b:Ethernet1"
}

link {
  a = "a:Ethernet1/2"
  b = "c:Ethernet1" # ERROR LL108: Link to an unknown device
}

link {
  a = "a:Ethernet1/9" # ERROR LL109: Link to an unknown port
  b = "b:Ethernet2"
}

link {
  a = "a:Ethernet1/1" # ERROR LL110: Port in two links
  b = "b:Ethernet3"
}

link {
  a = "a-Ethernet1/3" # ERROR LL116: Invalid link end
  b = "b:Ethernet4"
}

link {
  a = "b:Ethernet4"
  b = "b:Ethernet4" # ERROR LL119: Link to itself
}
