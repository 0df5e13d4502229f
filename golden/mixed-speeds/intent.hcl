# Mixed speeds and cable lengths: 400G ports on short cables and 100G
# ports on long ones, so each port's lossless headroom differs. ECN
# thresholds are bytes on NX-OS (one system-wide queuing policy), and a
# time at line rate on EOS, converted per port at the port's speed.

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

  # 4 µs and 20 µs at line rate: 200000 B / 1000000 B at 400G,
  # 50000 B / 250000 B at 100G, rounded up to whole kbytes.
  device "eos1" {
    qos {
      traffic_class "ROCEv2" {
        id        = 3
        dscp      = [24, 26]
        lossless  = true
        bandwidth = "50%"
        ecn {
          min_threshold   = "4us"
          max_threshold   = "20us"
          max_probability = 100
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
