// Package fabricgen generates synthetic fabrics (an intent and an
// inventory) of any size, for benchmarks and load tests of the intent
// resolver, the renderers and the CLI. The devices' vendors come from the
// vendor registry: every registered vendor with an Example platform and a
// port naming, in name order (import vendors/all to have them all). The
// output is deterministic: the same sizes and vendors give the same bytes.
package fabricgen

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/lossless-net/lossless/internal/units"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
)

// model is how the generated devices of one vendor look: a catalog
// platform, the vendor's port naming, the tag that assigns them and the
// headroom pool their platform needs.
type model struct {
	vendor, platform, tag string
	ports                 inventory.PortNaming
	pool                  units.Bytes
}

// models are the registered vendors that give an example device, in
// name order; the generated devices rotate over them.
func models() []model {
	var out []model
	for _, n := range vendors.Names() {
		v, _ := vendors.Lookup(n)
		if v.Example.Platform == "" || v.Ports.Check() != "" {
			continue
		}
		tag := strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, strings.ToLower(n))
		out = append(out, model{vendor: n, platform: v.Example.Platform, tag: tag, ports: v.Ports, pool: v.Example.HeadroomPool})
	}
	return out
}

// Fabric returns the intent and the inventory of a fabric of the given
// number of devices, each with ports 100G ports. Vendors rotate over the
// registered ones (models), each on its example platform with its own
// port names. Every 50th device is a spine, the rest are leaves;
// consecutive device pairs are linked on their two highest ports. The
// intent has one QoS profile (RoCE lossless on 3 with ECN, CNP strict on
// 6, PFC watchdog with the vendors' default timers), a buffer profile with
// automatic headroom, plus one with the headroom pool and an assign block
// for each vendor whose platform needs a pool, an assign block per role
// for the others, and a device override for each of the first four
// leaves of those. It returns nil, nil when no vendor gives an example.
func Fabric(devices, ports int) (intent, inventory []byte) {
	ms := models()
	if len(ms) == 0 {
		return nil, nil
	}
	return intentOf(ms, devices), inventoryOf(ms, devices, ports)
}

// Name returns the name of device i.
func Name(i int) string { return fmt.Sprintf("sw%05d", i) }

// intentOf returns the generated intent.
func intentOf(ms []model, devices int) []byte {
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
`)
	var plain []string
	for _, m := range ms {
		if m.pool == 0 {
			plain = append(plain, fmt.Sprintf("%q", m.tag))
			continue
		}
		fmt.Fprintf(&b, `
buffer_profile %q {
  headroom      = "auto"
  headroom_pool = %q
}

assign %q {
  devices = { tag = %q }
  qos     = qos_profile.roce
  buffers = buffer_profile.%s
}
`, m.tag, m.pool.String(), m.tag, m.tag, m.tag)
	}
	if len(plain) == 0 {
		return b.Bytes()
	}
	tags := strings.Join(plain, ", ")
	fmt.Fprintf(&b, `
assign "spines" {
  devices = { role = "spine", tag = [%s] }
  qos     = qos_profile.roce
  buffers = buffer_profile.auto
}

assign "leaves" {
  devices = { role = "leaf", tag = [%s] }
  qos     = qos_profile.roce
  buffers = buffer_profile.auto
`, tags, tags)
	for i := 1; i <= min(4, devices); i++ {
		if role(i) != "leaf" || ms[i%len(ms)].pool != 0 {
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

// inventoryOf returns the generated inventory.
func inventoryOf(ms []model, devices, ports int) []byte {
	var b bytes.Buffer
	b.Grow(devices * 280)
	for i := 0; i < devices; i++ {
		m := ms[i%len(ms)]
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
`, Name(i), m.vendor, m.platform, i>>16&255, i>>8&255, i&255, role(i), m.tag, m.ports.Range(ports), 1+i%30)
	}
	if ports >= 2 {
		for i := 0; i+1 < devices; i += 2 {
			a, c := ms[i%len(ms)], ms[(i+1)%len(ms)]
			for _, p := range []int{ports - 1, ports} {
				fmt.Fprintf(&b, "link {\n  a = \"%s:%s\"\n  b = \"%s:%s\"\n}\n", Name(i), a.ports.Name(p), Name(i+1), c.ports.Name(p))
			}
		}
	}
	return b.Bytes()
}
