# A ToR of Microsoft's Azure Local disaggregated storage design
# (SOURCE.md): a Nexus 93180YC-FX with a 25G storage-intent host port;
# the cable length is a typical value.
device "tor1" {
  vendor   = "nxos"
  platform = "N9K-C93180YC-FX"
  address  = "192.0.2.21"
  ports "Ethernet1/17" {
    speed = "25G"
    cable = "3m"
  }
}
