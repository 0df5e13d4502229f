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
}

assign "leaf1" {
  devices = ["leaf1"]
  ports   = ["Ethernet1/1-5"] # ERROR LL072: Port not in the inventory
  qos     = qos_profile.roce
}

assign "others" {
  devices = ["leaf2", "spine1", "ce1"]
  qos     = qos_profile.roce
}
