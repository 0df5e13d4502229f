package eos

import (
	"slices"
	"strconv"
	"strings"
)

// Stale and unrelated config LabSeed adds: earlier ECN thresholds, a
// lossless class the intent no longer has (PFC priority 4 and DSCP 10 in
// traffic class 4), an earlier watchdog timeout, and config lossless must
// never touch (descriptions, mtu, ECN counters, an uplink port outside
// the intent with an operator's policy-map and its class-map, the MMU
// queue profile the switch applies; their shapes are AVD's class-maps.j2,
// policy-maps-qos.j2, platform-trident.j2 and platform-apply.j2,
// reference/eos.md §3).
const (
	staleECN     = "random-detect ecn minimum-threshold 100 kbytes maximum-threshold 2000 kbytes max-mark-probability 50"
	stalePFC     = "priority-flow-control priority 4 no-drop"
	staleMap     = "qos map dscp 10 to traffic-class 4"
	staleTimeout = "priority-flow-control pause watchdog default timeout 0.5"
	ecnCount     = "random-detect ecn count"
	opsPolicy    = "OPS_UPLINK"
	opsMMU       = "OPS_BUFFERS"
)

// LabSeed returns a realistic running config for an emulated EOS switch
// that should end at desired (its rendering): desired with stale ECN
// thresholds, an extra lossless priority on every managed port or
// profile, an extra DSCP map entry, another watchdog timeout, plus config
// outside lossless' scope. Nil when desired does not parse.
func LabSeed(desired []byte) []byte {
	nodes, err := parse(desired)
	if err != nil || len(nodes) == 0 {
		return nil
	}
	var out []*node
	first := true
	for _, n := range nodes {
		switch {
		case isInterface(n.Text) || isProfile(n.Text):
			stale(n)
			if isInterface(n.Text) && first {
				first = false
				n.Kids = append([]*node{newNode("description rdma-host", nil), newNode("mtu 9214", nil)}, n.Kids...)
			}
		case strings.HasPrefix(n.Text, "priority-flow-control pause watchdog default timeout "):
			n = newNode(staleTimeout, nil)
		}
		out = append(out, n)
	}
	out = append(out, newNode(staleMap, nil))
	// An uplink outside the intent, on the highest free front-panel port
	// of the lab's 32-port model, classifying with an operator's
	// policy-map.
	for p := 32; p > 0; p-- {
		name := "interface Ethernet" + strconv.Itoa(p)
		if !slices.ContainsFunc(nodes, func(n *node) bool { return n.Text == name }) {
			out = append(out, newNode(name, []*node{newNode("description uplink-to-core", nil), newNode("mtu 9214", nil), newNode("no qos trust", nil),
				newNode("service-policy type qos input "+opsPolicy, nil)}))
			out = append(out, newNode("class-map type qos match-any OPS_MGMT", []*node{newNode("match dscp 16", nil)}),
				newNode("policy-map type quality-of-service "+opsPolicy, []*node{newNode("class OPS_MGMT", []*node{newNode("set traffic-class 2", nil)})}))
			break
		}
	}
	out = append(out, newNode(mmuPrefix+opsMMU, []*node{newNode("ingress threshold 1/16", nil)}), newNode(mmuPrefix+opsMMU+" apply", nil))
	return []byte(print(out))
}

// stale rewrites a port or profile stanza: old ECN thresholds with ECN
// counters on, and an extra no-drop priority after the others.
func stale(n *node) {
	var kids []*node
	for i, c := range n.Kids {
		kids = append(kids, c)
		if strings.HasPrefix(c.Text, "priority-flow-control priority ") && (i+1 == len(n.Kids) || !strings.HasPrefix(n.Kids[i+1].Text, "priority-flow-control priority ")) {
			kids = append(kids, newNode(stalePFC, nil))
		}
		for i, l := range c.Kids {
			if l.Key == "random-detect ecn" {
				c.Kids[i] = newNode(staleECN, nil)
				c.Kids = append(c.Kids, newNode(ecnCount, nil))
				break
			}
		}
	}
	n.Kids = kids
}
