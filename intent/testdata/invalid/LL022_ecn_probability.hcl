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
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 0 # where the vendor takes it (LL133 on those that do not)
    }
  }
  traffic_class "storage" {
    id   = 4
    dscp = [32]
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = "150%" # ERROR LL022: ECN probability out of range
    }
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
