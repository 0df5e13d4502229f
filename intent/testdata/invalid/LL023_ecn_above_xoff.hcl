# Explicit xoff 100KB, but ECN starts marking at 150KB: one warning for
# the line, however many ports it covers.
qos_profile "roce" {
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
  }
  traffic_class "cnp" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
  traffic_class "rdma" {
    id       = 3
    dscp     = [24, 26]
    lossless = true
    ecn {
      min_threshold   = "150KB" # WARNING LL023: ECN marks only after PFC pauses
      max_threshold   = "3000KB"
      max_probability = 7
    }
  }
}

buffer_profile "b" {
  headroom = { xoff = "100KB", xon = "18KB" }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
  buffers = buffer_profile.b
}
