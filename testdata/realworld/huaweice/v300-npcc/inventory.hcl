# DeviceA of Huawei's NPCC example (CE6800/8800 V300R023C00 configuration
# guide), a DCI egress switch. NPCC is supported on family A models only
# (the NPCC command pages); the catalog's CE8850-HAM. Its one 100GE port
# (interface1 of the example); the cable length is a typical value, the
# source gives none.
device "DeviceA" {
  vendor   = "huawei-ce"
  platform = "CE8850-HAM"
  address  = "192.0.2.34"
  ports "100GE1/0/1" {
    speed = "100G"
    cable = "3m"
  }
}
