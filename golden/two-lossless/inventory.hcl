# Two leaves, one NX-OS and one EOS, two 100G ports each.

credentials "lab" {
  username_env = "LOSSLESS_USER"
  password_env = "LOSSLESS_PASSWORD"
  known_hosts  = "~/.ssh/known_hosts"
}

device "nxos1" {
  vendor      = "nxos"
  platform    = "N9K-C93600CD-GX"
  address     = "192.0.2.21"
  credentials = credentials.lab
  ports "Ethernet1/1-2" {
    speed = "100G"
    cable = "5m"
  }
}

device "eos1" {
  vendor      = "eos"
  platform    = "DCS-7060CX-32S"
  address     = "192.0.2.22"
  credentials = credentials.lab
  ports "Ethernet1-2" {
    speed = "100G"
    cable = "5m"
  }
}

device "ce1" {
  vendor      = "huawei-ce"
  platform    = "CE8855"
  address     = "192.0.2.71"
  credentials = credentials.lab
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "5m"
  }
}

device "sonic1" {
  vendor      = "sonic"
  platform    = "SN4600C"
  address     = "192.0.2.72"
  credentials = credentials.lab
  ports "Ethernet0,Ethernet4" {
    speed = "100G"
    cable = "5m"
  }
}
