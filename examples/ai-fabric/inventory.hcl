# A small two-tier RoCE fabric: four spines and four leaves, one of each
# vendor per tier. Leaves face servers with 100G on short cables and go up
# with 400G; uplink cables are 30 m, 50 m or 100 m by rack distance.

credentials "ops" {
  username_env = "LOSSLESS_USER"
  password_env = "LOSSLESS_PASSWORD"
  known_hosts  = "~/.ssh/known_hosts"
}

device "spine1" {
  vendor      = "nxos"
  platform    = "N9K-C9364D-GX2A"
  address     = "192.0.2.1"
  credentials = credentials.ops
  roles       = ["spine"]
  ports "Ethernet1/1-4" {
    speed = "400G"
    cable = "30m"
  }
}

device "spine2" {
  vendor      = "eos"
  platform    = "DCS-7060DX5-64S"
  address     = "192.0.2.2"
  credentials = credentials.ops
  roles       = ["spine"]
  ports "Ethernet1-4" {
    speed = "400G"
    cable = "50m"
  }
}

device "spine3" {
  vendor      = "huawei-ce"
  platform    = "CE8855"
  address     = "192.0.2.3"
  credentials = credentials.ops
  roles       = ["spine"]
  ports "400GE1/0/1-4" {
    speed = "400G"
    cable = "30m"
  }
}

device "spine4" {
  vendor      = "sonic"
  platform    = "SN5600"
  address     = "192.0.2.4"
  transport   = "gnmi"
  port        = 8080
  credentials = credentials.ops
  roles       = ["spine"]
  ports "Ethernet0-24 step 8" {
    speed = "400G"
    cable = "100m"
  }
}

device "leaf1" {
  vendor      = "nxos"
  platform    = "N9K-C93600CD-GX"
  address     = "192.0.2.11"
  credentials = credentials.ops
  roles       = ["leaf"]
  tags        = ["pod1"]
  ports "Ethernet1/1-4" {
    speed = "100G"
    cable = "3m"
  }
  ports "Ethernet1/29,1/31" {
    speed = "400G"
    cable = "30m"
  }
  ports "Ethernet1/30" {
    speed = "400G"
    cable = "50m"
  }
  ports "Ethernet1/32" {
    speed = "400G"
    cable = "100m"
  }
}

device "leaf2" {
  vendor      = "eos"
  platform    = "DCS-7060DX4-32"
  address     = "192.0.2.12"
  credentials = credentials.ops
  roles       = ["leaf"]
  tags        = ["pod1"]
  ports "Ethernet1-4" {
    speed = "100G"
    cable = "3m"
  }
  ports "Ethernet29,31" {
    speed = "400G"
    cable = "30m"
  }
  ports "Ethernet30" {
    speed = "400G"
    cable = "50m"
  }
  ports "Ethernet32" {
    speed = "400G"
    cable = "100m"
  }
}

device "leaf3" {
  vendor      = "huawei-ce"
  platform    = "CE8850-HAM"
  address     = "192.0.2.13"
  credentials = credentials.ops
  roles       = ["leaf"]
  tags        = ["pod2"]
  ports "100GE1/0/1-4" {
    speed = "100G"
    cable = "3m"
  }
  ports "400GE1/0/1,1/0/3" {
    speed = "400G"
    cable = "30m"
  }
  ports "400GE1/0/2" {
    speed = "400G"
    cable = "50m"
  }
  ports "400GE1/0/4" {
    speed = "400G"
    cable = "100m"
  }
}

device "leaf4" {
  vendor      = "sonic"
  platform    = "SN4700"
  address     = "192.0.2.14"
  credentials = credentials.ops
  roles       = ["leaf"]
  tags        = ["pod2"]
  ports "Ethernet0-12 step 4" {
    speed = "100G"
    cable = "5m"
  }
  ports "Ethernet48,56" {
    speed = "400G"
    cable = "30m"
  }
  ports "Ethernet52" {
    speed = "400G"
    cable = "50m"
  }
  ports "Ethernet60" {
    speed = "400G"
    cable = "100m"
  }
}

# Each leaf has one uplink to each spine.
link {
  a = "leaf1:Ethernet1/29"
  b = "spine1:Ethernet1/1"
}
link {
  a = "leaf1:Ethernet1/30"
  b = "spine2:Ethernet1"
}
link {
  a = "leaf1:Ethernet1/31"
  b = "spine3:400GE1/0/1"
}
link {
  a = "leaf1:Ethernet1/32"
  b = "spine4:Ethernet0"
}
link {
  a = "leaf2:Ethernet29"
  b = "spine1:Ethernet1/2"
}
link {
  a = "leaf2:Ethernet30"
  b = "spine2:Ethernet2"
}
link {
  a = "leaf2:Ethernet31"
  b = "spine3:400GE1/0/2"
}
link {
  a = "leaf2:Ethernet32"
  b = "spine4:Ethernet8"
}
link {
  a = "leaf3:400GE1/0/1"
  b = "spine1:Ethernet1/3"
}
link {
  a = "leaf3:400GE1/0/2"
  b = "spine2:Ethernet3"
}
link {
  a = "leaf3:400GE1/0/3"
  b = "spine3:400GE1/0/3"
}
link {
  a = "leaf3:400GE1/0/4"
  b = "spine4:Ethernet16"
}
link {
  a = "leaf4:Ethernet48"
  b = "spine1:Ethernet1/4"
}
link {
  a = "leaf4:Ethernet52"
  b = "spine2:Ethernet4"
}
link {
  a = "leaf4:Ethernet56"
  b = "spine3:400GE1/0/4"
}
link {
  a = "leaf4:Ethernet60"
  b = "spine4:Ethernet24"
}
