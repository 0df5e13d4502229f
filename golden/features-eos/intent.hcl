# Every intent feature beyond the core that the EOS renderer renders
# (vendors/eos Features), each in the form AVD writes (reference/eos.md
# §8 [C:avd]): trust = "cos" with the classes' CoS values (`qos trust
# cos`, `qos map cos … to traffic-class N`), min_bandwidth (`bandwidth
# guaranteed percent`) on the strict CNP queue, shape (`shape rate N
# kbps`), ECN without max_probability (no max-mark-probability: EOS's
# default), and pfc mode "off" (`no priority-flow-control`) on eos2, whose
# Ethernet2 has a watchdog of its own (`… port action`, `… port timer`).
# eos1 renders the per-interface layout (§1a), eos2 the qos profile one
# (§1b) with the unclaimed CoS values mapped explicitly.

qos_profile "storage" {
  trust = "cos"

  traffic_class "bulk" {
    id        = 1
    cos       = "default"
    bandwidth = "40%"
    shape     = "50G"
  }

  traffic_class "RoCE" {
    id        = 3
    cos       = [3]
    lossless  = true
    bandwidth = "60%"
    ecn {
      min_threshold = "150KB"
      max_threshold = "3000KB"
    }
  }

  traffic_class "CNP" {
    id            = 6
    cos           = [6]
    cnp           = true
    priority      = "strict"
    min_bandwidth = "5%"
    shape         = "10G"
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

buffer_profile "default" {
  headroom = "auto"
}

assign "eos" {
  devices = "*"
  qos     = qos_profile.storage
  buffers = buffer_profile.default

  # eos2: PFC off on its ports although RoCE stays no-drop (pfc mode
  # "off"), in a qos profile, every CoS value mapped.
  device "eos2" {
    options = {
      "eos.style"       = "qos-profile"
      "eos.default-map" = "explicit"
    }
    qos {
      pfc {
        mode = "off"
      }
    }
    # Ethernet2's watchdog notifies only, with its own timers: the
    # per-port lines of its qos profile (`priority-flow-control pause
    # watchdog port action|timer`, AVD qos_profiles schema).
    port "Ethernet2" {
      qos {
        pfc {
          watchdog {
            detection_time   = "500ms"
            restoration_time = "1s"
            action           = "notify-only"
          }
        }
      }
    }
  }
}
