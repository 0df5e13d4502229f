# Knobs an operator tunes per fabric. Override them on the command line:
#   lossless validate -var ecn_max=2000KB examples/ai-fabric

variable "ecn_min" {
  description = "Queue depth at which RoCE traffic starts being ECN-marked."
  type        = string
  default     = "150KB"
}

variable "ecn_max" {
  description = "Queue depth at which marking reaches its maximum probability."
  type        = string
  default     = "3000KB"
  validation {
    condition     = length(regexall("^[0-9]+KB$", var.ecn_max)) == 1
    error_message = "ecn_max must be a whole number of KB, for example \"3000KB\"."
  }
}

locals {
  # RoCEv2 data and its congestion notifications (CNP), as NVIDIA and the
  # Cisco AI/ML blueprint mark them.
  roce_dscp = [24, 26]
  cnp_dscp  = [48]
}
