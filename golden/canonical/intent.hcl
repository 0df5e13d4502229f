# The canonical scenario: the reference intent of each vendor's §1
# (reference/nxos.md §1, eos.md §1a, huawei-ce.md §1.1, sonic.md §4–§5)
# written once. The shared profile holds what the four agree on; each
# device override restates, whole, the blocks in which its reference
# differs (an override's nested block replaces the profile's block).

locals {
  roce_dscp = [24, 26]
  cnp_dscp  = [48]
  ecn_min   = "150KB"
  ecn_max   = "3000KB"
}

qos_profile "roce" {
  trust = "dscp"

  traffic_class "default" {
    id   = 0
    dscp = "default"
  }

  traffic_class "ROCEv2" {
    id       = 3
    dscp     = local.roce_dscp
    lossless = true

    ecn {
      min_threshold   = local.ecn_min
      max_threshold   = local.ecn_max
      max_probability = 7
    }
  }

  traffic_class "CNP" {
    id       = 6
    dscp     = local.cnp_dscp
    cnp      = true
    priority = "strict"
  }

  # Watchdog on with the vendor's default timers.
  pfc {
    watchdog {}
  }
}

buffer_profile "default" {
  headroom = "auto"
}

assign "canonical" {
  devices = "*"
  qos     = qos_profile.roce
  buffers = buffer_profile.default

  # reference/nxos.md §1: CNP in qos-group 7, bandwidth remaining 50/50,
  # MTU 9216 on the lossless class, WRED weight 0, drop-probability 7.
  device "nxos1" {
    qos {
      traffic_class "default" {
        id        = 0
        dscp      = "default"
        bandwidth = "50%"
      }
      traffic_class "ROCEv2" {
        id        = 3
        dscp      = local.roce_dscp
        lossless  = true
        bandwidth = "50%"
        mtu       = 9216
        ecn {
          min_threshold   = local.ecn_min
          max_threshold   = local.ecn_max
          max_probability = 7
          weight          = 0
        }
      }
      traffic_class "CNP" {
        id       = 7
        dscp     = local.cnp_dscp
        cnp      = true
        priority = "strict"
      }
    }
  }

  # reference/eos.md §1a: max-mark-probability 100, no bandwidth, watchdog
  # timeout 0.2 s, recovery 0.4 s, polling 0.1 s, action drop.
  device "eos1" {
    qos {
      traffic_class "ROCEv2" {
        id       = 3
        dscp     = local.roce_dscp
        lossless = true
        ecn {
          min_threshold   = local.ecn_min
          max_threshold   = local.ecn_max
          max_probability = 100
        }
      }
      pfc {
        watchdog {
          detection_time   = "200ms"
          restoration_time = "400ms"
          polling_interval = "100ms"
          action           = "drop"
        }
      }
    }
  }

  # reference/huawei-ce.md §1.1 (family B): discard-percentage 10, DRR
  # weights 40 (queue 0) / 60 (queue 3), deadlock detect and recovery
  # 10 × 10 ms, headroom pool 4 MB.
  device "ce1" {
    qos {
      traffic_class "default" {
        id     = 0
        dscp   = "default"
        weight = 40
      }
      traffic_class "ROCEv2" {
        id       = 3
        dscp     = local.roce_dscp
        lossless = true
        weight   = 60
        ecn {
          min_threshold   = local.ecn_min
          max_threshold   = local.ecn_max
          max_probability = 10
        }
      }
      pfc {
        watchdog {
          detection_time   = "100ms"
          restoration_time = "100ms"
          polling_interval = "10ms"
        }
      }
    }
    buffers {
      headroom_pool = "4MB"
    }
  }

  # reference/sonic.md §4–§5: DWRR weights 14 (lossy) / 15 (lossless),
  # green drop probability 5, watchdog 200/200/200 ms drop, and the
  # buffer profile of SKU Arista-7060CX-32S (pg_profile_lookup.ini row
  # "100000 5m 1248 2288 165568 0 2288": size, xon, xoff, dynamic_th 0).
  device "sonic1" {
    qos {
      traffic_class "default" {
        id     = 0
        dscp   = "default"
        weight = 14
      }
      traffic_class "ROCEv2" {
        id       = 3
        dscp     = local.roce_dscp
        lossless = true
        weight   = 15
        ecn {
          min_threshold   = local.ecn_min
          max_threshold   = local.ecn_max
          max_probability = 5
        }
      }
      pfc {
        watchdog {
          detection_time   = "200ms"
          restoration_time = "200ms"
          polling_interval = "200ms"
          action           = "drop"
        }
      }
    }
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
