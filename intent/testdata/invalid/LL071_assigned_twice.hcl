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

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}

assign "leaves" {
  devices = { role = "leaf", tag = ["pod1", "pod2"] } # ERROR LL071: Device assigned twice # ERROR LL071: Device assigned twice
  qos     = qos_profile.roce
}
