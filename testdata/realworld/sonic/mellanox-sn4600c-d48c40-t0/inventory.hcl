# Ports with lossless QoS of r-tigon-20 (Mellanox-SN4600C-D48C40), speeds from its port_config.ini, cable lengths from CABLE_LENGTH|AZURE.

device "r-tigon-20" {
  vendor   = "sonic"
  platform = "SN4600C"
  address  = "192.0.2.10"
  ports "Ethernet2,Ethernet4,Ethernet6,Ethernet8,Ethernet10,Ethernet12,Ethernet14,Ethernet16,Ethernet18,Ethernet20,Ethernet22,Ethernet24,Ethernet26,Ethernet28,Ethernet30,Ethernet32,Ethernet34,Ethernet36,Ethernet38,Ethernet48" {
    speed = "50G"
    cable = "5m"
  }
  ports "Ethernet248,Ethernet250,Ethernet252,Ethernet254" {
    speed = "50G"
    cable = "40m"
  }
}
