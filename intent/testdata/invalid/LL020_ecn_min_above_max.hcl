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
    id       = 3
    dscp     = [24, 26]
    lossless = true
    ecn {
      min_threshold   = "3000KB" # ERROR LL020: ECN minimum threshold above maximum
      max_threshold   = "150KB"
      max_probability = 7
    }
  }
  traffic_class "step" {
    id = 4
    dscp = [32]
    ecn {
      # min = max is step marking, which is valid.
      min_threshold   = "300KB"
      max_threshold   = "300KB"
      max_probability = 100
    }
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
