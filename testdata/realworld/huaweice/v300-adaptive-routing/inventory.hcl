# DeviceA1 of Huawei's adaptive routing example (V300R023C00
# configuration guide), a dragonfly group's switch; its script carries
# the headroom pool "required only on the CE8855 and CE8851-32CQ4BQ", so
# the catalog's CE8855. Ports 1–2 are global (inter-group) links, 3–4
# local links, 5–6 access ports; speeds are the example's 100GE, cable
# lengths typical values.
device "DeviceA1" {
  vendor   = "huawei-ce"
  platform = "CE8855"
  address  = "192.0.2.37"
  ports "100GE1/0/1-6" {
    speed = "100G"
    cable = "10m"
  }
}
