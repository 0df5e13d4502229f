# A leaf of the "Cisco Nexus 9000 NX-OS template" (SOURCE.md), applied
# to Ethernet1/1-48 as the source does; a 48-port 25G Nexus 93180YC-FX
# and the cable length are typical values.
device "leaf-01" {
  vendor   = "nxos"
  platform = "N9K-C93180YC-FX"
  address  = "192.0.2.31"
  ports "Ethernet1/1-48" {
    speed = "25G"
    cable = "3m"
  }
}
