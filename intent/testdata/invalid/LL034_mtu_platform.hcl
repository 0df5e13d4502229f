# The platform accepts MTU 68 to 9216; ce1 has its own (family A) platform,
# so it gets its own report.
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
    mtu      = 9600 # ERROR LL034: MTU outside the platform's range # ERROR LL034: MTU outside the platform's range
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
