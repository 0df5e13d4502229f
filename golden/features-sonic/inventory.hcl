# Three SONiC switches with 5 m cables: a RoCE leaf (Broadcom; a 100G and
# a 40G port), a storage back-end leaf (NVIDIA Spectrum; two 100G ports)
# and a leaf with WRED colours (Broadcom; two 100G ports).

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
  ports "Ethernet0" {
    speed = "100G"
    cable = "5m"
  }
  # A second speed: the guaranteed 10 % is another cir, so another
  # scheduler.
  ports "Ethernet4" {
    speed = "40G"
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

device "sonic3" {
  vendor      = "sonic"
  platform    = "Arista-7060CX-32S"
  address     = "192.0.2.93"
  credentials = credentials.lab
  roles       = ["leaf"]
  ports "Ethernet0,Ethernet4" {
    speed = "100G"
    cable = "5m"
  }
}
