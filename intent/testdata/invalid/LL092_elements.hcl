# A list, or any value, of more than 100,000 items is refused, and so is a
# function call whose result would be over the limits (range gives at most
# 1024 values).
locals {
  ports  = range(2000)                                 # ERROR LL092: Value too large
  rows   = [for i in range(1000) : range(200)]         # ERROR LL092: Value too large
  all    = flatten(local.rows)
  padded = format("%099999999d", 1)                    # ERROR LL092: Value too large
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
