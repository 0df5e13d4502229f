package sonic_test

import (
	"strings"
	"testing"

	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/sonic"
)

func specKind(t *testing.T) device.SpecKind {
	t.Helper()
	k, ok := device.Lookup(sonic.Name)
	if !ok {
		t.Fatal("sonic kind not registered")
	}
	sk, ok := k.(device.SpecKind)
	if !ok {
		t.Fatal("sonic kind does not implement device.SpecKind")
	}
	return sk
}

func configDB(t *testing.T, spec device.Spec, seed []byte) device.ConfigDB {
	t.Helper()
	d, err := specKind(t).NewSpec("leaf4", seed, spec)
	if err != nil {
		t.Fatal(err)
	}
	db, ok := d.(device.ConfigDB)
	if !ok {
		t.Fatalf("%T is no ConfigDB", d)
	}
	return db
}

// TestSpecFactory: a spec'd factory device has its SKU's metadata and port
// layout, and the spec's ports on top.
func TestSpecFactory(t *testing.T) {
	cases := []struct {
		name            string
		spec            device.Spec
		hwsku, platform string
		has             []string // PORT keys present
		lacks           []string
		speed           string // of Ethernet0
		ports           int    // PORT rows
		added           string // a port the spec adds, with addedLanes lanes
		addedLanes      int
	}{
		{"SN5600", device.Spec{Model: "SN5600", Ports: []string{"Ethernet0", "Ethernet8", "Ethernet16", "Ethernet24"}},
			"ACS-SN5600", "x86_64-nvidia_sn5600-r0", []string{"Ethernet0", "Ethernet8", "Ethernet504"}, []string{"Ethernet4", "Ethernet512"}, "800000", 64, "", 0},
		{"SN4700 with breakout ports", device.Spec{Model: "SN4700", Ports: []string{"Ethernet0", "Ethernet4", "Ethernet8", "Ethernet12", "Ethernet48", "Ethernet52"}},
			"ACS-MSN4700", "x86_64-mlnx_msn4700-r0", []string{"Ethernet4", "Ethernet12", "Ethernet52", "Ethernet248"}, []string{"Ethernet20"}, "400000", 35, "Ethernet52", 8},
		{"by hwsku", device.Spec{Model: "ACS-MSN4600C"},
			"ACS-MSN4600C", "x86_64-mlnx_msn4600c-r0", []string{"Ethernet4", "Ethernet252"}, []string{"Ethernet256"}, "100000", 64, "", 0},
		{"ports only, default SKU", device.Spec{Ports: []string{"Ethernet200"}},
			sonic.DefaultHWSKU, "x86_64-arista_7060_cx32s", []string{"Ethernet124", "Ethernet200"}, []string{"Ethernet128"}, "100000", 33, "Ethernet200", 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := configDB(t, c.spec, nil).DB()
			md := db["DEVICE_METADATA"]["localhost"]
			if md["hwsku"] != c.hwsku || md["platform"] != c.platform || md["hostname"] != "leaf4" {
				t.Errorf("DEVICE_METADATA = %v", md)
			}
			for _, p := range c.has {
				if db["PORT"][p] == nil {
					t.Errorf("no PORT %s", p)
				}
			}
			for _, p := range c.lacks {
				if db["PORT"][p] != nil {
					t.Errorf("PORT %s exists", p)
				}
			}
			if got := db["PORT"]["Ethernet0"]["speed"]; got != c.speed {
				t.Errorf("Ethernet0 speed %s, want %s", got, c.speed)
			}
			if len(db["PORT"]) != c.ports {
				t.Errorf("%d PORT rows, want %d", len(db["PORT"]), c.ports)
			}
			lanes := map[string]string{}
			for name, f := range db["PORT"] {
				for _, l := range strings.Split(f["lanes"], ",") {
					if other, dup := lanes[l]; dup {
						t.Errorf("lane %s on %s and %s", l, other, name)
					}
					lanes[l] = name
				}
			}
			if c.added != "" {
				if n := len(strings.Split(db["PORT"][c.added]["lanes"], ",")); n != c.addedLanes {
					t.Errorf("%s has %d lanes, want %d", c.added, n, c.addedLanes)
				}
			}
		})
	}
}

// TestSpecPatch: apply-patch on a spec'd device accepts QoS on the spec's
// ports (YANG checks each port name against PORT) and refuses it on a
// port the switch does not have.
func TestSpecPatch(t *testing.T) {
	patch := `[{"op":"add","path":"/PORT_QOS_MAP/Ethernet52","value":{"pfc_enable":"3"}}]`
	with := configDB(t, device.Spec{Model: "SN4700", Ports: []string{"Ethernet48", "Ethernet52"}}, nil)
	if err := with.Patch([]byte(patch)); err != nil {
		t.Errorf("patch on a spec port refused: %v", err)
	}
	without := configDB(t, device.Spec{Model: "SN4700"}, nil)
	if err := without.Patch([]byte(patch)); err == nil || !strings.Contains(err.Error(), `Invalid union value "Ethernet52"`) {
		t.Errorf("patch on a missing port: %v", err)
	}
}

// TestSpecSeed: a seed keeps its own PORT rows and metadata; spec ports it
// lacks are added.
func TestSpecSeed(t *testing.T) {
	seed := `{"DEVICE_METADATA":{"localhost":{"hostname":"x","hwsku":"ACS-MSN4700"}},"PORT":{"Ethernet0":{"lanes":"0,1,2,3,4,5,6,7","speed":"400000","index":"1"}}}`
	db := configDB(t, device.Spec{Model: "SN4700", Ports: []string{"Ethernet0", "Ethernet8"}}, []byte(seed)).DB()
	if got := db["PORT"]["Ethernet0"]["lanes"]; got != "0,1,2,3,4,5,6,7" {
		t.Errorf("seed's Ethernet0 changed: lanes %s", got)
	}
	if got := db["PORT"]["Ethernet8"]; got["lanes"] != "8,9,10,11,12,13,14,15" || got["index"] != "2" || got["speed"] != "400000" {
		t.Errorf("added Ethernet8 = %v", got)
	}
}

// TestSpecErrors: an unknown model or a port name that is not SONiC's is
// an error naming it.
func TestSpecErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		spec device.Spec
		want string
	}{
		{"unknown model", device.Spec{Model: "SN9999"}, `model "SN9999": not a SONiC switch the lab emulates`},
		{"not a SONiC name", device.Spec{Ports: []string{"Ethernet1/1"}}, `port "Ethernet1/1": not a SONiC port name like Ethernet8`},
		{"leading zero", device.Spec{Ports: []string{"Ethernet08"}}, `port "Ethernet08"`},
		{"no number", device.Spec{Ports: []string{"Ethernet"}}, `port "Ethernet"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := specKind(t).NewSpec("leaf4", nil, c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}
