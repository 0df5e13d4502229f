# A number beyond 1e±331 is refused where it is written: written out it
# would take more digits than any value needs (1e100000000 has a hundred
# million). Nothing else of the file is read.
locals {
  huge = 1e400 # ERROR LL092: Number out of range
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
