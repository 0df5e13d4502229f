qos_profile "roce" {
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
  traffic_class "rdma" { # ERROR LL008: Missing class id
    dscp     = [24, 26]
    lossless = true
    ecn { # ERROR LL008: Missing ECN threshold
      min_threshold = "150KB"
    }
  }
}

assign "all" { # ERROR LL008: Missing qos profile
  devices = "*"
}
