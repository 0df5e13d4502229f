# inventory: odd
# odd1's platform has no cell size; odd2's first port has no speed.
# ERROR LL043 testdata/inventories/odd.hcl:9: Cannot compute headroom
# ERROR LL075 testdata/inventories/odd.hcl:19: Port speed unknown
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
