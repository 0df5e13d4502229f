# Lossy RoCE on Huawei CE and SONiC: RoCE relies on ECN (DCQCN) alone, with
# no PFC: no lossless class, no pause, no watchdog, no headroom. CNPs still
# get strict priority.

qos_profile "lossy_roce" {
  trust = "dscp"

  traffic_class "default" {
    id        = 0
    dscp      = "default"
    bandwidth = "50%"
  }

  traffic_class "ROCEv2" {
    id        = 3
    dscp      = [24, 26]
    bandwidth = "50%"
    ecn {
      min_threshold   = "100KB"
      max_threshold   = "1MB"
      max_probability = 20
    }
  }

  traffic_class "CNP" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
}

assign "fabric" {
  devices = "*"
  qos     = qos_profile.lossy_roce
}
