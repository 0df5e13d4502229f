# The rollout block's audit_log must name a file; a fabric has one
# rollout block.

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
  audit_log = "audit/" # ERROR LL081: Invalid audit_log
}

rollout { # ERROR LL003: Duplicate rollout block
  audit_log = "changes.jsonl"
}
