qos_profile "roce" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  traffic_class "cnp" {
    id        = 6
    dscp      = [48]
    cnp       = true
    bandwidth = "100%" # ERROR LL032: CNP class is not strict priority
  }
}

qos_profile "other" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  traffic_class "cnp" { # ERROR LL032: CNP class is not strict priority
    id   = 6
    dscp = [48]
    cnp  = true
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
