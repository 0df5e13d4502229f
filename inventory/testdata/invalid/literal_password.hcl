credentials "ops" {
  username_env = "USER"
  password     = "s3cr3t-never-printed" # ERROR LL112: Literal password in the inventory
}

credentials "lab" {
  username_env           = "USER"
  password               = "admin"
  allow_literal_password = true
}
