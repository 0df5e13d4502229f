# Which devices and ports get the profiles, and what each vendor's devices
# need on top. An override merges over the profile block by block: it says
# only what differs (intent/doc.go, "Overrides merge block by block").

# The class "bulk" takes every DSCP no other class claims ("default"). EOS
# and Huawei CE keep a built-in DSCP map for the values a policy does not
# list (reference/eos.md §1a, reference/huawei-ce.md §1.1); these options
# list all 64 so that the unclaimed ones really reach queue 0.
locals {
  dscp_map_options = { "eos.default-map" = "explicit", "huawei-ce.dscp-map" = "full" }
}

assign "spines" {
  devices = { role = "spine" }
  qos     = qos_profile.roce
  buffers = buffer_profile.auto
  options = local.dscp_map_options

  # NX-OS requires a WRED weight; 0 reacts to the instantaneous queue
  # (reference/nxos.md §1).
  device "spine1" {
    qos {
      traffic_class "ROCEv2" {
        ecn { weight = 0 }
      }
    }
  }

  # EOS: mark harder as the queue builds (reference/eos.md §1a).
  device "spine2" {
    qos {
      traffic_class "ROCEv2" {
        ecn { max_probability = 100 }
      }
    }
    options = { "eos.style" = "qos-profile" }
  }

  # Huawei CE family B needs a shared headroom pool before PFC works
  # (reference/huawei-ce.md §1.1) and schedules by DRR weight.
  device "spine3" {
    qos {
      traffic_class "bulk" { weight = 40 }
      traffic_class "ROCEv2" {
        weight = 60
        ecn { max_probability = 10 }
      }
    }
    buffers {
      headroom_pool = "4MB"
    }
  }
}

assign "leaves" {
  devices = { role = "leaf" }
  qos     = qos_profile.roce
  buffers = buffer_profile.auto
  options = local.dscp_map_options

  # NX-OS: WRED weight 0 reacts to the instantaneous queue (reference/nxos.md §1).
  device "leaf1" {
    qos {
      traffic_class "ROCEv2" {
        ecn { weight = 0 }
      }
    }
  }

  # SONiC: DWRR weights as SONiC's own schedulers (reference/sonic.md §4),
  # and a faster watchdog poll on the server-facing ports.
  device "leaf4" {
    qos {
      traffic_class "bulk" { weight = 14 }
      traffic_class "ROCEv2" {
        weight = 15
        ecn { max_probability = 5 }
      }
      pfc {
        watchdog {
          detection_time   = "200ms"
          restoration_time = "400ms"
          polling_interval = "100ms"
        }
      }
    }
  }
}
