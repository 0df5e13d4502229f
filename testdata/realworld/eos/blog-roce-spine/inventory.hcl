# The spine of the source's demo topology: a Jericho-style spine with
# tx-queue (no unicast queues). The catalog has no Jericho model; the
# DCS-7060DX4-32 stands in (the renderer writes the same lines on both).
# Its two leaf-facing ports, speeds and cables are typical values (the
# source shows Ethernet1 and says "every leaf-facing spine interface";
# its topology has two leaves).
device "spine-1" {
  vendor   = "eos"
  platform = "DCS-7060DX4-32"
  address  = "192.0.2.22"
  ports "Ethernet1-2" {
    speed = "400G"
    cable = "10m"
  }
}
