qos_profile "roce" {
  traffic_class "bulk" {
    id        = 0
    dscp      = "default"
    bandwidth = "60%" # ERROR LL030: Bandwidth shares sum to more than 100%
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
    bandwidth = "50%"
  }
}

qos_profile "azure_local" {
  traffic_class "bulk" {
    id        = 0
    dscp      = "default"
    bandwidth = "48%" # WARNING LL030: Bandwidth shares sum to less than 100%
  }
  traffic_class "rdma" {
    id        = 3
    dscp      = [24, 26]
    lossless  = true
    bandwidth = "50%"
  }
}

assign "all" {
  devices = ["leaf1", "leaf2", "spine1"]
  qos     = qos_profile.roce
}

assign "ce" {
  devices = ["ce1"]
  qos     = qos_profile.azure_local
}
