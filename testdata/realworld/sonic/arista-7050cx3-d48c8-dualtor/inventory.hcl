# Ports with lossless QoS of str2-7050cx3-acs-10 (Arista-7050CX3-32S-D48C8), speeds from its port_config.ini, cable lengths from CABLE_LENGTH|AZURE.

device "str2-7050cx3-acs-10" {
  vendor   = "sonic"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.10"
  ports "Ethernet0,Ethernet4,Ethernet8,Ethernet12,Ethernet16,Ethernet20,Ethernet40,Ethernet44,Ethernet48,Ethernet52,Ethernet56,Ethernet60,Ethernet64,Ethernet68,Ethernet72,Ethernet76,Ethernet80,Ethernet84,Ethernet104,Ethernet108,Ethernet112,Ethernet116,Ethernet120,Ethernet124" {
    speed = "50G"
    cable = "5m"
  }
  ports "Ethernet24,Ethernet28,Ethernet32,Ethernet36,Ethernet88,Ethernet92,Ethernet96,Ethernet100" {
    speed = "100G"
    cable = "40m"
  }
}
