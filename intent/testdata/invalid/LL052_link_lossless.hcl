# leaf1:Ethernet1/1 is linked to spine1:Ethernet0.
# ERROR LL052 testdata/inventories/default.hcl:55: Link ends disagree on lossless priorities
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
  device "leaf1" {
    port "Ethernet1/1" {
      qos {
        traffic_class "rdma" {
          lossless = false
        }
      }
    }
  }
}
