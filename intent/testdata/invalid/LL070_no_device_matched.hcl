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

assign "nobody" {
  devices = { role = "superspine" } # WARNING LL070: No device selected
  qos     = qos_profile.roce
}

assign "typo" {
  devices = ["leaf9"] # ERROR LL070: Unknown device # WARNING LL070: No device selected
  qos     = qos_profile.roce
}
