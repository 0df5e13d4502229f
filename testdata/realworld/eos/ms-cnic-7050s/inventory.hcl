# The Arista DCS-7050S-64 of Microsoft's converged-NIC switch guide; the
# catalog has no 7050S-64, so its DCS-7050CX3-32S stands in. Ports
# Ethernet14/1-17/1 as the source names them; speed and cable length are
# typical values (the source gives none).
device "tor1" {
  vendor   = "eos"
  platform = "DCS-7050CX3-32S"
  address  = "192.0.2.26"
  ports "Ethernet14/1,Ethernet15/1,Ethernet16/1,Ethernet17/1" {
    speed = "10G"
    cable = "3m"
  }
}
