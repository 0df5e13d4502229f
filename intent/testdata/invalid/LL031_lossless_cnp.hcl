qos_profile "roce" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  traffic_class "cnp" {
    id       = 6 # ERROR LL018: PFC priority not supported by the platform
    dscp     = [48]
    cnp      = true
    lossless = true # ERROR LL031: Lossless CNP class
    priority = "strict"
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
