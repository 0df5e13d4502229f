package eos_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/vendors/eos"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// BenchmarkDiff50k: the plan (parse, scope, diff, remediation and the
// human diff) of a running config holding about 50,000 lines in scope;
// textdiff.Unified alone on the two texts that plan's human diff
// compares; and share, the two run in turn, reporting the text diff's
// share of the plan (turn by turn, so a loaded machine slows both alike).
// Goal (issue 10): the text diff is at most 10 % of the plan.
//
// drift: every 50th port has stale ECN thresholds, every 70th lacks the
// PFC watchdog, every 90th has a stale no-drop priority, which the
// intent prunes (unmanaged = "prune"). retune: the same, and every
// port's ECN thresholds change (a fabric-wide retune), so the human diff
// shows every port.
func BenchmarkDiff50k(b *testing.B) {
	for _, retune := range []bool{false, true} {
		name := "drift"
		if retune {
			name = "retune"
		}
		c := newConfigs50k(retune)
		doc := vendortest.CLIDocument(b, eos.Parse, c.desired)
		doc.Prune = true
		vendortest.BenchTextDiffShare(b, name, eos.Diff, c.running, doc, c.have, c.want)
	}
}

// configs50k is a running config of ports holding about 50,000 lines in
// scope (plus a description and an MTU per port, out of scope), its
// desired config, and the two texts the plan's human diff compares: the
// scoped running and the desired stanzas of the ports that change, as
// Diff prints them.
type configs50k struct {
	running    []byte
	desired    string
	have, want string
}

func newConfigs50k(retune bool) configs50k {
	const ecn = "random-detect ecn minimum-threshold 150 kbytes maximum-threshold 3000 kbytes max-mark-probability 100"
	var run, des, have, want strings.Builder
	scoped := 0
	for port := 1; scoped < 50_000; port++ {
		name := "interface Ethernet" + strconv.Itoa(port/48+1) + "/" + strconv.Itoa(port%48+1)
		wantBody := []string{
			"   qos trust dscp",
			"   priority-flow-control on",
			"   priority-flow-control priority 3 no-drop",
			"   priority-flow-control pause watchdog",
			"   !",
			"   tx-queue 3",
			"      " + ecn,
			"   !",
			"   tx-queue 6",
			"      priority strict",
		}
		haveBody := make([]string, 0, len(wantBody)+1)
		for _, l := range wantBody {
			switch {
			case strings.HasSuffix(l, ecn) && (retune || port%50 == 0):
				l = strings.Replace(l, "150", "100", 1)
			case strings.HasSuffix(l, "pause watchdog") && port%70 == 0:
				continue
			}
			haveBody = append(haveBody, l)
			if strings.HasSuffix(l, "priority 3 no-drop") && port%90 == 0 {
				haveBody = append(haveBody, "   priority-flow-control priority 4 no-drop")
			}
		}
		run.WriteString(name + "\n   description host-" + strconv.Itoa(port) + "\n   mtu 9214\n")
		writeLines(&run, haveBody)
		run.WriteString("!\n")
		des.WriteString(name + "\n")
		writeLines(&des, wantBody)
		des.WriteString("!\n")
		scoped += 2 + len(haveBody)
		if retune || port%50 == 0 || port%70 == 0 || port%90 == 0 {
			if have.Len() > 0 {
				have.WriteString("!\n")
				want.WriteString("!\n")
			}
			have.WriteString(name + "\n")
			writeLines(&have, haveBody)
			want.WriteString(name + "\n")
			writeLines(&want, wantBody)
		}
	}
	const globals = "qos map dscp 24 26 to traffic-class 3\nqos map dscp 48 to traffic-class 6\n!\npriority-flow-control pause watchdog default timeout 0.2\npriority-flow-control pause watchdog action drop\n"
	run.WriteString(globals)
	des.WriteString(globals)
	return configs50k{running: []byte(run.String()), desired: des.String(), have: have.String(), want: want.String()}
}

func writeLines(b *strings.Builder, lines []string) {
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
}
