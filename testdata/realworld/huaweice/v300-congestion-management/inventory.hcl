# DeviceB of Huawei's congestion management example (V300R023C00
# configuration guide); the example names no model, here the catalog's
# CE8855. Two access ports and a trunk (interface 1–3 of the example);
# cable lengths are typical values.
device "DeviceB" {
  vendor   = "huawei-ce"
  platform = "CE8855"
  address  = "192.0.2.40"
  ports "100GE1/0/1-3" {
    speed = "100G"
    cable = "3m"
  }
}
