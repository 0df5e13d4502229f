locals {
  a = local.b # ERROR LL006: Cycle in local values
  b = local.a # ERROR LL006: Cycle in local values
}

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
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
