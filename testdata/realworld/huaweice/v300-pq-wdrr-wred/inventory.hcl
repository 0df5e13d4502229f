# DeviceB of Huawei's PQ+WDRR and WRED example (V300R023C00 configuration
# guide); the example names no model, here the catalog's CE8855. Three
# 100GE ports (interface 1–3 of the example); cable lengths are typical.
device "DeviceB" {
  vendor   = "huawei-ce"
  platform = "CE8855"
  address  = "192.0.2.34"
  ports "100GE1/0/1-3" {
    speed = "100G"
    cable = "3m"
  }
}
