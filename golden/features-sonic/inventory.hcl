# Two SONiC switches with two 100G ports and 5 m cables each: a RoCE leaf
# (Broadcom) and a storage back-end leaf (NVIDIA Spectrum).

credentials "lab" {
  username_env = "LOSSLESS_USER"
  password_env = "LOSSLESS_PASSWORD"
  known_hosts  = "~/.ssh/known_hosts"
}

device "sonic1" {
  vendor      = "sonic"
  platform    = "Arista-7060CX-32S"
  address     = "192.0.2.91"
  credentials = credentials.lab
  roles       = ["leaf"]
  ports "Ethernet0,Ethernet4" {
    speed = "100G"
    cable = "5m"
  }
}

device "sonic2" {
  vendor      = "sonic"
  platform    = "SN4600C"
  address     = "192.0.2.92"
  credentials = credentials.lab
  roles       = ["leaf"]
  ports "Ethernet0,Ethernet4" {
    speed = "100G"
    cable = "5m"
  }
}
