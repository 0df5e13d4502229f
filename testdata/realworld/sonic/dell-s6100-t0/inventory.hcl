# Ports with lossless QoS of s6100-dev-1 (Force10-S6100), speeds from its port_config.ini, cable lengths from CABLE_LENGTH|AZURE.

device "s6100-dev-1" {
  vendor   = "sonic"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.10"
  ports "Ethernet0,Ethernet1,Ethernet4,Ethernet5,Ethernet6,Ethernet7,Ethernet8,Ethernet9,Ethernet10,Ethernet11,Ethernet12,Ethernet13,Ethernet14,Ethernet15,Ethernet16,Ethernet17,Ethernet20,Ethernet21,Ethernet22,Ethernet23,Ethernet24,Ethernet25,Ethernet26,Ethernet27,Ethernet28,Ethernet29,Ethernet30,Ethernet31,Ethernet32,Ethernet36,Ethernet37,Ethernet38,Ethernet39,Ethernet40,Ethernet41,Ethernet42,Ethernet48,Ethernet52,Ethernet53,Ethernet54,Ethernet55,Ethernet56,Ethernet57,Ethernet58" {
    speed = "40G"
    cable = "5m"
  }
}
