# Two lossless classes, 3 (RoCE) and 4 (a second RDMA tenant), each with
# its own DSCPs and ECN thresholds, on a Huawei CE family-B switch and a
# SONiC switch: PFC on both priorities, one drop-profile / WRED profile per
# class, DRR/DWRR weights 40/30/30, CNP strict, watchdog 200 ms / 400 ms
# with drop.

qos_profile "roce2" {
  trust = "dscp"

  traffic_class "default" {
    id     = 0
    dscp   = "default"
    weight = 40
  }

  traffic_class "ROCEv2" {
    id       = 3
    dscp     = [24, 26]
    lossless = true
    weight   = 30
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 10
    }
  }

  traffic_class "RDMA2" {
    id       = 4
    dscp     = [32, 34]
    lossless = true
    weight   = 30
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
    watchdog {
      detection_time   = "200ms"
      restoration_time = "400ms"
      action           = "drop"
    }
  }
}

buffer_profile "default" {
  headroom = "auto"
}

assign "fabric" {
  devices = "*"
  qos     = qos_profile.roce2
  buffers = buffer_profile.default

  # Family B needs the headroom pool (reference/huawei-ce.md §0, §1.1).
  device "ce1" {
    buffers {
      headroom      = "auto"
      headroom_pool = "4MB"
    }
  }

  # The SKU's pg_profile_lookup.ini row for 100G / 5m (reference/sonic.md §4).
  device "sonic1" {
    buffers {
      headroom = {
        xoff = "165568B"
        xon  = "2288B"
        size = "1248B"
      }
      alpha = 0
    }
  }
}
