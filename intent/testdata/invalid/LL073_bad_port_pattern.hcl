port_group "uplinks" {
  ports = ["Ethernet1/4-1"] # ERROR LL073: Invalid port range
}

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
  ports   = port_group.uplinks
  qos     = qos_profile.roce
}

assign "others" {
  devices = ["leaf2", "spine1", "ce1"]
  qos     = qos_profile.roce
}
