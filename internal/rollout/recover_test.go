package rollout_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/rollout"
)

// killMidChange leaves the state as an apply killed in the middle of
// device's change would: its start recorded (with the NX-OS checkpoint
// saved before it) and the first half of its commands on the device, no
// result. It returns the state file and device's config from before.
func killMidChange(t *testing.T, devs []plan.Device, nodes map[string]*lab.Node, device string) (string, []byte) {
	t.Helper()
	st := newState(t, devs)
	path := filepath.Join(t.TempDir(), "state.json")
	rec := rollout.NewRecorder(st, path, nil, "ops", nil)
	if err := rec.Save(); err != nil {
		t.Fatal(err)
	}
	var d plan.Device
	for _, x := range devs {
		if x.Intent.Name == device {
			d = x
		}
	}
	drv, err := plan.Dial(t.Context(), d)
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	before, err := drv.Running(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var ch = st.Plan.Devices[0].Change
	for _, dp := range st.Plan.Devices {
		if dp.Device == device {
			ch = dp.Change
		}
	}
	if err := rec.Batch(1, nil).Started(t.Context(), d, drv, plan.Fingerprint(before), ch); err != nil {
		t.Fatal(err)
	}
	s := nodes[device].Device().NewSession("ops", nil)
	s.Handle("configure terminal")
	for _, l := range ch.Commands[:len(ch.Commands)/2] {
		s.Handle(l)
	}
	s.Handle("end")
	if now := running(t, d); bytes.Equal(now, before) {
		t.Fatal("half the change changed nothing")
	}
	return path, before
}

// restorePoints counts the write-ahead record's NX-OS checkpoints on the
// lab devices.
func restorePoints(nodes map[string]*lab.Node) int {
	n := 0
	for _, node := range nodes {
		out, _ := node.Device().NewSession("ops", nil).Handle("show checkpoint summary")
		n += strings.Count(out, ") lossless-pre-")
	}
	return n
}

// TestRecoverBackNXOS: recover puts an NX-OS device killed in the middle
// of its change back to its config from before, byte for byte, through
// the checkpoint recorded for it, and records it recovered.
func TestRecoverBackNXOS(t *testing.T) {
	devs, nodes := labFleet(t, 2)
	path, before := killMidChange(t, devs, nodes, "leaf001")
	st, err := rollout.ReadState(path)
	if err != nil || len(st.Interrupted()) != 1 {
		t.Fatalf("state: %v %v", err, st.Interrupted())
	}
	rs, err := rollout.Recover(t.Context(), devs, st, false, rollout.Options{StatePath: path})
	if err != nil || len(rs) != 1 || rs[0].Found != rollout.FoundPartly || rs[0].Status != rollout.StatusRecovered || rs[0].Err != nil {
		t.Fatalf("recover: %v %+v", err, rs)
	}
	if got := running(t, devs[0]); !bytes.Equal(got, before) {
		t.Errorf("leaf001 not back to its config before the change:\n%s", got)
	}
	if st, err := rollout.ReadState(path); err != nil || len(st.Interrupted()) != 0 || st.Devices["leaf001"] != rollout.StatusRecovered {
		t.Errorf("state after recover: %v %+v", err, st)
	}
	if n := restorePoints(nodes); n != 0 {
		t.Errorf("%d restore point(s) left on the devices", n)
	}
}

// TestResumeInterrupted: a resumed rollout takes a device left in the
// middle of its change forward, with health gates on (back to its
// checkpoint before the batch's own, then applied with the batch) and
// without (back, then the plan's change), and every device converges.
func TestResumeInterrupted(t *testing.T) {
	for _, gated := range []bool{false, true} {
		t.Run(map[bool]string{false: "no gate", true: "gate"}[gated], func(t *testing.T) {
			devs, nodes := labFleet(t, 3)
			path, _ := killMidChange(t, devs, nodes, "leaf001")
			st, err := rollout.ReadState(path)
			if err != nil {
				t.Fatal(err)
			}
			o := rollout.Options{StatePath: path}
			if gated {
				o.Gate = &rollout.Gate{MaxPausePerSec: 1000}
			}
			rep, err := rollout.Run(t.Context(), devs, st, o)
			if err != nil || rep.Stopped != "" || len(rep.Results) != 3 {
				t.Fatalf("resume: %v, stopped %q, %d results", err, rep.Stopped, len(rep.Results))
			}
			for _, r := range rep.Results {
				if r.Err != nil || !r.Applied {
					t.Errorf("%s: applied %v, %v", r.Device, r.Applied, r.Err)
				}
			}
			if len(rep.Recovered) != 1 || rep.Recovered[0].Device != "leaf001" || rep.Recovered[0].Found != rollout.FoundPartly {
				t.Errorf("recovered: %+v", rep.Recovered)
			}
			p, err := plan.Make(t.Context(), devs, plan.Options{})
			if err != nil || p.Counts().Change != 0 {
				t.Errorf("plan after the resume: %v %s", err, p.Counts())
			}
			if st, err := rollout.ReadState(path); err != nil || !st.Done("leaf001") || len(st.Interrupted()) != 0 {
				t.Errorf("state after the resume: %v %+v", err, st)
			}
			if n := restorePoints(nodes); n != 0 {
				t.Errorf("%d restore point(s) left on the devices", n)
			}
		})
	}
}
