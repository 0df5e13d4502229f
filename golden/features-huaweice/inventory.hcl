# Two family-B CE8855 switches (reference/huawei-ce.md §0), two 100G
# ports with 5 m cables each.

credentials "lab" {
  username_env = "LOSSLESS_USER"
  password_env = "LOSSLESS_PASSWORD"
  known_hosts  = "~/.ssh/known_hosts"
}

device "ce-dscp" {
  vendor      = "huawei-ce"
  platform    = "CE8855"
  address     = "192.0.2.41"
  credentials = credentials.lab
  roles       = ["leaf"]
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "5m"
  }
}

device "ce-cos" {
  vendor      = "huawei-ce"
  platform    = "CE8855"
  address     = "192.0.2.42"
  credentials = credentials.lab
  roles       = ["leaf"]
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "5m"
  }
}
