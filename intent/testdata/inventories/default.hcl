# The inventory most fixtures run against. intent_test.go gives ce1 a
# family A platform (PFC priorities 0-5) by name; the others use the
# catalog entry as written.

device "leaf1" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
  roles    = ["leaf"]
  tags     = ["pod1"]
  ports "Ethernet1/1-4" {
    speed = "100G"
    cable = "5m"
  }
}

device "leaf2" {
  vendor   = "eos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.2"
  roles    = ["leaf"]
  tags     = ["pod2"]
  ports "Ethernet1-4" {
    speed = "400G"
    cable = "30m"
  }
}

device "spine1" {
  vendor   = "sonic"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.3"
  roles    = ["spine"]
  ports "Ethernet0,Ethernet4" {
    speed = "100G"
    cable = "5m"
  }
  ports "Ethernet8" {
    speed = "400G"
    cable = "30m"
  }
}

device "ce1" {
  vendor   = "huawei-ce"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.4"
  roles    = ["border"]
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "3m"
  }
}

link {
  a = "leaf1:Ethernet1/1"
  b = "spine1:Ethernet0"
}

link {
  a = "leaf2:Ethernet1"
  b = "spine1:Ethernet8"
}
