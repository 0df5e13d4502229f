qos_profile "roce" {
  traffic_class "bulk" {
    id     = 0
    dscp   = "default"
    weight = 14
    names {
      class_map = "DATA"
      scheduler = "scheduler.0"
    }
  }
  traffic_class "storage" {
    id     = 1
    dscp   = [10]
    weight = 14
    names {
      scheduler = "scheduler.0" # same weight: one scheduler serves both
    }
  }
  traffic_class "rdma" {
    id       = 3
    dscp     = [24, 26]
    lossless = true
    weight   = 15
    names {
      class_map = "DATA"        # ERROR LL038: Shared object name
      scheduler = "scheduler.0" # ERROR LL038: Shared object name
    }
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
