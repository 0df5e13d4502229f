package nxos

import (
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/config"
)

// Stale and unrelated config LabSeed adds: an earlier ECN profile, a class
// the intent no longer has, and config lossless must never touch (a
// class-map of another team, an uplink, descriptions).
// sharedClass is a class the intent no longer has either, but another
// team's policy, otherPolicy on the uplink, uses its class-map: that
// class-map stays (NX-OS would refuse its deletion).
const (
	staleECN    = "random-detect minimum-threshold 300 kbytes maximum-threshold 1500 kbytes drop-probability 5 weight 0 ecn"
	staleClass  = "BULK_OLD"
	sharedClass = "BULK"
	otherPolicy = "OTHER"
)

// LabSeed returns a realistic running config for an emulated NX-OS switch
// that should end at desired (its rendering): desired with stale ECN
// thresholds, two extra classes in the classification policy (one whose
// class-map another team's policy on the uplink also uses), plus config
// outside lossless' scope. Everything in lossless' scope is a config an
// intent can say (the extra classes set qos-groups of their own), so
// `lossless import` reads it whole and its plan is empty. Nil when desired does not
// parse.
func LabSeed(desired []byte) []byte {
	nodes, err := Parse(desired)
	if err != nil || len(nodes) == 0 {
		return nil
	}
	var out []*config.Node
	var ifSeen, qosSeen bool
	for _, n := range nodes {
		switch {
		case strings.HasPrefix(n.Text, "policy-map type queuing "):
			for _, c := range n.Children {
				for _, l := range c.Children {
					if strings.HasPrefix(l.Text, "random-detect ") {
						l.Text = staleECN
					}
				}
			}
		case strings.HasPrefix(n.Text, "policy-map type qos "):
			n.Children = append([]*config.Node{
				{Text: "class " + staleClass, Children: []*config.Node{{Text: "set qos-group 1"}}},
				{Text: "class " + sharedClass, Children: []*config.Node{{Text: "set qos-group 2"}}},
			}, n.Children...)
			if qosSeen {
				break
			}
			qosSeen = true
			out = append(out,
				&config.Node{Text: "class-map type qos match-any " + staleClass, Children: []*config.Node{{Text: "match dscp 10"}}},
				&config.Node{Text: "class-map type qos match-any " + sharedClass, Children: []*config.Node{{Text: "match dscp 14"}}},
				&config.Node{Text: "class-map type qos match-all MGMT", Children: []*config.Node{{Text: "match dscp 16"}}},
				&config.Node{Text: "policy-map type qos " + otherPolicy, Children: []*config.Node{{Text: "class " + sharedClass, Children: []*config.Node{{Text: "set qos-group 1"}}}}})
		case strings.HasPrefix(n.Text, "interface ") && !ifSeen:
			ifSeen = true
			n.Children = append([]*config.Node{{Text: "description rdma-host"}}, n.Children...)
		}
		out = append(out, n)
	}
	// The uplink sits on the lowest Ethernet1/N the intent does not manage,
	// so that it exists on every Nexus model (an N9K-C93600CD-GX has only
	// Ethernet1/1-36).
	used := map[string]bool{}
	for _, n := range nodes {
		if name, ok := strings.CutPrefix(n.Text, "interface "); ok {
			used[name] = true
		}
	}
	uplink := 1
	for used["Ethernet1/"+strconv.Itoa(uplink)] {
		uplink++
	}
	out = append(out, &config.Node{Text: "interface Ethernet1/" + strconv.Itoa(uplink), Children: []*config.Node{
		{Text: "description uplink-to-core"}, {Text: "mtu 9216"}, {Text: "service-policy type qos input " + otherPolicy}}})
	return []byte(print(canonTree(out)))
}
