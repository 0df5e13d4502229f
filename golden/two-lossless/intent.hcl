# Two lossless classes, 3 (RoCE) and 4 (a second RDMA tenant), each with
# its own DSCP, bandwidth share and ECN profile, PFC no-drop on both.

qos_profile "roce2" {
  trust = "dscp"

  traffic_class "default" {
    id        = 0
    dscp      = "default"
    bandwidth = "40%"
  }

  traffic_class "ROCEv2" {
    id        = 3
    dscp      = [24, 26]
    lossless  = true
    bandwidth = "30%"
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 7
    }
  }

  traffic_class "RDMA2" {
    id        = 4
    dscp      = [32, 34]
    lossless  = true
    bandwidth = "30%"
    ecn {
      min_threshold   = "300KB"
      max_threshold   = "2MB"
      max_probability = 10
    }
  }

  traffic_class "CNP" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }

  pfc {
    watchdog {}
  }
}

buffer_profile "default" {
  headroom = "auto"
}

assign "fabric" {
  devices = "*"
  qos     = qos_profile.roce2
  buffers = buffer_profile.default

  # Huawei CE family B needs a shared headroom pool for PFC
  # (reference/huawei-ce.md §1.1; Huawei's example size).
  device "ce1" {
    buffers {
      headroom_pool = "4MB"
    }
  }
}
