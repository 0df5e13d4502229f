package huaweice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lossless-net/lossless/internal/config"
)

// LabSeed returns a realistic running config for an emulated CloudEngine
// switch that should end at desired (its rendering): desired with stale
// ECN thresholds, an older DRR split and range, a tuned deadlock timer, an
// extra DSCP mapping (802.1p on a CoS-only domain) and an extra ECN class (drop-profile "<domain>-ecn-Q"
// on queue Q of every managed port, Q the first of 4, 5, 2, 1 that
// desired leaves without ECN), plus config outside lossless' scope
// (LLDP, a storage domain and WRED profile on an unmanaged port, a
// deadlock trigger on a managed port). Nil when desired does not parse.
func LabSeed(desired []byte) []byte {
	nodes, err := Parse(desired)
	if err != nil || len(nodes) == 0 {
		return nil
	}
	managed, ecnQueue := map[string]bool{}, map[string]bool{}
	var out []*config.Node
	domain := ""
	for _, n := range nodes {
		switch {
		case n.Text == "dcb pfc":
			for _, c := range n.Children {
				if f := strings.Fields(c.Text); len(f) == 5 && f[2] == "deadlock-detect" {
					c.Text = strings.Join(f[:4], " ") + " 5"
				}
			}
		case strings.HasPrefix(n.Text, "dcb pfc deadlock-detect timer "):
			n.Text = "dcb pfc deadlock-detect timer 200"
		case strings.HasPrefix(n.Text, "diffserv domain "):
			if domain == "" {
				domain = strings.TrimPrefix(n.Text, "diffserv domain ")
				// One line per DSCP, as the device shows it: a full map's
				// line for DSCP 10 is replaced.
				extra := &config.Node{Text: "ip-dscp-inbound 10 phb af1 green"}
				i := slices.IndexFunc(n.Children, func(c *config.Node) bool { return strings.HasPrefix(c.Text, "ip-dscp-inbound 10 ") })
				cosOnly := len(n.Children) > 0 && !slices.ContainsFunc(n.Children, func(c *config.Node) bool { return strings.HasPrefix(c.Text, "ip-dscp-inbound ") })
				if cosOnly {
					// An 802.1p domain (trust cos) maps all eight
					// priorities: 802.1p 1's line is replaced.
					extra = &config.Node{Text: "8021p-inbound 1 phb af2 green"}
					i = slices.IndexFunc(n.Children, func(c *config.Node) bool { return strings.HasPrefix(c.Text, "8021p-inbound 1 ") })
				}
				if i >= 0 {
					n.Children[i] = extra
				} else {
					n.Children = append(n.Children, extra)
				}
			}
		case strings.HasPrefix(n.Text, "drop-profile "):
			for _, c := range n.Children {
				if strings.HasPrefix(c.Text, "ecn ") {
					c.Text = "ecn buffer-size low-limit 102400 high-limit 2048000 discard-percentage 5"
				}
			}
		case strings.HasPrefix(n.Text, "interface "):
			managed[strings.TrimPrefix(n.Text, "interface ")] = true
			for _, c := range n.Children {
				if f := strings.Fields(c.Text); len(f) == 5 && f[3] == "wred" {
					ecnQueue[f[2]] = true
				}
			}
		}
		out = append(out, n)
	}
	if domain == "" {
		return nil
	}
	// The extra ECN class takes the first of queues 4, 5, 2, 1 that no
	// class of desired marks.
	extraQ := ""
	for _, q := range []string{"4", "5", "2", "1"} {
		if !ecnQueue[q] {
			extraQ = q
			break
		}
	}
	extraDrop := domain + "-ecn-" + extraQ
	first := true
	for _, n := range out {
		if !strings.HasPrefix(n.Text, "interface ") {
			continue
		}
		var kids []*config.Node
		for _, c := range n.Children {
			switch {
			case strings.HasPrefix(c.Text, "dcb pfc buffer ") && strings.Contains(c.Text, " hdrm "):
				f := strings.Fields(c.Text)
				c.Text = strings.Join(f[:5], " ") + " 200 kbytes"
			case strings.HasPrefix(c.Text, "qos drr 0 to "):
				// An older split: one queue less in DRR.
				c.Text = "qos drr 0 to 4"
			case strings.HasSuffix(c.Text, " drr weight 60"):
				c.Text = strings.Replace(c.Text, "weight 60", "weight 50", 1)
			}
			kids = append(kids, c)
			if strings.HasSuffix(c.Text, " ecn") {
				kids = append(kids, &config.Node{Text: "qos queue " + extraQ + " ecn"})
			}
			if strings.HasPrefix(c.Text, "qos queue ") && strings.Contains(c.Text, " wred ") && !strings.Contains(c.Text, extraDrop) {
				kids = append(kids, &config.Node{Text: "qos queue " + extraQ + " wred " + extraDrop})
			}
		}
		if first {
			first = false
			kids = append(kids, &config.Node{Text: "port pfc-deadlock trigger error-down"})
		}
		n.Children = kids
	}
	seed := []*config.Node{{Text: "lldp enable"}}
	if familyA(nodes) {
		// The lab emulates family B unless the seed names a model
		// (lab/huaweice: "!Model: X"); CE8850-HAM is family A
		// (reference/huawei-ce.md §0).
		seed = append([]*config.Node{{Text: "!Model: CE8850-HAM"}}, seed...)
	}
	var ifs []*config.Node
	for _, n := range out {
		if strings.HasPrefix(n.Text, "interface ") {
			ifs = append(ifs, n)
			continue
		}
		seed = append(seed, n)
	}
	seed = append(seed,
		&config.Node{Text: "diffserv domain storage", Children: []*config.Node{{Text: "ip-dscp-inbound 10 phb af2 green"}}},
		&config.Node{Text: "drop-profile " + extraDrop, Children: []*config.Node{{Text: "ecn buffer-size low-limit 204800 high-limit 1024000 discard-percentage 20"}}},
		&config.Node{Text: "drop-profile bulk", Children: []*config.Node{{Text: "color green buffer-size low-limit 1024000 high-limit 2048000 discard-percentage 20"}}})
	seed = append(seed, ifs...)
	// An unmanaged port with another team's QoS.
	for p := 32; p >= 1; p-- {
		name := fmt.Sprintf("100GE1/0/%d", p)
		if !managed[name] {
			seed = append(seed, &config.Node{Text: "interface " + name, Children: []*config.Node{
				{Text: "trust upstream storage"}, {Text: "qos queue 1 wred bulk"}, {Text: "lldp tlv-enable dcbx"}}})
			break
		}
	}
	return Text(seed)
}

// familyA reports whether a rendering is for a family A switch
// (reference §0): it has family A's millisecond deadlock timers or global
// ECN, or PFC on ports without family B's dscp-mapping line (which
// renderers/huaweice writes whenever a family B port has PFC); any of
// family B's interval, per-priority deadlock or dscp-mapping lines means
// family B.
func familyA(nodes []*config.Node) bool {
	a, pfc := false, false
	for _, n := range nodes {
		switch {
		case strings.HasPrefix(n.Text, "dcb pfc deadlock-detect timer "), strings.HasPrefix(n.Text, "dcb pfc deadlock-recovery timer "), n.Text == "qos ecn enable":
			a = true
		case strings.HasPrefix(n.Text, "dcb pfc deadlock-detect interval "), strings.HasPrefix(n.Text, "dcb pfc dscp-mapping "):
			return false
		case n.Text == "dcb pfc":
			for _, c := range n.Children {
				if strings.Contains(c.Text, "deadlock-") {
					return false
				}
			}
		case strings.HasPrefix(n.Text, "interface "):
			for _, c := range n.Children {
				pfc = pfc || strings.HasPrefix(c.Text, "dcb pfc enable")
			}
		}
	}
	return a || pfc
}
