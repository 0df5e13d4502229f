# A leaf of the Cisco Data Center Networking Blueprint for AI/ML
# Applications (SOURCE.md): 400G GPU-facing ports; the cable length is a
# typical value.
device "leaf1" {
  vendor   = "nxos"
  platform = "N9K-C9364D-GX2A"
  address  = "192.0.2.11"
  ports "Ethernet1/1-2" {
    speed = "400G"
    cable = "3m"
  }
}
