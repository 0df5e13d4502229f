# DeviceA of Huawei's buffer optimization example (CE6800/8800
# V300R023C00 configuration guide). Only family A models have the plane
# buffer optimization (the example's precautions); the catalog's
# CE8850-HAM. Two 100GE ports (interface1/2 of the example); cable lengths
# are typical values, the source gives none (the 90 km link is what
# long-distance mode level-100 is for, outside the intent).
device "DeviceA" {
  vendor   = "huawei-ce"
  platform = "CE8850-HAM"
  address  = "192.0.2.33"
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "3m"
  }
}
