qos_profile "roce" { # ERROR LL027: No default CoS class
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
    cos  = [0, 1]
  }
  traffic_class "rdma" {
    id       = 3
    dscp     = [24, 26]
    cos      = [3, 1] # ERROR LL026: Duplicate CoS value
    lossless = true
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
