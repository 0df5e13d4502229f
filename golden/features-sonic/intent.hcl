# Every intent feature beyond the core that SONiC renders:
# - "roce": two lossless classes with the PFC watchdog on priority 3 only
#   (PORT_QOS_MAP pfcwd_sw_enable "3" beside pfc_enable "3,4", as SONiC's
#   own template watches a subset), ECN on class 3 with the SONiC default
#   probability (no green_drop_probability: 100) and on class 4 marking at
#   the max threshold only (probability 0), and the default class with a
#   guaranteed 10 % (SCHEDULER cir) and a 40G shape (pir);
# - "storage": trust = "cos", a DOT1P_TO_TC_MAP bound per port and no
#   global DSCP map, as SONiC's qos_config.j2 renders a storage back-end.
# - "colors": WRED of yellow and red packets: the lossless class as
#   SONiC's own AZURE_LOSSLESS (qos_config.j2: WRED on every colour, every
#   colour marked, ecn_all), and a second lossless class marking yellow
#   and dropping red (ecn_green_yellow, wred_red_enable with red's
#   thresholds and probability).

qos_profile "roce" {
  trust = "dscp"

  traffic_class "default" {
    id            = 0
    dscp          = "default"
    bandwidth     = "40%"
    min_bandwidth = "10%"
    shape         = "40G"
  }

  traffic_class "ROCEv2" {
    id        = 3
    dscp      = [24, 26]
    lossless  = true
    bandwidth = "30%"
    ecn {
      min_threshold = "150KB"
      max_threshold = "3000KB"
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
      max_probability = 0
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
      action     = "notify-only"
      priorities = [3]
    }
  }
}

qos_profile "storage" {
  trust = "cos"

  traffic_class "default" {
    id        = 0
    cos       = "default"
    bandwidth = "50%"
  }

  traffic_class "storage" {
    id        = 3
    cos       = [3]
    lossless  = true
    bandwidth = "50%"
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 5
    }
  }

  traffic_class "control" {
    id       = 7
    cos      = [6, 7]
    priority = "strict"
  }

  pfc {
    watchdog {}
  }
}

qos_profile "colors" {
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
      min_threshold   = "1MB"
      max_threshold   = "2MB"
      max_probability = 5
      yellow {
        min_threshold   = "1MB"
        max_threshold   = "2MB"
        max_probability = 5
      }
      red {
        min_threshold   = "1MB"
        max_threshold   = "2MB"
        max_probability = 5
      }
    }
  }

  traffic_class "RDMA2" {
    id        = 4
    dscp      = [32, 34]
    lossless  = true
    bandwidth = "30%"
    ecn {
      min_threshold   = "500KB"
      max_threshold   = "4MB"
      max_probability = 10
      yellow {
        min_threshold   = "250KB"
        max_threshold   = "2MB"
        max_probability = 20
      }
      red {
        min_threshold   = "100KB"
        max_threshold   = "1MB"
        max_probability = 100
        drop            = true
      }
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

assign "roce" {
  devices = ["sonic1"]
  qos     = qos_profile.roce
  buffers = buffer_profile.default
}

assign "storage" {
  devices = ["sonic2"]
  qos     = qos_profile.storage
  buffers = buffer_profile.default
}

assign "colors" {
  devices = ["sonic3"]
  qos     = qos_profile.colors
  buffers = buffer_profile.default
}
