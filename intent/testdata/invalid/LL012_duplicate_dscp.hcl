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
  traffic_class "storage" {
    id = 4
    dscp = [
      "20-23",
      26, # ERROR LL012: Duplicate DSCP value
    ]
  }
  traffic_class "video" {
    id   = 5
    dscp = ["40-48"] # ERROR LL012: Duplicate DSCP value
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
