# TOR-A of Microsoft's Azure Local fully converged design (SOURCE.md):
# the source's Nexus 93180YC-FX3 is not in the catalog, so its FX
# sibling; 25G host ports (the design's), typical cable lengths.
device "tor-a" {
  vendor   = "nxos"
  platform = "N9K-C93180YC-FX"
  address  = "192.0.2.22"
  ports "Ethernet1/1-3" {
    speed = "25G"
    cable = "3m"
  }
}
