# Devices intent_test.go breaks on purpose by name: odd1's platform gets a
# zero cell size, odd2's first port loses its speed (as a containerlab
# import without speed labels leaves it).

device "odd1" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.7"
  ports "Ethernet1/1" {
    speed = "100G"
    cable = "5m"
  }
}

device "odd2" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.8"
  ports "Ethernet1/1" {
    speed = "100G"
    cable = "5m"
  }
}
