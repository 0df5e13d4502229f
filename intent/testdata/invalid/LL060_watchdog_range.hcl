# 6 s is inside EOS's range (up to 60 s) but outside SONiC's (up to 5 s)
# and Huawei family A's (up to 1.5 s); NX-OS has no detection time.
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
      detection_time = "6s" # ERROR LL060: Watchdog time outside the vendor's range # ERROR LL060: Watchdog time outside the vendor's range
    }
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
