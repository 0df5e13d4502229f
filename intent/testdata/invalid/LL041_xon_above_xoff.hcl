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

buffer_profile "b" {
  headroom = { xoff = "20KB", xon = "30KB" } # ERROR LL041: Xon above xoff
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
  buffers = buffer_profile.b
}
