# One CloudEngine of each syntax family (reference/huawei-ce.md §0), two
# 100G ports with 5 m cables each.

credentials "lab" {
  username_env = "LOSSLESS_USER"
  password_env = "LOSSLESS_PASSWORD"
  known_hosts  = "~/.ssh/known_hosts"
}

device "ce-a" {
  vendor      = "huawei-ce"
  platform    = "CE8850-HAM"
  address     = "192.0.2.21"
  credentials = credentials.lab
  roles       = ["leaf"]
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "5m"
  }
}

device "ce-b" {
  vendor      = "huawei-ce"
  platform    = "CE8855"
  address     = "192.0.2.22"
  credentials = credentials.lab
  roles       = ["leaf"]
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "5m"
  }
}
