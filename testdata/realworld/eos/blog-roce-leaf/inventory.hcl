# The leaf of the source's demo topology. The source names no model: a
# Broadcom-based leaf with separate unicast queues (uc-tx-queue), here the
# catalog's DCS-7060DX5-64S. Port speed and cable length are typical
# values (the source gives none).
device "leaf-1" {
  vendor   = "eos"
  platform = "DCS-7060DX5-64S"
  address  = "192.0.2.21"
  ports "Ethernet1" {
    speed = "400G"
    cable = "3m"
  }
}
