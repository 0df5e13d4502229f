qos_profile "roce" {
  names {
    classifier = "QOS IN" # ERROR LL009: Invalid object name
    queuing    = ""       # ERROR LL009: Invalid object name
  }
  traffic_class "bulk" {
    id   = 0
    dscp = "default"
    names {
      scheduler = "lossy|0" # ERROR LL009: Invalid object name
    }
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
