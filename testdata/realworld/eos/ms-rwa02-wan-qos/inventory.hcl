# rwa02.str15, a DCS-7804-CH chassis (Jericho); the catalog has no 7800R,
# so the DCS-7060DX5-64S stands in: the renderer writes the same lines.
# Ports as the source names them; speeds are the source's where it gives
# one ("speed forced 100gfull" on Ethernet3/11/1 and 3/15/1), typical
# values elsewhere; cable lengths are typical.
device "rwa02.str15" {
  vendor   = "eos"
  platform = "DCS-7060DX5-64S"
  address  = "192.0.2.26"
  ports "Port-Channel132,Port-Channel248" {
    speed = "400G"
    cable = "10m"
  }
  ports "Ethernet3/11/1,Ethernet3/15/1" {
    speed = "100G"
    cable = "3m"
  }
}
