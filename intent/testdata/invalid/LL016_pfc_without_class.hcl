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
  pfc {
    priorities = [3, 4] # ERROR LL016: PFC priority without a lossless class
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
