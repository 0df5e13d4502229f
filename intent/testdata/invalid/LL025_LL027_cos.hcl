qos_profile "by_cos" {
  trust = "cos"
  traffic_class "bulk" {
    id  = 0
    cos = [0, 1, 2]
  }
  traffic_class "rdma" {
    id       = 3
    cos      = ["default", 3]
    lossless = true
  }
  traffic_class "cluster" {
    id       = 7
    cos      = [9] # ERROR LL025: Invalid CoS value
    priority = "strict"
  }
  traffic_class "storage" { # ERROR LL027: More than one default CoS class
    id  = 4
    cos = "default"
  }
  traffic_class "video" {
    id   = 5
    cos  = [1] # ERROR LL026: Duplicate CoS value
    dscp = [34] # ERROR LL019: DSCP values under CoS trust
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.by_cos
}
