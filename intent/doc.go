// Package intent decodes, checks and resolves the HCL intent into a desired
// state per device. It reads the intent files and nothing else: the devices
// come from package inventory, and vendor syntax belongs to the renderers.
//
// Load reads a directory of *.hcl files as one module, like a Terraform
// module (the inventory file, inventory.hcl by default, is skipped).
// Resolve joins the result with an inventory into one Device (state.go)
// per assigned device, every value in a base unit and every lossless
// port's headroom computed, and runs the semantic checks. Problems are
// hcl.Diagnostics whose Extra carries a diag.Rule (LL001–LL099, listed in
// rules.go with what each checks).
//
// # The language
//
// Top-level blocks:
//
//	variable "NAME" { type, default, description, validation { condition, error_message } }
//	locals { NAME = EXPR … }
//	qos_profile "NAME" { … }
//	buffer_profile "NAME" { … }
//	port_group "NAME" { ports = ["Ethernet1/1-32", …] }
//	assign "NAME" { … }
//	rollout { … }                     # at most one per fabric
//
// Expressions may use var.NAME, local.NAME, port_group.NAME (its list of
// ports), qos_profile.NAME and buffer_profile.NAME, and the go-cty stdlib
// functions under Terraform's names (concat, format, range, lookup, merge,
// regexall, tostring …). -var NAME=VALUE takes the text as is for string
// (and untyped) variables and as an HCL expression otherwise; -var wins
// over -var-file, which wins over the default.
//
// A qos_profile holds trust ("dscp", the default, or "cos"), up to eight
// traffic_class "NAME" blocks, an optional pfc block and a names block
// (see Names):
//
//	traffic_class "ROCEv2" {
//	  id             = 3                # 0–7: traffic class = queue = PFC priority
//	  dscp           = [24, 26, "40-47"] # values, "A-B" ranges, or "default"
//	  cos            = [3]              # 802.1p priorities 0–7, ranges, or "default"
//	  match          = "any"            # or "all": every criterion must match (NX-OS match-all)
//	  lossless       = true             # PFC no-drop on this priority
//	  cnp            = false            # carries RoCE CNPs: strict, never lossless
//	  priority       = "strict"         # with priority_level (1 highest), or:
//	  bandwidth      = "50%"            # DWRR share of what strict queues leave; or weight = 1–100
//	  min_bandwidth  = "1%"             # share of the port guaranteed, beside any of the above
//	  shape          = "10G"            # the queue's maximum rate, beside any of the above
//	  mtu            = 9216             # bytes
//	  ecn {
//	    min_threshold   = "150KB"       # a size, a time at line rate ("20us"), or a share of the queue's limit ("50%")
//	    max_threshold   = "3000KB"
//	    max_probability = 7             # percent, 0–100 ("7%" also works); leave out for the vendor's default
//	    weight          = 0             # WRED averaging exponent, 0–15
//	    yellow { min_threshold = "1MB", max_threshold = "2MB", max_probability = 5 } # and red; drop = true drops instead of marking
//	  }
//	}
//	pfc {
//	  mode       = "on"                 # on (default), off (no PFC on these ports), auto (DCBX)
//	  priorities = [3]                  # optional; must equal the lossless ids
//	  watchdog {                        # PFC watchdog / deadlock detection
//	    detection_time   = "200ms"
//	    restoration_time = "400ms"
//	    polling_interval = "100ms"
//	    action           = "drop"       # drop, forward, errdisable, notify-only
//	    priorities       = [3]          # optional: watch only these lossless priorities
//	  }
//	}
//
// With trust = "dscp" exactly one class takes dscp = "default", the DSCP
// values no other class claims; cos on a class then classifies frames
// without an IP header, and when any class has cos exactly one takes cos
// = "default" (LL027). With trust = "cos" the classes give cos values
// instead of dscp (LL019), one of them "default" (LL027); a CoS value is
// 0–7 (LL025) in one class only (LL026). The weighted classes' bandwidth
// shares may sum to less than 100 % (a warning: the switches share the
// rest in proportion) but not more (LL030). An empty watchdog block turns
// the watchdog on with the vendor's timers.
//
// Features beyond the core (trust and maps by CoS, match = "all",
// min_bandwidth, shape, pfc mode off or auto, a watchdog on some
// priorities, ECN without max_probability or with 0, WRED of yellow and
// red packets, thresholds as shares of the queue's limit) are rendered for the
// vendors whose renderers render them (intent.Feature,
// vendors.Vendor.Features); a device of another vendor given one is error
// LL133, never rendered without it.
//
// A buffer_profile holds headroom ("auto": computed per port from speed,
// cable length and the class MTU, or MTUMax of the platform when the class
// has none; or { xoff = "165568B", xon = "2288B", size = "1248B" }),
// lossless_pool and lossy_pool (a size or a share of the platform buffer,
// "40%"), headroom_pool (a size) and alpha (the dynamic-threshold exponent
// as SONiC writes it).
//
// An assign block binds profiles to devices:
//
//	assign "leaves" {
//	  devices = { role = "leaf", tag = ["pod1"] } # or "*", or ["leaf1", "leaf2"]
//	  ports   = port_group.server_facing          # default: every inventory port
//	  qos     = qos_profile.roce
//	  buffers = buffer_profile.auto
//	  options = { "eos.style" = "qos-profile" }   # vendor rendering choices
//	  unmanaged = "keep"                          # or "prune" (see below)
//	  device "leaf1" {                            # per-device override
//	    options = { … }                           # merged key by key
//	    unmanaged = "prune"                       # wins over the assign's
//	    qos { … }                                 # merged over the profile
//	    buffers { … }
//	    port "Ethernet1/1-2" { qos { … } }        # per-port override
//	  }
//	}
//
// unmanaged says what plan does with the objects of the families lossless
// manages on a device (QoS policies and maps, buffer tables, drop
// profiles: each driver's package doc lists them) that the rendering does
// not contain — another team's class-map, SONiC's own template rows, a
// hand-added buffer PG: "keep" (the default) leaves them and lists them in
// the device's plan section, with what uses them; "prune" removes them.
// Either way an object still used from outside lossless' scope is never
// removed, and the plan says what uses it. Any other value is LL004.
//
// A device matches a selector when it matches every key given (name, role,
// tag; each a string or a list, a list matching any of its values). A
// device may be selected by one assign block only. The listed ports apply
// to each selected device that has them; a listed port that no selected
// device has is an error, so one block can cover devices of different port
// layouts.
//
// Overrides merge block by block: an attribute written in the override
// replaces the profile's; a nested block written in the override (a
// traffic_class with the same name, pfc, ecn, watchdog, names) merges
// into the profile's block of the same type and name, the same way, in
// its place, and a new one is added. So changing one ECN value on one
// device is
//
//	device "leaf1" {
//	  qos {
//	    traffic_class "ROCEv2" {
//	      ecn { max_probability = 50 }
//	    }
//	  }
//	}
//
// A class's priority, priority_level, bandwidth and weight are one
// choice: writing any of them in an override replaces the inherited
// scheduling (weight = 40 over bandwidth = "50%"). remove = true in a
// nested block of an override (traffic_class "NAME", pfc, ecn, watchdog)
// removes the inherited block instead; written in a profile it is LL004.
// A port override merges over the device's QoS (the profile with the
// device override applied).
//
// # Names
//
// Every object a renderer creates takes its name from the intent, as
// written (case kept); where the intent gives none, the renderer's
// default, which depends only on the profile and the class it belongs
// to, never on the other classes. A qos_profile's names block names the
// profile-wide objects, a traffic_class's names block its own:
//
//	names {
//	  classifier   = "QOS_CLASSIFICATION" # NX-OS policy-map type qos, Huawei CE diffserv domain, SONiC DSCP_TO_TC_MAP
//	  queuing      = "QOS_EGRESS_PORT"    # NX-OS policy-map type queuing
//	  network_qos  = "qos_network"        # NX-OS policy-map type network-qos
//	  port_profile = "ROCE"               # EOS qos profile (eos.style = "qos-profile")
//	  maps         = "AZURE"              # SONiC TC_TO_QUEUE_MAP, TC_TO_PRIORITY_GROUP_MAP, MAP_PFC_PRIORITY_TO_QUEUE, PFC_PRIORITY_TO_PRIORITY_GROUP_MAP (default: the classifier's name)
//	}
//	traffic_class "ROCEv2" {
//	  names {
//	    class_map    = "RoCEv2"           # NX-OS class-map type qos (default: the class's name)
//	    scheduler    = "scheduler.1"      # SONiC SCHEDULER
//	    drop_profile = "AZURE_LOSSLESS"   # SONiC WRED_PROFILE, Huawei CE drop-profile
//	  }
//	}
//
// A name is 1–64 characters of letters, digits and _ - . : (LL009); a
// vendor with a shorter limit refuses a longer name at render time,
// naming its limit. Two classes may share a scheduler or drop_profile
// name when what it holds is the same, and never a class_map (LL038).
//
// A rollout block gives the fabric's defaults for a staged lossless apply
// (rollout.go); an apply flag given on the command line wins over each:
//
//	rollout {
//	  audit_log = "audit/lossless.jsonl" # -audit; relative to the intent directory
//	  gate {                             # -gate: health gates between batches
//	    max_pause    = 1000              # -gate-max-pause: PFC pause frames per second per port
//	    max_drops    = 50                # -gate-max-drops: queue/no-buffer drops per second per port
//	    max_watchdog = 0                 # -gate-max-watchdog: PFC watchdog events per port per batch
//	  }
//	}
//
// A gate block turns the health gates on; a limit it leaves out takes
// apply's default (max_pause 1000, max_drops none, max_watchdog 0). The
// rates are greater than 0 and at most 1e9: 0 is refused because apply's
// gate reads a zero rate as no limit (leave max_drops out for that); for
// no drops at all write a tiny rate such as 0.001, which one drop during a
// batch shorter than 1000 s exceeds. max_watchdog is a whole number from
// 0. Either setting makes apply roll out in stages, as its flag does. With
// apply -lab the intent's audit_log is not written (the lab's changes
// are not the fabric's history; -audit still is), as the lock and the
// rollout state are not.
//
// # Limits
//
// No input can crash lossless or make it use memory out of proportion to
// its size (package bounded): a file is at most 16 MiB, and so are the
// intent's files together (LL090); source nests at most 128 levels deep,
// counting brackets, braces, blocks, strings, interpolations and each
// operator in a chain, and so does a value (LL091); a list, object, block
// or value holds at most 100,000 items, and a value at most 16 MiB of
// strings (LL092); and one load reads at most 1,000,000 items and builds
// at most 250,000 values and 64 MiB of strings by evaluating them, which
// stops for expressions nested in each other or templates that repeat a
// large value (LL093). The inventory is held to the same limits.
//
// # Units
//
// Every quantity has one documented unit, parsed by package units: sizes B,
// KB (1024 B), MB; rates G, M; lengths m; durations us, ms, s; shares %. A
// bare number where a unit is needed is error LL001, whose message suggests
// the unit. Exceptions, where the unit is fixed by convention: mtu (bytes),
// max_probability (percent), weights and alpha (plain numbers), and the
// rollout gate limits (per second per port, and events).
package intent
