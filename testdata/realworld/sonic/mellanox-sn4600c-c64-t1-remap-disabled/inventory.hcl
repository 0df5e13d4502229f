# Ports with lossless QoS of r-tigon-11 (Mellanox-SN4600C-C64), speeds from its port_config.ini, cable lengths from CABLE_LENGTH|AZURE.

device "r-tigon-11" {
  vendor   = "sonic"
  platform = "SN4600C"
  address  = "192.0.2.10"
  ports "Ethernet0,Ethernet4,Ethernet16,Ethernet20,Ethernet64,Ethernet68,Ethernet80,Ethernet84" {
    speed = "100G"
    cable = "300m"
  }
  ports "Ethernet136,Ethernet144,Ethernet148,Ethernet152,Ethernet156,Ethernet168,Ethernet176,Ethernet180,Ethernet184,Ethernet188,Ethernet200,Ethernet208,Ethernet212,Ethernet216,Ethernet220,Ethernet232,Ethernet240,Ethernet244,Ethernet248,Ethernet252" {
    speed = "100G"
    cable = "40m"
  }
}
