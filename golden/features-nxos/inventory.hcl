# Three NX-OS switches: an Azure Local ToR and two leaves, 100G ports.

credentials "lab" {
  username_env = "LOSSLESS_USER"
  password_env = "LOSSLESS_PASSWORD"
  known_hosts  = "~/.ssh/known_hosts"
}

device "tor1" {
  vendor      = "nxos"
  platform    = "N9K-C93600CD-GX"
  address     = "192.0.2.91"
  credentials = credentials.lab
  ports "Ethernet1/17-18" {
    speed = "100G"
    cable = "3m"
  }
}

device "leaf1" {
  vendor      = "nxos"
  platform    = "N9K-C93600CD-GX"
  address     = "192.0.2.92"
  credentials = credentials.lab
  ports "Ethernet1/1-2" {
    speed = "100G"
    cable = "5m"
  }
}

device "leaf2" {
  vendor      = "nxos"
  platform    = "N9K-C93600CD-GX"
  address     = "192.0.2.93"
  credentials = credentials.lab
  ports "Ethernet1/1-2" {
    speed = "100G"
    cable = "5m"
  }
}
