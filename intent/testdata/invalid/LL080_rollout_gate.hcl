# Health gate limits of the rollout block outside their ranges: a rate
# must be above 0 (leave it out for apply's default) and at most 1e9 per
# second per port; watchdog events are a whole number.

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

rollout {
  gate {
    max_pause    = 0 # ERROR LL080: Invalid max_pause
    max_drops    = 2e9 # ERROR LL080: Invalid max_drops
    max_watchdog = 0.5 # ERROR LL080: Invalid max_watchdog
  }
}
