# Inventory of the canonical scenario: one device per vendor, two 100G
# ports each with 5 m cables (reference/sonic.md §5), as each reference's
# §1 applies its intent to.

credentials "lab" {
  username_env = "LOSSLESS_USER"
  password_env = "LOSSLESS_PASSWORD"
  known_hosts  = "~/.ssh/known_hosts"
}

device "nxos1" {
  vendor      = "nxos"
  platform    = "N9K-C93600CD-GX"
  address     = "192.0.2.11"
  credentials = credentials.lab
  roles       = ["leaf"]
  ports "Ethernet1/1-2" {
    speed = "100G"
    cable = "5m"
  }
}

device "eos1" {
  vendor      = "eos"
  platform    = "DCS-7060CX-32S"
  address     = "192.0.2.12"
  credentials = credentials.lab
  roles       = ["leaf"]
  ports "Ethernet1-2" {
    speed = "100G"
    cable = "5m"
  }
}

device "ce1" {
  vendor      = "huawei-ce"
  platform    = "CE8855"
  address     = "192.0.2.13"
  credentials = credentials.lab
  roles       = ["leaf"]
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "5m"
  }
}

device "sonic1" {
  vendor      = "sonic"
  platform    = "Arista-7060CX-32S"
  address     = "192.0.2.14"
  credentials = credentials.lab
  roles       = ["leaf"]
  ports "Ethernet0,Ethernet4" {
    speed = "100G"
    cable = "5m"
  }
}
