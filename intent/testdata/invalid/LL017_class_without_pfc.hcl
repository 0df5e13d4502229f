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
  }
  traffic_class "storage" {
    id       = 4
    dscp     = [32]
    lossless = true # ERROR LL017: Lossless class without PFC priority
  }
  pfc {
    priorities = [3]
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
