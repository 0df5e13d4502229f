# A storage switch of a NeonSAN deployment guide (SOURCE.md): the guide
# gives the ports as Ethernet1/*; four 25G ports on a Nexus 93180YC-FX
# and the cable length are typical values.
device "neonsan-sw1" {
  vendor   = "nxos"
  platform = "N9K-C93180YC-FX"
  address  = "192.0.2.51"
  ports "Ethernet1/1-4" {
    speed = "25G"
    cable = "3m"
  }
}
