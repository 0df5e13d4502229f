# Per-device and per-port overrides over one shared profile:
# - nxos2 raises the RoCE ECN thresholds (device override);
# - nxos1's Ethernet1/2 marks earlier and harder (port override: its own
#   queuing policy attached to that interface);
# - eos1 uses another CNP class id and, on Ethernet2, a different ECN
#   profile (port override).

variable "ecn_max" {
  default = "3000KB"
}

qos_profile "roce" {
  trust = "dscp"

  traffic_class "default" {
    id        = 0
    dscp      = "default"
    bandwidth = "50%"
  }

  traffic_class "ROCEv2" {
    id        = 3
    dscp      = [24, 26]
    lossless  = true
    bandwidth = "50%"
    ecn {
      min_threshold   = "150KB"
      max_threshold   = var.ecn_max
      max_probability = 7
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
  qos     = qos_profile.roce
  buffers = buffer_profile.default

  device "nxos1" {
    port "Ethernet1/2" {
      qos {
        traffic_class "ROCEv2" {
          id        = 3
          dscp      = [24, 26]
          lossless  = true
          bandwidth = "50%"
          ecn {
            min_threshold   = "100KB"
            max_threshold   = "1000KB"
            max_probability = 20
            weight          = 0
          }
        }
      }
    }
  }

  device "nxos2" {
    qos {
      traffic_class "ROCEv2" {
        id        = 3
        dscp      = [24, 26]
        lossless  = true
        bandwidth = "50%"
        ecn {
          min_threshold   = "300KB"
          max_threshold   = "4MB"
          max_probability = 5
          weight          = 2
        }
      }
    }
  }

  device "eos1" {
    qos {
      traffic_class "CNP" {
        id       = 5
        dscp     = [48]
        cnp      = true
        priority = "strict"
      }
    }
    port "Ethernet2" {
      qos {
        traffic_class "ROCEv2" {
          id        = 3
          dscp      = [24, 26]
          lossless  = true
          bandwidth = "50%"
          ecn {
            min_threshold   = "200KB"
            max_threshold   = "2000KB"
            max_probability = 50
          }
        }
      }
    }
  }

  # Huawei CE family B needs a shared headroom pool for PFC
  # (reference/huawei-ce.md §1.1; Huawei's example size).
  device "ce1" {
    buffers {
      headroom_pool = "4MB"
    }
  }
}
