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
  devices = { role = ["leaf", "spine", "border"] }
  ports   = ["Ethernet1/1-2", "Ethernet1-2", "Ethernet0", "100GE1/0/1"]
  qos     = qos_profile.roce

  device "spine2" { # ERROR LL074: Override for a device not assigned
    options = { "sonic.x" = "y" }
  }
  device "leaf1" {
    port "Ethernet1/3" { # ERROR LL074: Override for a port not assigned
      qos {
        trust = "dscp"
      }
    }
  }
}
