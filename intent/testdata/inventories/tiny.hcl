# One device whose buffer intent_test.go shrinks to 1 MB by name, so that
# its lossless headroom cannot fit.

device "tiny1" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.9"
  ports "Ethernet1/1-32" {
    speed = "400G"
    cable = "100m"
  }
}
