# Leaf1 of Huawei's PFC deadlock prevention example (V300R023C00
# configuration guide): its script carries the family-B headroom pool and
# dscp-mapping lines, so the catalog's CE8855. 100GE1/0/1-2 are the
# uplinks to Spine1 and Spine2; cable lengths are typical values.
device "Leaf1" {
  vendor   = "huawei-ce"
  platform = "CE8855"
  address  = "192.0.2.32"
  ports "100GE1/0/1-2" {
    speed = "100G"
    cable = "10m"
  }
}
