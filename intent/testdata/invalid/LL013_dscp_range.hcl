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
    id = 3
    dscp = [
      24,
      64, # ERROR LL013: Invalid DSCP value
      "30-70", # ERROR LL013: Invalid DSCP value
      "af41", # ERROR LL013: Invalid DSCP value
    ]
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
