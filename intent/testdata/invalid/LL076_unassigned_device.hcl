# WARNING LL076 testdata/inventories/default.hcl:17: Device without intent
# WARNING LL076 testdata/inventories/default.hcl:29: Device without intent
# WARNING LL076 testdata/inventories/default.hcl:44: Device without intent
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

assign "one" {
  devices = ["leaf1"]
  qos     = qos_profile.roce
}
