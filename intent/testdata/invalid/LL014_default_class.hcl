qos_profile "roce" { # ERROR LL014: No default class
  traffic_class "cnp" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
  traffic_class "rdma" {
    id   = 3
    dscp = [24, 26]
  }
}

qos_profile "two" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  traffic_class "cnp" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
  traffic_class "rdma" { # ERROR LL014: More than one default class
    id   = 3
    dscp = [24, "default"]
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
