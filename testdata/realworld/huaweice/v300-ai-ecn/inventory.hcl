# DeviceA of Huawei's AI ECN example (CE6800/8800 V300R023C00
# configuration guide). The example runs on the family-B models that need
# the headroom pool (CE8855 among them); the catalog's CE8855. Two 100GE
# host ports (interface1/2 of the example); cable lengths are typical
# values, the source gives none.
device "DeviceA" {
  vendor   = "huawei-ce"
  platform = "CE8855"
  address  = "192.0.2.31"
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "3m"
  }
}
