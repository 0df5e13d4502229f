# DeviceA of Huawei's ECN Overlay example (V300R023C00 configuration
# guide), a VXLAN gateway; the example names no model, here the catalog's
# CE8855. Cable lengths are typical values.
device "DeviceA" {
  vendor   = "huawei-ce"
  platform = "CE8855"
  address  = "192.0.2.35"
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "3m"
  }
}
