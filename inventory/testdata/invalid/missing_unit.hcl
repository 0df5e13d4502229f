device "a" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
  ports "Ethernet1/1-4" {
    speed = 400 # ERROR LL111: Missing unit
    cable = "3m"
  }
  ports "Ethernet1/5-8" {
    speed = "400G"
    cable = "3" # ERROR LL111: Missing unit
  }
  ports "Ethernet1/9" {
    speed = "fast" # ERROR LL117: Invalid speed
  }
}
