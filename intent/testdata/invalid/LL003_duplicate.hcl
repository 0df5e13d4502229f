variable "x" {
  default = 1
}

variable "x" { # ERROR LL003: Duplicate variable declaration
  default = 2
}

locals {
  a = 1
}

locals {
  a = 2 # ERROR LL003: Duplicate local value
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
  traffic_class "cnp" { # ERROR LL003: Duplicate traffic_class block
    id = 7
  }
}

qos_profile "roce" { # ERROR LL003: Duplicate qos_profile declaration
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}

assign "all" { # ERROR LL003: Duplicate assign declaration
  devices = "*"
  qos     = qos_profile.roce
}
