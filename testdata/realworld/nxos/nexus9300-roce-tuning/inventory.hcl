# The Nexus 9300 of a public RoCEv2 tuning guide (SOURCE.md); the guide
# names C9336C-FX2 and C93180YC-EX, the catalog's nearest is the
# 93180YC-FX. Port speed and cable length are typical values.
device "n9300" {
  vendor   = "nxos"
  platform = "N9K-C93180YC-FX"
  address  = "192.0.2.41"
  ports "Ethernet1/1" {
    speed = "25G"
    cable = "3m"
  }
}
