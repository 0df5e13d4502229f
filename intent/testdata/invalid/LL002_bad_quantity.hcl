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
  traffic_class "rdma" {
    id        = 3
    dscp      = [24, 26]
    lossless  = true
    bandwidth = "fifty" # ERROR LL002: Invalid percentage
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000XB" # ERROR LL002: Invalid threshold
      max_probability = 7
    }
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
