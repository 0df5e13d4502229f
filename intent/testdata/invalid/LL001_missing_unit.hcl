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
      min_threshold   = 150 # ERROR LL001: Missing unit
      max_threshold   = "3000KB"
      max_probability = 7
    }
  }
  pfc {
    watchdog {
      detection_time = 200 # ERROR LL001: Missing unit
    }
  }
}

buffer_profile "b" {
  lossless_pool = 12 # ERROR LL001: Missing unit
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
  buffers = buffer_profile.b
}
