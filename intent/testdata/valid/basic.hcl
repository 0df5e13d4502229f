# A small valid intent over the default inventory.

qos_profile "roce" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  traffic_class "rdma" {
    id       = 3
    dscp     = [24, 26]
    lossless = true
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 7
    }
  }
  traffic_class "cnp" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
