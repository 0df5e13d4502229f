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
  traffic_class "rdma" {
    id       = 3
    dscp     = [24, 26]
    lossless = true
    ecn {
      min_threshold   = "3000KB" # ERROR LL020: ECN minimum threshold above maximum
      max_threshold   = "150KB"
      max_probability = 7
    }
  }
  traffic_class "mixed" {
    id   = 5
    dscp = [40]
    ecn {
      # 300us is 3.75 MB at 100G and 15 MB at 400G: two speeds, two reports.
      min_threshold   = "300us" # ERROR LL020: ECN minimum threshold above maximum # ERROR LL020: ECN minimum threshold above maximum
      max_threshold   = "150KB"
      max_probability = 100
    }
  }
  traffic_class "fine" {
    id   = 2
    dscp = [16]
    ecn {
      # 10us is 125 KB at 100G and 500 KB at 400G: below 1MB at both.
      min_threshold   = "10us"
      max_threshold   = "1MB"
      max_probability = 100
    }
  }
  traffic_class "step" {
    id = 4
    dscp = [32]
    ecn {
      # min = max is step marking, which is valid.
      min_threshold   = "300KB"
      max_threshold   = "300KB"
      max_probability = 100
    }
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
