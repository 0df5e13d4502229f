package nxos_test

import (
	"strings"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/lab/nxos"
)

// TestShowVersion: show version names the device's model and hostname
// in the layout of a Nexus 9000's (tools.go [ntcver]), with the uptime
// since the device started.
func TestShowVersion(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	d, err := nxos.New("leaf7", nil, nxos.WithModel("N9K-C93180YC-FX"), nxos.WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(26*time.Hour + 3*time.Minute + 9*time.Second)
	s := d.NewSession("admin", nil)
	out, _ := s.Handle("show version")
	for _, want := range []string{
		"Cisco Nexus Operating System (NX-OS) Software\n",
		"  NXOS: version 9.3(8)\n",
		"Hardware\n  cisco Nexus9000 C93180YC-FX Chassis\n",
		"  Device name: leaf7\n",
		"Kernel uptime is 1 day(s), 2 hour(s), 3 minute(s), 9 second(s)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("show version lacks %q:\n%s", want, out)
		}
	}
	v, err := nxos.New("n9kv", nil, nxos.WithModel("N9K-9000v"))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := v.NewSession("admin", nil).Handle("sh ver"); !strings.Contains(out, "  cisco Nexus9000 9000v Chassis\n") {
		t.Errorf("9000v show version:\n%s", out)
	}
}

// TestShowFilters: a show command piped to include, exclude or begin
// prints the lines that match, those that do not, or the output from the
// first match on (tools.go [fund]), in exec and config modes; an unknown
// filter or a bad expression is refused with the caret under it.
func TestShowFilters(t *testing.T) {
	d := newDevice(t, readFile(t, "testdata/canonical.txt"))
	s := d.NewSession("admin", nil)
	if got, _ := s.Handle("show running-config | include ^policy-map"); got != "policy-map type qos QOS_CLASSIFICATION\npolicy-map type queuing QOS_EGRESS_PORT\npolicy-map type network-qos qos_network\n" {
		t.Errorf("include:\n%s", got)
	}
	if got, _ := s.Handle("sh run ipqos | inc random-detect"); !strings.HasPrefix(strings.TrimSpace(got), "random-detect minimum-threshold") || strings.Count(got, "\n") != 1 {
		t.Errorf("include, abbreviated:\n%s", got)
	}
	got, _ := s.Handle("show running-config ipqos | begin ^system qos")
	if !strings.HasPrefix(got, "system qos\n  service-policy type network-qos qos_network\n") {
		t.Errorf("begin:\n%s", got)
	}
	if got, _ := s.Handle("show running-config ipqos | exclude ^ |^!|^$"); strings.Contains(got, "  ") || strings.Contains(got, "!") || !strings.Contains(got, "system qos\n") {
		t.Errorf("exclude:\n%s", got)
	}
	s.Handle("configure terminal")
	if got, _ := s.Handle("show version | include NXOS:"); got != "  NXOS: version 9.3(8)\n" {
		t.Errorf("in config mode: %q", got)
	}
	prompt := s.Prompt()
	for line, bad := range map[string]string{
		"show running-config | grab x":    "grab",
		"show running-config | include (": "(",
		"show bogus | include x":          "bogus",
	} {
		want := strings.Repeat(" ", len(prompt)+tokenPos(line, bad)) + "^\n% Invalid command at '^' marker.\n"
		if got, _ := s.Handle(line); got != want {
			t.Errorf("%q:\ngot  %q\nwant %q", line, got, want)
		}
	}
}
