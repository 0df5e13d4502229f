# DeviceD of Huawei's priority mapping example (V300R023C00 configuration
# guide), an access switch; the example names no model, here the
# catalog's CE6866 (family A). Cable lengths are typical values.
device "DeviceD" {
  vendor   = "huawei-ce"
  platform = "CE6866"
  address  = "192.0.2.36"
  ports "100GE1/0/1-4" {
    speed = "100G"
    cable = "3m"
  }
}
