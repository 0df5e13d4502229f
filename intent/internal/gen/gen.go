// Package gen generates synthetic fabrics (an intent and an inventory) of
// any size, for benchmarks and load tests of the intent resolver. The
// output is deterministic: the same sizes give the same bytes.
package gen

import (
	"bytes"
	"fmt"
)

// Platform is the catalog model every generated device uses.
const Platform = "Arista-7060CX-32S"

// vendors rotate over the generated devices.
var vendors = []string{"nxos", "eos", "huawei-ce", "sonic"}

// Fabric returns the intent and the inventory of a fabric of the given
// number of devices, each with ports 100G ports named Ethernet1/1…
// Every 50th device is a spine, the rest are leaves; consecutive device
// pairs are linked on their two highest ports. The intent has one QoS
// profile (RoCE lossless on 3 with ECN, CNP strict on 6, watchdog), one
// buffer profile with automatic headroom, an assign block per role and a
// device override for each of the first four devices.
func Fabric(devices, ports int) (intent, inventory []byte) {
	return Intent(devices), Inventory(devices, ports)
}

// Name returns the name of device i.
func Name(i int) string { return fmt.Sprintf("sw%05d", i) }

// Intent returns the generated intent.
func Intent(devices int) []byte {
	var b bytes.Buffer
	b.WriteString(`qos_profile "roce" {
  trust = "dscp"
  traffic_class "bulk" {
    id        = 0
    dscp      = "default"
    bandwidth = "50%"
  }
  traffic_class "rdma" {
    id        = 3
    dscp      = [24, 26]
    lossless  = true
    bandwidth = "50%"
    ecn {
      min_threshold   = "150KB"
      max_threshold   = "3000KB"
      max_probability = 7
    }
  }
  traffic_class "cnp" {
    id       = 6
    dscp     = [48]
    cnp      = true
    priority = "strict"
  }
  pfc {
    watchdog {
      detection_time   = "200ms"
      restoration_time = "400ms"
      action           = "drop"
    }
  }
}

buffer_profile "auto" {
  headroom = "auto"
}

assign "spines" {
  devices = { role = "spine" }
  qos     = qos_profile.roce
  buffers = buffer_profile.auto
}

assign "leaves" {
  devices = { role = "leaf" }
  qos     = qos_profile.roce
  buffers = buffer_profile.auto
`)
	for i := 1; i <= min(4, devices); i++ {
		if role(i) != "leaf" {
			continue
		}
		fmt.Fprintf(&b, `
  device %q {
    options = { "gen.index" = "%d" }
    qos {
      traffic_class "rdma" {
        id        = 3
        dscp      = [24, 26]
        lossless  = true
        bandwidth = "50%%"
        ecn {
          min_threshold   = "100KB"
          max_threshold   = "2000KB"
          max_probability = %d
        }
      }
    }
  }
`, Name(i), i, 5+i)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

func role(i int) string {
	if i%50 == 0 {
		return "spine"
	}
	return "leaf"
}

// Inventory returns the generated inventory.
func Inventory(devices, ports int) []byte {
	var b bytes.Buffer
	b.Grow(devices * 260)
	for i := 0; i < devices; i++ {
		fmt.Fprintf(&b, `device %q {
  vendor   = %q
  platform = %q
  address  = "10.%d.%d.%d"
  roles    = [%q]
  ports "Ethernet1/1-%d" {
    speed = "100G"
    cable = "%dm"
  }
}
`, Name(i), vendors[i%len(vendors)], Platform, i>>16&255, i>>8&255, i&255, role(i), ports, 1+i%30)
	}
	if ports >= 2 {
		for i := 0; i+1 < devices; i += 2 {
			for _, p := range []int{ports - 1, ports} {
				fmt.Fprintf(&b, "link {\n  a = \"%s:Ethernet1/%d\"\n  b = \"%s:Ethernet1/%d\"\n}\n", Name(i), p, Name(i+1), p)
			}
		}
	}
	return b.Bytes()
}
