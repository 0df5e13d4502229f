# The EOS canonical intent of reference/eos.md §1 rendered as variant B
# (§1b): the interface lines in `qos profile ROCE_LOSSLESS`, applied with
# `service-profile`. The profile name comes from the qos_profile label.
# eos1 renders exactly §1b (plus the §1a global lines); eos2 adds options.

qos_profile "roce_lossless" {
  trust = "dscp"

  traffic_class "default" {
    id   = 0
    dscp = "default"
  }

  traffic_class "ROCEv2" {
    id       = 3
    dscp     = [24, 26]
    lossless = true
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 100
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
  qos     = qos_profile.roce_lossless
  buffers = buffer_profile.default
  options = { "eos.style" = "qos-profile" }

  # eos2: a platform with separate unicast queues (uc-tx-queue, reference/
  # eos.md §1a, §7), and the DSCPs no class claims mapped to the default
  # class explicitly instead of left on EOS's default map.
  device "eos2" {
    options = {
      "eos.style"       = "qos-profile"
      "eos.tx-queue"    = "uc-tx-queue"
      "eos.default-map" = "explicit"
    }
  }
}
