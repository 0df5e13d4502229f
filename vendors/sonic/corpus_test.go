package sonic

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/config"
	render "github.com/lossless-net/lossless/renderers/sonic"
	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// corpusDir is the SONiC real-world corpus, one fixture a directory.
const corpusDir = "../../testdata/realworld/sonic"

// inventoryPorts are the ports an inventory.hcl's ports blocks name, in
// the order they are written.
var inventoryPorts = regexp.MustCompile(`(?m)^\s*ports\s+"([^"]+)"`)

// onPorts is the rendering with its two ports (Ethernet0 and Ethernet4)
// renamed to to[0] and to[1], in every key that names a port (PORT_QOS_MAP,
// QUEUE, BUFFER_PG, BUFFER_QUEUE, PFC_WD) and in CABLE_LENGTH's fields.
func onPorts(t *testing.T, want *config.Document, to []string) *config.Document {
	t.Helper()
	rename := map[string]string{"Ethernet0": to[0], "Ethernet4": to[1]}
	port := func(s string) string {
		p, rest, _ := strings.Cut(s, "|")
		if n, ok := rename[p]; ok {
			p = n
		}
		if rest != "" {
			return p + "|" + rest
		}
		return p
	}
	db := config.DB{}
	for tn, keys := range want.DB {
		db[tn] = map[string]map[string]string{}
		for k, fields := range keys {
			f := maps.Clone(fields)
			if tn == "CABLE_LENGTH" {
				f = map[string]string{}
				for p, v := range fields {
					f[port(p)] = v
				}
			}
			db[tn][port(k)] = f
		}
	}
	return &config.Document{Device: want.Device, Format: config.ConfigDB, DB: db, Text: render.Text(db)}
}

// TestConvergeFromCorpus: a switch seeded with each fixture of the corpus
// (a real SKU's whole CONFIG_DB after `config qos reload`: its AZURE maps,
// schedulers, WRED profile, buffers on every port, testdata/realworld/sonic
// SOURCE.md) takes the canonical rendering (golden/canonical/want/sonic1.json)
// on the first two lossless ports of the fixture's inventory: the plan is
// not empty, apply converges, the next plan is empty, inside the scope the
// device holds the rendering key for key, and everything outside the scope
// is byte for byte what the seed had.
func TestConvergeFromCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpusDir, "*", "config_db.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		dir := filepath.Dir(f)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			seed, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			inv, err := os.ReadFile(filepath.Join(dir, "inventory.hcl"))
			if err != nil {
				t.Fatal(err)
			}
			var ports []string
			for _, m := range inventoryPorts.FindAllSubmatch(inv, -1) {
				ports = append(ports, strings.Split(string(m[1]), ",")...)
			}
			if len(ports) < 2 {
				t.Fatalf("inventory names %d ports, want 2", len(ports))
			}
			want := onPorts(t, canonical(t), ports[:2])
			ctx := t.Context()
			n, tgt := vendortest.StartLab(t, Vendor, seed)
			before := dbOf(n)
			drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
			if ch.Empty() {
				t.Fatal("plan is empty against the fixture")
			}
			if got := dbOf(n); !cmp.Equal(before, got) {
				t.Fatal("planning changed the device")
			}
			t.Logf("patch:\n%s", ch.Patch)
			if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
				t.Fatalf("apply: %+v", res)
			}
			after := dbOf(n)
			vendortest.OutsideUnchanged(t, outside(t, before, want), outside(t, after, want))
			_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
			vendortest.Converged(t, again)
			if d := cmp.Diff(want.DB, newScope(want.DB, after, false).scoped()); d != "" {
				t.Errorf("scoped CONFIG_DB differs from the rendering (-want +got):\n%s", d)
			}
		})
	}
}

// TestConvergeWithLeafLists: a switch whose config outside QoS has
// leaf-lists, printed by `show runningconfiguration all` as JSON lists
// (ACL_TABLE ports, VLAN dhcp_servers: sonic-cfggen's form of a field
// stored as "ports@", swss-common configdb.h raw_to_typed), converges as
// any other: the driver reads them, apply leaves them byte for byte, and
// the next plan is empty.
func TestConvergeWithLeafLists(t *testing.T) {
	want := canonical(t)
	seed := strings.TrimRight(string(LabSeed(want.Text)), "\n")
	seed = strings.TrimSuffix(seed, "}") + `, "ACL_TABLE": {"DATAACL": {"policy_desc": "DATAACL", "ports": ["Ethernet0", "Ethernet4"], "stage": "ingress", "type": "L3"}},
	"VLAN": {"Vlan1000": {"dhcp_servers": ["192.0.0.1", "192.0.0.2"], "vlanid": "1000"}}}`
	ctx := t.Context()
	n, tgt := vendortest.StartLab(t, Vendor, []byte(seed))
	before := dbOf(n)
	if got := before["ACL_TABLE"]["DATAACL"]["ports@"]; got != "Ethernet0,Ethernet4" {
		t.Fatalf("the seed's leaf-list is not stored as sonic-cfggen writes it: ports@ %q", got)
	}
	drv, ch := vendortest.Plan(t, ctx, Dial, tgt, want)
	if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
		t.Fatalf("apply: %+v", res)
	}
	after := dbOf(n)
	vendortest.OutsideUnchanged(t, outside(t, before, want), outside(t, after, want))
	if !cmp.Equal(before["ACL_TABLE"], after["ACL_TABLE"]) || !cmp.Equal(before["VLAN"], after["VLAN"]) {
		t.Errorf("the leaf-lists changed: ACL_TABLE %v, VLAN %v", after["ACL_TABLE"], after["VLAN"])
	}
	_, again := vendortest.Plan(t, ctx, Dial, tgt, want)
	vendortest.Converged(t, again)
}
