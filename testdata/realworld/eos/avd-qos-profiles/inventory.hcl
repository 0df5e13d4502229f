# AVD's eos_cli_config_gen test device for qos profiles; it names no
# model: the catalog's DCS-7050CX3-32S. Ports, speed and cable length are
# typical values (AVD's test data applies the profiles to no port).
device "qos-profiles" {
  vendor   = "eos"
  platform = "DCS-7050CX3-32S"
  address  = "192.0.2.25"
  ports "Ethernet1-2" {
    speed = "100G"
    cable = "3m"
  }
}
