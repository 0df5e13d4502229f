# The fabric of TestApplyKilledEveryVendor: the example's RoCE profile on
# every device, three of each vendor (inventory written by the test).

qos_profile "roce" {
  trust = "dscp"

  traffic_class "bulk" {
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
      max_threshold   = "3000KB"
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
    watchdog {
      action = "drop"
    }
  }
}

buffer_profile "auto" {
  headroom = "auto"
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
  buffers = buffer_profile.auto
  options = { "eos.default-map" = "explicit", "huawei-ce.dscp-map" = "full" }
}
