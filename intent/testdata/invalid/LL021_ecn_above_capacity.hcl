# The platform has a 16 MB buffer; the lossy class's pool is 2 MB. ce1 has its
# own (family A) platform, so it gets its own report.
qos_profile "roce" {
  traffic_class "cnp" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
    ecn {
      min_threshold   = "1MB"
      max_threshold   = "3MB" # ERROR LL021: ECN threshold above the queue capacity
      max_probability = 10
    }
  }
  traffic_class "rdma" {
    id       = 3
    dscp     = [24, 26]
    lossless = true
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "20MB" # ERROR LL021: ECN threshold above the queue capacity # ERROR LL021: ECN threshold above the queue capacity
      max_probability = 7
    }
  }
}

buffer_profile "b" {
  lossy_pool = "2MB"
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
  buffers = buffer_profile.b
}
