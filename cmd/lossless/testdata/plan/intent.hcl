# An NX-OS-only fabric for the plan and apply tests: the canonical intent
# of reference/nxos.md §1 (CNP in qos-group 7, 50/50 bandwidth, MTU 9216 on
# the lossless class, WRED weight 0, watchdog with NX-OS's default timers).

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
    mtu       = 9216
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 7
      weight          = 0
    }
  }

  traffic_class "CNP" {
    id       = 7
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

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
  buffers = buffer_profile.default
}
