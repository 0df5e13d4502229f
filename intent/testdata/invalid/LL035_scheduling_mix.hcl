qos_profile "roce" {
  traffic_class "bulk" {
    id             = 0
    dscp           = "default"
    bandwidth      = "50%"
    weight         = 10 # ERROR LL035: Conflicting scheduling
    priority_level = 2 # ERROR LL035: Priority level without strict priority
  }
  traffic_class "cnp" {
    id        = 6
    dscp      = [48]
    cnp       = true
    priority  = "strict"
    bandwidth = "50%" # ERROR LL035: Conflicting scheduling
  }
  traffic_class "rdma" {
    id        = 3
    dscp      = [24, 26]
    lossless  = true
    bandwidth = "50%"
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
