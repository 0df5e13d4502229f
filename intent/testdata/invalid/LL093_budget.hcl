# Nested for expressions multiply: this one would build a billion values.
# Evaluating one intent builds at most 250,000 values; evaluation stops at
# the expression that passes the limit.
locals {
  cube = [for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]] # ERROR LL093: Too many values
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
