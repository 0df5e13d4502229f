# The platform has a 16 MB buffer; ce1 has its own (family A) platform, so it
# gets its own report.
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
  }
}

buffer_profile "b" {
  lossless_pool = "12MB"
  lossy_pool    = "6MB" # ERROR LL042: Buffer pools larger than the platform buffer # ERROR LL042: Buffer pools larger than the platform buffer
}

buffer_profile "shares" {
  lossless_pool = "60%"
  lossy_pool    = "40%"
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
  buffers = buffer_profile.b
}
