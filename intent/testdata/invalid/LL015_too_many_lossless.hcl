# The catalog's Arista-7060CX-32S supports 2 lossless classes; ce1's test
# platform supports 3.
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
  }
  traffic_class "storage" {
    id       = 4
    dscp     = [32]
    lossless = true
  }
  traffic_class "hpc" {
    id       = 5
    dscp     = [40]
    lossless = true # ERROR LL015: Too many lossless classes
  }
}

assign "all" {
  devices = "*"
  qos     = qos_profile.roce
}
