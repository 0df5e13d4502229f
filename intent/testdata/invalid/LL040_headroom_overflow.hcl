# inventory: tiny
# tiny1 has a 1 MB buffer and 32 ports of 400G on 100 m cables.
# ERROR LL040 testdata/inventories/tiny.hcl:4: Lossless headroom exceeds the buffer
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

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
