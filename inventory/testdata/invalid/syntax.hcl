device "a" {
  vendor   = "nxos"
  platform = "Arista-7060CX-32S"
  address  = "192.0.2.1"
  colour   = "blue" # ERROR LL100: Unsupported argument
}

switch "b" { # ERROR LL100: Unsupported block type
}
