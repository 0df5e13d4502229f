# A valid inventory: every device, port and link resolves.
credentials "ops" {
  username_env = "LOSSLESS_USER"
  password_env = "LOSSLESS_PASSWORD"
  known_hosts  = "~/.ssh/known_hosts"
}

credentials "lab" {
  username_env           = "LAB_USER"
  password               = "admin"
  allow_literal_password = true
}

device "leaf1" {
  vendor      = "nxos"
  platform    = "Arista-7060CX-32S"
  address     = "192.0.2.11"
  transport   = "ssh"
  roles       = ["leaf"]
  tags        = ["pod1", "ai"]
  credentials = credentials.ops
  ports "Ethernet1/1-32" {
    speed = "400G"
    cable = "3m"
  }
  ports "Ethernet1/33-64" {
    speed = "400G"
    cable = "30m"
  }
}

device "spine1" {
  vendor      = "sonic"
  platform    = "arista-7060cx-32s"
  address     = "spine1.lab.example"
  port        = 2222
  roles       = ["spine"]
  credentials = credentials.lab
  ports "Ethernet0-124 step 4" {
    speed = "100G"
    cable = "5m"
  }
}

link {
  a = "leaf1:Ethernet1/33"
  b = "spine1:Ethernet0"
}
