// Package gen generates synthetic fabrics (an intent and an inventory) of
// any size, for benchmarks and load tests of the intent resolver. The
// output is deterministic: the same sizes give the same bytes.
package gen

import (
	"bytes"
	"fmt"
)

// vendor is how the generated devices of one vendor look: a catalog
// platform and the vendor's port naming.
type vendor struct {
	name, platform string
	// port returns the name of port i (1-based) and range the ports
	// block of n ports.
	port      func(i int) string
	portRange func(n int) string
	tag       string
}

// vendors rotate over the generated devices.
var vendors = []vendor{
	{"nxos", "N9K-C93600CD-GX", func(i int) string { return fmt.Sprintf("Ethernet1/%d", i) }, func(n int) string { return fmt.Sprintf("Ethernet1/1-%d", n) }, "nxos"},
	{"eos", "DCS-7060CX-32S", func(i int) string { return fmt.Sprintf("Ethernet%d", i) }, func(n int) string { return fmt.Sprintf("Ethernet1-%d", n) }, "eos"},
	{"huawei-ce", "CE8855", func(i int) string { return fmt.Sprintf("100GE1/0/%d", i) }, func(n int) string { return fmt.Sprintf("100GE1/0/1-%d", n) }, "ce"},
	{"sonic", "Arista-7060CX-32S", func(i int) string { return fmt.Sprintf("Ethernet%d", 4*(i-1)) }, func(n int) string { return fmt.Sprintf("Ethernet0-%d step 4", 4*(n-1)) }, "sonic"},
}

// Fabric returns the intent and the inventory of a fabric of the given
// number of devices, each with ports 100G ports. Vendors rotate (NX-OS,
// EOS, Huawei CE family B, SONiC), each on a catalog platform with its own
// port names. Every 50th device is a spine, the rest are leaves;
// consecutive device pairs are linked on their two highest ports. The
// intent has one QoS profile (RoCE lossless on 3 with ECN, CNP strict on
// 6, PFC watchdog with the vendors' default timers), a buffer profile with
// automatic headroom (plus the headroom pool CloudEngine needs), an assign
// block per role and one for the CloudEngines, and a device override for
// each of the first four leaves.
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
      action = "drop"
    }
  }
}

buffer_profile "auto" {
  headroom = "auto"
}

buffer_profile "ce" {
  headroom      = "auto"
  headroom_pool = "4MB"
}

assign "ce" {
  devices = { tag = "ce" }
  qos     = qos_profile.roce
  buffers = buffer_profile.ce
}

assign "spines" {
  devices = { role = "spine", tag = ["nxos", "eos", "sonic"] }
  qos     = qos_profile.roce
  buffers = buffer_profile.auto
}

assign "leaves" {
  devices = { role = "leaf", tag = ["nxos", "eos", "sonic"] }
  qos     = qos_profile.roce
  buffers = buffer_profile.auto
`)
	for i := 1; i <= min(4, devices); i++ {
		if role(i) != "leaf" || vendors[i%len(vendors)].tag == "ce" {
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
	b.Grow(devices * 280)
	for i := 0; i < devices; i++ {
		v := vendors[i%len(vendors)]
		fmt.Fprintf(&b, `device %q {
  vendor   = %q
  platform = %q
  address  = "10.%d.%d.%d"
  roles    = [%q]
  tags     = [%q]
  ports %q {
    speed = "100G"
    cable = "%dm"
  }
}
`, Name(i), v.name, v.platform, i>>16&255, i>>8&255, i&255, role(i), v.tag, v.portRange(ports), 1+i%30)
	}
	if ports >= 2 {
		for i := 0; i+1 < devices; i += 2 {
			a, c := vendors[i%len(vendors)], vendors[(i+1)%len(vendors)]
			for _, p := range []int{ports - 1, ports} {
				fmt.Fprintf(&b, "link {\n  a = \"%s:%s\"\n  b = \"%s:%s\"\n}\n", Name(i), a.port(p), Name(i+1), c.port(p))
			}
		}
	}
	return b.Bytes()
}
