# DeviceA of Huawei's DCB example (V300R023C00 configuration guide), a
# switch negotiating PFC and ETS with its servers by DCBX; its script
# carries the headroom pool "required only on the CE6855-48XS8CQ, …,
# CE8855", so the catalog's CE8855. Three 100GE server ports; cable
# lengths are typical values, the source gives none.
device "DeviceA" {
  vendor   = "huawei-ce"
  platform = "CE8855"
  address  = "192.0.2.38"
  ports "100GE1/0/1-3" {
    speed = "100G"
    cable = "3m"
  }
}
