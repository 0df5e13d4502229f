# ce1's test platform is Huawei family A: PFC priorities 0-5 only.
qos_profile "roce" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  traffic_class "rdma" {
    id       = 6 # ERROR LL018: PFC priority not supported by the platform
    dscp     = [24, 26]
    lossless = true
  }
  traffic_class "cnp" {
    id       = 7
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
