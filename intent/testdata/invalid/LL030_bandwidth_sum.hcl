qos_profile "roce" {
  traffic_class "bulk" {
    id        = 0
    dscp      = "default"
    bandwidth = "40%" # ERROR LL030: Bandwidth shares do not sum to 100%
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

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
