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
    id   = 9 # ERROR LL010: Class id out of range
    dscp = [24, 26]
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
