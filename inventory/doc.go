// Package inventory loads the devices lossless manages — vendor, platform,
// management address and transport, a credentials reference, roles and
// tags, ports with speed and cable length, and the links between ports —
// from an inventory HCL file or a containerlab topology (*.clab.yml, see
// clab.go for the mapping). The accepted vendor names and containerlab
// kinds are the caller's (Vendors, from the vendor registry): inventory
// knows no vendor.
//
// It checks what it can without the intent: names, vendors, platforms,
// addresses, port ranges, links and secrets. Every problem is an
// hcl.Diagnostic carrying a rule ID LL100–LL123 (rules.go) and the range
// of the value at fault; a file over the limits it shares with the intent
// (size, nesting, items: package bounded) gets LL090–LL093 instead, and is
// not decoded. It reads the inventory file and nothing else: credentials
// hold the names of environment variables and files, never their content.
// The file kept for the snippets of diagnostics (Inventory.Files) has
// every password masked, so that no diagnostic shows one.
//
// The inventory language:
//
//	credentials "ops" {
//	  username_env = "LOSSLESS_USER"      # environment variable names
//	  password_env = "LOSSLESS_PASSWORD"
//	  password_file = "/run/secrets/pw"   # or a file holding the password
//	  key_file     = "~/.ssh/id_ed25519"
//	  known_hosts  = "~/.ssh/known_hosts"
//	  tls_ca       = "~/gnmi-ca.pem"      # gNMI: the CA of the targets' certificates (default: system roots)
//	  tls_cert     = "~/gnmi-client.pem"  # gNMI: a client certificate and its key, both or neither
//	  tls_key      = "~/gnmi-client.key"
//	  # password = "…" is refused (LL112) unless allow_literal_password = true
//	}
//
//	device "leaf1" {
//	  vendor      = "…"                   # required; one of the vendor names given to Load
//	  platform    = "N9K-C9364D-GX2A"     # required; a platform catalog model or alias
//	  address     = "192.0.2.11"          # required; IP address or host name, no port
//	  port        = 22                    # optional; default 22 for ssh, vendor default for gnmi
//	  transport   = "ssh"                 # "ssh" (default) or "gnmi"
//	  roles       = ["leaf"]
//	  tags        = ["pod1"]
//	  credentials = credentials.ops       # a reference, not a string
//	  ports "Ethernet1/1-32" {            # see ExpandPorts for ranges
//	    speed = "400G"                    # required, with a unit
//	    cable = "3m"                      # optional, with a unit
//	  }
//	}
//
//	link {
//	  a = "leaf1:Ethernet1/33"
//	  b = "spine1:Ethernet1/1"
//	}
//
// HCL allows one argument in a single-line block, so ports and link blocks
// with two arguments are written on several lines as above; the one-line
// form `ports "…" { speed = "400G", cable = "3m" }` is a syntax error
// (LL100) that says so.
package inventory
