# The switch of Cisco TME Paresh Gupta's roce_enable.py (SOURCE.md): a
# 400G GPU leaf; ports and cables are typical values (the script applies
# to every Ethernet port).
device "n9k" {
  vendor   = "nxos"
  platform = "N9K-C9364D-GX2A"
  address  = "192.0.2.10"
  ports "Ethernet1/1-8" {
    speed = "400G"
    cable = "3m"
  }
}
