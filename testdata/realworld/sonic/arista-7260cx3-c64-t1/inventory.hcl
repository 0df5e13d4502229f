# Ports with lossless QoS of str-7260cx3-acs-7 (Arista-7260CX3-C64), speeds from its port_config.ini, cable lengths from CABLE_LENGTH|AZURE.

device "str-7260cx3-acs-7" {
  vendor   = "sonic"
  platform = "Arista-7060CX-32S"
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
