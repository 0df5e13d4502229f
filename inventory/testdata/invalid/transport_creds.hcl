credentials "ops" {
  username_env = "USER"
}

credentials "ops" { # ERROR LL115: Duplicate credentials name
  username_env = "OTHER"
}

device "a" {
  vendor      = "nxos"
  platform    = "Arista-7060CX-32S"
  address     = "192.0.2.1"
  transport   = "telnet" # ERROR LL113: Unknown transport
  credentials = credentials.nope # ERROR LL114: Unknown credentials
}

device "b" {
  vendor      = "nxos"
  platform    = "Arista-7060CX-32S"
  address     = "192.0.2.2"
  credentials = "ops" # ERROR LL117: Invalid credentials reference
}
