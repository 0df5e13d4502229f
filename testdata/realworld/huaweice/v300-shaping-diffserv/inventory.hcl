# DeviceB of Huawei's traffic shaping by DiffServ priority mapping example
# (V300R023C00 configuration guide); the example names no model, here the
# catalog's CE8855. Two 100GE trunks (interface 1 and 2 of the example);
# cable lengths are typical values.
device "DeviceB" {
  vendor   = "huawei-ce"
  platform = "CE8855"
  address  = "192.0.2.39"
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "3m"
  }
}
