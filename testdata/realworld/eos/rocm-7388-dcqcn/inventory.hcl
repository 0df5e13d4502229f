# ROCm's Arista 7388 (a modular Trident switch; the catalog has no 7388,
# so its fixed DCS-7060DX5-64S stands in). The ports run at 200G ("speed
# 200g-4" in the source); the cable length is a typical value.
device "rocm-7388" {
  vendor   = "eos"
  platform = "DCS-7060DX5-64S"
  address  = "192.0.2.23"
  ports "Ethernet2/5/1,Ethernet2/5/5" {
    speed = "200G"
    cable = "3m"
  }
}
