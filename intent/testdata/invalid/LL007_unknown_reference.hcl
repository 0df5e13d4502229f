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
  qos     = qos_profile.rocev2 # ERROR LL007: Reference to undeclared qos_profile
  buffers = "nope" # ERROR LL007: Reference to undeclared buffer_profile
}
