# stor-sw-01, an "Arista 7050" storage top-of-rack switch; the catalog's
# DCS-7050CX3-32S stands in. Ports Ethernet9/1-14/1 as the source lists
# them; speed and cable length are typical values (the source gives none).
device "stor-sw-01" {
  vendor   = "eos"
  platform = "DCS-7050CX3-32S"
  address  = "192.0.2.24"
  ports "Ethernet9/1,Ethernet10/1,Ethernet11/1,Ethernet12/1,Ethernet13/1,Ethernet14/1" {
    speed = "100G"
    cable = "3m"
  }
}
