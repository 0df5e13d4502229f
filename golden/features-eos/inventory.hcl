# Two EOS leaves with two ports each.

credentials "lab" {
  username_env = "LOSSLESS_USER"
  password_env = "LOSSLESS_PASSWORD"
  known_hosts  = "~/.ssh/known_hosts"
}

device "eos1" {
  vendor      = "eos"
  platform    = "DCS-7060CX-32S"
  address     = "192.0.2.71"
  credentials = credentials.lab
  ports "Ethernet1-2" {
    speed = "100G"
    cable = "5m"
  }
}

device "eos2" {
  vendor      = "eos"
  platform    = "DCS-7050CX3-32S"
  address     = "192.0.2.72"
  credentials = credentials.lab
  ports "Ethernet1-2" {
    speed = "100G"
    cable = "5m"
  }
}
