# var: undeclared=1
# ERROR LL005 -: Value for undeclared variable

variable "needed" { # ERROR LL005: No value for required variable
  type = string
}

variable "ecn_max" {
  type    = string
  default = "30000KB" # ERROR LL005: Invalid value for variable
  validation {
    condition     = tonumber(trimsuffix(var.ecn_max, "KB")) <= 10000
    error_message = "ecn_max must be at most 10000KB."
  }
}

variable "count" {
  type    = number
  default = "many" # ERROR LL005: Invalid default value for variable
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
