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
    mtu      = 1500 # ERROR LL033: Lossless MTU below the RoCE MTU
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
