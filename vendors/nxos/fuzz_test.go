package nxos

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/nxos"
)

// FuzzParseRunning: any running config text parses or fails with an
// error, never a panic, and diffing it against the canonical rendering
// never panics; a config diffed against itself is empty.
func FuzzParseRunning(f *testing.F) {
	canon, err := os.ReadFile("testdata/canonical.cfg")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(canon)
	f.Add(LabSeed(canon))
	if real, err := os.ReadFile("testdata/sessions/n9kv-show-running-config.txt"); err == nil {
		f.Add(real)
	}
	f.Add([]byte("!Command: show running-config ipqos\n!Time: Wed Apr 24 22:15:06 2019\n\nversion 9.3(8) Bios:version\n\nclass-map type qos ROCE\n  match dscp af31,cs3,24-26\n"))
	f.Add([]byte("interface eth1/1\n    priority-flow-control mode on\n"))
	f.Add([]byte("policy-map type queuing P\n  class type queuing c-out-8q-q3\n\tbandwidth percent 10\n"))
	desired := document(f, string(canon))
	f.Fuzz(func(t *testing.T, running []byte) {
		tree, err := Parse(running)
		if err != nil {
			return
		}
		if _, err := Diff("leaf1", running, desired); err != nil {
			t.Fatalf("diff of parsable config: %v", err)
		}
		self := document(t, string(running))
		self.Tree = tree
		ch, err := Diff("leaf1", running, self)
		if err != nil {
			t.Fatal(err)
		}
		if !ch.Empty() {
			t.Fatalf("a config diffed against itself gives commands %q", ch.Commands)
		}
	})
}

// FuzzImport: any running config text imports or fails with an error,
// never a panic; Saved of any file never panics either, and what Saved
// returns imports.
func FuzzImport(f *testing.F) {
	canon, err := os.ReadFile("testdata/canonical.cfg")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(canon)
	f.Add(LabSeed(canon))
	fixtures, _ := filepath.Glob("../../testdata/realworld/nxos/*/running.cfg")
	for _, p := range fixtures {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("policy-map type qos P\n  class class-default\n    set qos-group 9\ninterface Ethernet1/1\n  service-policy type qos input P\n"))
	f.Add([]byte("policy-map type queuing Q\n  class type queuing c-out-8q-q3\n    random-detect minimum-threshold 1 kbytes maximum-threshold 99999999999999999999 kbytes drop-probability 5 weight 0 ecn\n"))
	dev := &inventory.Device{Name: "leaf1", Vendor: Vendor}
	f.Fuzz(func(t *testing.T, running []byte) {
		im, err := Import(dev, running)
		if err != nil {
			return
		}
		// What Import returns always renders.
		if im.QoS != nil {
			if _, err := render.Render(fixtureIntent(dev, im)); err != nil {
				t.Fatalf("the import does not render: %v\n%s", err, running)
			}
		}
		saved, err := Saved(running)
		if err != nil {
			return
		}
		if _, err := Import(dev, saved); err != nil {
			t.Fatalf("Saved gave text Import refuses: %v\n%s", err, saved)
		}
	})
}
