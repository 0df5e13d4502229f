package plan_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/plan/plantest"
	"github.com/lossless-net/lossless/vendors"
	nxosdrv "github.com/lossless-net/lossless/vendors/nxos"
)

// genFabric writes a 1,000-device NX-OS fabric: 900 leaves with 100G
// server ports on 5 m cables, 60 spines with 400G on 30 m and 40 spines
// (role far) with 400G on 100 m, each role with its own ECN thresholds,
// and plans each device, in memory,
// against the older config the lab seeds NX-OS devices with.
func genFabric(t *testing.T) (*plan.Plan, map[string][]string) {
	t.Helper()
	dir := t.TempDir()
	in, err := os.ReadFile("../../cmd/lossless/testdata/plan/intent.hcl")
	if err != nil {
		t.Fatal(err)
	}
	// Three ECN tunings, one per role: leaves, spines, and spines on
	// long (100 m) cables.
	text, _, _ := strings.Cut(string(in), "assign \"all\"")
	profile := text[strings.Index(text, "qos_profile \"roce\""):strings.Index(text, "buffer_profile")]
	for _, p := range []struct{ name, min string }{{"spine", "300KB"}, {"far", "600KB"}} {
		text += strings.NewReplacer(`qos_profile "roce"`, `qos_profile "roce_`+p.name+`"`, `"150KB"`, `"`+p.min+`"`).Replace(profile)
	}
	for role, prof := range map[string]string{"leaf": "roce", "spine": "roce_spine", "far": "roce_far"} {
		text += fmt.Sprintf("assign %q {\n  devices = { role = %q }\n  qos = qos_profile.%s\n  buffers = buffer_profile.default\n}\n", role, role, prof)
	}
	if err := os.WriteFile(filepath.Join(dir, "intent.hcl"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var inv strings.Builder
	inv.WriteString("credentials \"c\" {\n  username_env = \"U\"\n  password_env = \"P\"\n  known_hosts = \"/dev/null\"\n}\n")
	for i := range 1000 {
		name, role, speed, cable := fmt.Sprintf("leaf%03d", i), "leaf", "100G", "5m"
		switch {
		case i >= 960:
			name, role, speed, cable = fmt.Sprintf("spine%03d", i), "far", "400G", "100m"
		case i >= 900:
			name, role, speed, cable = fmt.Sprintf("spine%03d", i), "spine", "400G", "30m"
		}
		fmt.Fprintf(&inv, "device %q {\n  vendor = \"nxos\"\n  platform = \"N9K-C93600CD-GX\"\n  roles = [%q]\n  address = \"192.0.2.1\"\n  credentials = credentials.c\n  ports \"Ethernet1/1-8\" {\n    speed = %q\n    cable = %q\n  }\n}\n", name, role, speed, cable)
	}
	if err := os.WriteFile(filepath.Join(dir, "inventory.hcl"), []byte(inv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"U": "u", "P": "p"}
	devs := plantest.Load(t, dir, env)
	canon, err := os.ReadFile("../../vendors/nxos/testdata/canonical.cfg")
	if err != nil {
		t.Fatal(err)
	}
	// Every switch runs the same older config, as the lab seeds it.
	running := nxosdrv.LabSeed(canon)
	v, _ := vendors.Lookup("nxos")
	p := &plan.Plan{FormatVersion: plan.FormatVersion}
	roles := map[string][]string{}
	for _, d := range devs {
		roles[d.Intent.Name] = d.Intent.Roles
		doc, err := v.Render(d.Intent)
		if err != nil {
			t.Fatal(err)
		}
		ch, err := nxosdrv.Diff(d.Intent.Name, running, doc)
		if err != nil {
			t.Fatal(err)
		}
		p.Devices = append(p.Devices, plan.DevicePlan{Device: d.Intent.Name, Vendor: "nxos", Fingerprint: plan.Fingerprint(running), Change: ch})
	}
	return p, roles
}

// TestSummaryGroups1000: the grouped summary of a generated 1,000-device
// fabric shows each distinct change once: 900 leaves share one, the
// spines on short and on long cables (other ECN thresholds) one each.
func TestSummaryGroups1000(t *testing.T) {
	p, roles := genFabric(t)
	gs := p.Groups(func(d string) []string { return roles[d] })
	if len(gs) != 3 {
		t.Fatalf("%d groups, want 3", len(gs))
	}
	for i, want := range []struct {
		n    int
		role string
	}{{900, "leaf"}, {60, "spine"}, {40, "far"}} {
		if len(gs[i].Devices) != want.n || strings.Join(gs[i].Roles, ",") != want.role {
			t.Errorf("group %d: %d devices, roles %v; want %d %s", i, len(gs[i].Devices), gs[i].Roles, want.n, want.role)
		}
	}
	var b strings.Builder
	p.WriteSummary(&b, func(d string) []string { return roles[d] })
	out := b.String()
	head := fmt.Sprintf("## 900 device(s) (role leaf), nxos: the same %d-line change\n", gs[0].Lines())
	if !strings.Contains(out, head) || !strings.HasSuffix(out, "1000 to change, 0 unchanged, 0 failed\n") {
		t.Errorf("summary lacks %q or the counts:\n%.2000s", head, out)
	}
	if n := strings.Count(out, "Commands apply will send:"); n != 3 {
		t.Errorf("%d changes printed, want 3", n)
	}
	if len(out) > 60_000 {
		t.Errorf("summary is %d bytes: the device lists dominate", len(out))
	}
}
