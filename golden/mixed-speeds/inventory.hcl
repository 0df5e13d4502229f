# Each leaf has fast ports on 3 m cables and 100G ports on 100 m cables
# (the Huawei leaf: 100G on both).

credentials "lab" {
  username_env = "LOSSLESS_USER"
  password_env = "LOSSLESS_PASSWORD"
  known_hosts  = "~/.ssh/known_hosts"
}

device "nxos1" {
  vendor      = "nxos"
  platform    = "N9K-C93600CD-GX"
  address     = "192.0.2.41"
  credentials = credentials.lab
  ports "Ethernet1/1-2" {
    speed = "400G"
    cable = "3m"
  }
  ports "Ethernet1/3-4" {
    speed = "100G"
    cable = "100m"
  }
}

device "eos1" {
  vendor      = "eos"
  platform    = "DCS-7060CX-32S"
  address     = "192.0.2.42"
  credentials = credentials.lab
  ports "Ethernet1-2" {
    speed = "400G"
    cable = "3m"
  }
  ports "Ethernet3-4" {
    speed = "100G"
    cable = "100m"
  }
}

device "ce1" {
  vendor      = "huawei-ce"
  platform    = "CE8855"
  address     = "192.0.2.43"
  credentials = credentials.lab
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "3m"
  }
  ports "100GE1/0/3-4" {
    speed = "100G"
    cable = "100m"
  }
}

device "sonic1" {
  vendor      = "sonic"
  platform    = "SN4700"
  address     = "192.0.2.44"
  credentials = credentials.lab
  ports "Ethernet0,Ethernet8" {
    speed = "400G"
    cable = "3m"
  }
  ports "Ethernet16,Ethernet24" {
    speed = "100G"
    cable = "100m"
  }
}
