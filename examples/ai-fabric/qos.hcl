# One QoS profile for the whole fabric: RoCE lossless on priority 3, CNP
# strict priority on 6, everything else best effort on 0.

qos_profile "roce" {
  trust = "dscp"

  traffic_class "bulk" {
    id        = 0
    dscp      = "default"
    bandwidth = "50%"
  }

  traffic_class "ROCEv2" {
    id        = 3
    dscp      = local.roce_dscp
    lossless  = true
    bandwidth = "50%"

    ecn {
      min_threshold   = var.ecn_min
      max_threshold   = var.ecn_max
      max_probability = 7
    }
  }

  traffic_class "CNP" {
    id       = 6
    dscp     = local.cnp_dscp
    cnp      = true
    priority = "strict"
  }

  # PFC watchdog on every port, with each vendor's default timers (NX-OS
  # sets them only as multiples of its fixed 100 ms poll); the SONiC leaf
  # overrides them.
  pfc {
    watchdog {
      action = "drop"
    }
  }
}

buffer_profile "auto" {
  # Per port, from speed, cable length and MTU.
  headroom = "auto"
}
