qos_profile "roce" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  traffic_class "storage" {
    id   = 4
    dscp = [32]
    ecn {
      min_threshold   = "50%" # ERROR LL004: Thresholds of two kinds
      max_threshold   = "3000KB"
      max_probability = 10
    }
  }
  traffic_class "video" {
    id   = 5
    dscp = [34]
    ecn {
      min_threshold   = "0%" # ERROR LL004: Invalid min_threshold
      max_threshold   = "80%"
      max_probability = 10
    }
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
    lossless = "sometimes" # ERROR LL004: Invalid lossless
    priority = "weighted" # ERROR LL004: Invalid priority
    mtu      = "big" # ERROR LL004: Invalid MTU
  }
}

buffer_profile "b" {
  headroom = "manual" # ERROR LL004: Invalid headroom
  alpha    = 12 # ERROR LL004: Invalid alpha
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
  buffers = buffer_profile.b
  options = "eos.style" # ERROR LL004: Invalid options
}

assign "more" {
  devices = { site = "x" } # ERROR LL004: Invalid device selector
  qos     = qos_profile.roce
}
