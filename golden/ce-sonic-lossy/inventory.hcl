# A Huawei CE family-B switch and a SONiC switch, two 100G ports with 5 m
# cables each.

credentials "lab" {
  username_env = "LOSSLESS_USER"
  password_env = "LOSSLESS_PASSWORD"
  known_hosts  = "~/.ssh/known_hosts"
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
