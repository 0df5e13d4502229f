package nxos_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/vendors/nxos"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// BenchmarkDiff50k: the plan (parse, scope, diff, remediation and the
// human diff) of a running config holding about 50,000 lines in scope;
// textdiff.Unified alone on the two texts that plan's human diff
// compares; and share, the two run in turn, reporting the text diff's
// share of the plan (turn by turn, so a loaded machine slows both alike).
// Goal (issue 10): the text diff is at most 10 % of the plan.
//
// drift: the canonical policies, then ports of which every 50th has PFC
// off, every 70th lacks the PFC watchdog and every 90th has a stale
// queuing policy. rollout: the same, and the other ports lack PFC mode
// on (a brownfield switch before lossless: mode auto, the default, is
// not shown), so the human diff shows every port.
func BenchmarkDiff50k(b *testing.B) {
	canonical := string(vendortest.Testdata(b, "canonical.cfg"))
	for _, rollout := range []bool{false, true} {
		name := "drift"
		if rollout {
			name = "rollout"
		}
		c := newConfigs50k(canonical, rollout)
		vendortest.BenchTextDiffShare(b, name, nxos.Diff, c.running, vendortest.CLIDocument(b, nxos.Parse, c.desired), c.have, c.want)
	}
}

// configs50k is a running config holding about 50,000 lines in scope
// (plus a description per port, out of scope), its desired config, and
// the two texts the plan's human diff compares: the scoped running and
// the desired stanzas of the ports that change, as Diff prints them.
type configs50k struct {
	running    []byte
	desired    string
	have, want string
}

// newConfigs50k builds configs50k on canonical, the desired policies,
// which the running config has unchanged.
func newConfigs50k(canonical string, rollout bool) configs50k {
	var run, des, have, want strings.Builder
	run.WriteString(canonical)
	des.WriteString(canonical)
	scoped := strings.Count(canonical, "\n")
	for port := 3; scoped < 50_000; port++ {
		name := fmt.Sprintf("interface Ethernet%d/%d", port/64+1, port%64+1)
		wantBody := []string{
			"  priority-flow-control mode on",
			"  priority-flow-control watch-dog-interval on",
			"  service-policy type qos input QOS_CLASSIFICATION",
		}
		haveBody := make([]string, 0, len(wantBody)+1)
		for _, l := range wantBody {
			switch {
			case strings.HasSuffix(l, "mode on") && port%50 == 0:
				l = "  priority-flow-control mode off"
			case strings.HasSuffix(l, "mode on") && rollout:
				continue
			case strings.HasSuffix(l, "watch-dog-interval on") && port%70 == 0:
				continue
			}
			haveBody = append(haveBody, l)
		}
		if port%90 == 0 {
			// A line the desired config lacks prints after the others.
			haveBody = append(haveBody, "  service-policy type queuing output QOS_EGRESS_PORT")
		}
		run.WriteString(name + "\n  description host-" + fmt.Sprint(port) + "\n")
		writeLines(&run, haveBody)
		des.WriteString(name + "\n")
		writeLines(&des, wantBody)
		scoped += 1 + len(haveBody)
		if rollout || port%50 == 0 || port%70 == 0 || port%90 == 0 {
			have.WriteString(name + "\n")
			writeLines(&have, haveBody)
			want.WriteString(name + "\n")
			writeLines(&want, wantBody)
		}
	}
	return configs50k{running: []byte(run.String()), desired: des.String(), have: have.String(), want: want.String()}
}

func writeLines(b *strings.Builder, lines []string) {
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
}
