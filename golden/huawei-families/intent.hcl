# Huawei CloudEngine syntax families A and B (reference/huawei-ce.md §0):
# the same RoCE intent on a family-B CE8855 (ce-b) and a family-A
# CE8850-HAM (ce-a). Family B needs the headroom pool and counts deadlock
# times in ticks of `dcb pfc deadlock-detect interval`; family A takes
# millisecond timers, enables ECN globally, has no DSCP-based PFC mapping,
# and should discard during deadlock recovery (§1.3).

qos_profile "roce" {
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
    weight   = 60

    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
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
      detection_time   = "100ms"
      restoration_time = "100ms"
    }
  }
}

buffer_profile "default" {
  headroom = "auto"
}

assign "huawei" {
  devices = "*"
  qos     = qos_profile.roce
  buffers = buffer_profile.default

  # Family B: the headroom pool is mandatory before PFC works (§0, §1.1).
  device "ce-b" {
    buffers {
      headroom      = "auto"
      headroom_pool = "4MB"
    }
  }

  # Family A: discard during deadlock recovery, as Huawei advises for a
  # PFC network with family-A members (§1.3).
  device "ce-a" {
    qos {
      pfc {
        watchdog {
          detection_time   = "100ms"
          restoration_time = "100ms"
          action           = "drop"
        }
      }
    }
  }
}
