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
  pfc {
    watchdog {
      action = "forward" # ERROR LL061: Watchdog action not supported by the vendor # ERROR LL061: Watchdog action not supported by the vendor
    }
  }
}

qos_profile "other" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  pfc {
    watchdog {
      action = "reboot" # ERROR LL061: Unknown watchdog action
    }
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
