# DeviceA of Huawei's iQCN example (CE6800/8800 V300R023C00 configuration
# guide). iQCN is supported on family A models only (the iQCN command
# pages); the catalog's CE8850-HAM. Two 100GE host ports (interface1/2 of
# the example); cable lengths are typical values, the source gives none.
device "DeviceA" {
  vendor   = "huawei-ce"
  platform = "CE8850-HAM"
  address  = "192.0.2.35"
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "3m"
  }
}
