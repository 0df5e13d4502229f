# Huawei CloudEngine features beyond the core intent, each as the sources
# cited in renderers/huaweice give it:
# - ce-dscp (family B): DSCP trust with an 802.1p map for frames without
#   an IP header (`8021p-inbound`), a strict queue 0 below the DRR queues
#   (`qos drr 1 to 5`: PQ queues are served first whatever their number),
#   queue shaping (`qos queue Q shaping cir C kbps`), PFC negotiated by
#   DCBX (`dcb pfc enable mode auto`), ECN at the default marking
#   probability (`discard-percentage 100`) and WRED drop of yellow and red
#   packets in the ECN queue (`color yellow|red …`, in percent of the
#   queue and in bytes).
# - ce-cos (family B): classification by the 802.1p priority (trust cos:
#   the Layer 2 default, outer 802.1p, bound to the domain) with PFC off
#   on its ports (no `dcb pfc enable`) while queue 3 still marks ECN, at
#   thresholds in percent of the queue (`ecn low-limit 50 high-limit 80`).

qos_profile "roce" {
  trust = "dscp"

  traffic_class "control" {
    id       = 0
    dscp     = [56]
    cos      = [7]
    priority = "strict"
  }

  traffic_class "default" {
    id     = 1
    dscp   = "default"
    cos    = "default"
    weight = 40
    shape  = "40G"
  }

  traffic_class "ROCEv2" {
    id       = 3
    dscp     = [24, 26]
    cos      = [3]
    lossless = true
    weight   = 60

    ecn {
      min_threshold = "150KB"
      max_threshold = "3000KB"

      yellow {
        min_threshold   = "60%"
        max_threshold   = "80%"
        max_probability = 20
        drop            = true
      }

      red {
        min_threshold   = "100KB"
        max_threshold   = "1MB"
        max_probability = 40
        drop            = true
      }
    }
  }

  traffic_class "CNP" {
    id       = 6
    dscp     = [48]
    cos      = [6]
    cnp      = true
    priority = "strict"
  }

  pfc {
    mode = "auto"
  }
}

qos_profile "roce-cos" {
  trust = "cos"

  traffic_class "default" {
    id     = 0
    cos    = "default"
    weight = 40
  }

  traffic_class "ROCEv2" {
    id       = 3
    cos      = [3]
    lossless = true
    weight   = 60

    ecn {
      min_threshold   = "50%"
      max_threshold   = "80%"
      max_probability = 30
    }
  }

  traffic_class "CNP" {
    id       = 6
    cos      = [6]
    cnp      = true
    priority = "strict"
  }

  pfc {
    mode = "off"
  }
}

buffer_profile "default" {
  headroom      = "auto"
  headroom_pool = "4MB"
}

assign "dscp" {
  devices = ["ce-dscp"]
  qos     = qos_profile.roce
  buffers = buffer_profile.default
}

assign "cos" {
  devices = ["ce-cos"]
  qos     = qos_profile.roce-cos
  buffers = buffer_profile.default
}
