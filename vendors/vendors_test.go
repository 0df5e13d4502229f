package vendors_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
)

// TestSecretNeverPrints: every way a Login can reach output hides the
// password.
func TestSecretNeverPrints(t *testing.T) {
	const pw = "hunter2-secret"
	l := vendors.Login{User: "admin", Password: vendors.Secret(pw), KnownHosts: "/k"}
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("login", "login", l, "password", l.Password)
	js, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{
		"%v": fmt.Sprintf("%v", l), "%+v": fmt.Sprintf("%+v", l), "%#v": fmt.Sprintf("%#v", l),
		//lint:ignore S1025 the test checks what fmt's %s verb prints, not String
		"%s": fmt.Sprintf("%s", l.Password), "json": string(js), "slog": logs.String(),
	} {
		if strings.Contains(out, pw) {
			t.Errorf("%s shows the password: %s", name, out)
		}
	}
	if l.Password.Reveal() != pw {
		t.Error("Reveal does not return the password")
	}
}

func TestLoginFor(t *testing.T) {
	env := func(m map[string]string) vendors.LookupEnv {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	creds := &inventory.Credentials{Name: "ops", UsernameEnv: "U", PasswordEnv: "P", KnownHosts: "~/kh"}
	l, err := vendors.LoginFor("leaf1", creds, env(map[string]string{"U": "admin", "P": "pw"}), "/home/x")
	if err != nil {
		t.Fatal(err)
	}
	if l.User != "admin" || l.Password.Reveal() != "pw" || l.KnownHosts != "/home/x/kh" {
		t.Errorf("login = %+v (known_hosts %s)", l, l.KnownHosts)
	}
	_, err = vendors.LoginFor("leaf1", creds, env(map[string]string{"U": "admin"}), "/home/x")
	if err == nil || !strings.Contains(err.Error(), "leaf1") || !strings.Contains(err.Error(), "P") {
		t.Errorf("missing password variable: %v", err)
	}
	if _, err := vendors.LoginFor("leaf1", nil, env(nil), ""); err == nil {
		t.Error("no credentials block: no error")
	}
}

func TestRegisterPanics(t *testing.T) {
	render := func(*intent.Device) (*config.Document, error) { return &config.Document{}, nil }
	dial := func(context.Context, vendors.Target) (vendors.Driver, error) { return nil, nil }
	ports := inventory.PortNaming{Format: "Ethernet%d", Stride: 1, First: 1}
	for name, v := range map[string]vendors.Vendor{
		"empty":                    {},
		"no dial":                  {Name: "x"},
		"twice":                    {Name: "test-speaks-gnmi", Render: render, Dial: dial},
		"ssh as another transport": {Name: "x", Render: render, Dial: dial, Transports: map[string]vendors.DialFunc{"ssh": dial}},
		"transport without a dial": {Name: "x", Render: render, Dial: dial, Transports: map[string]vendors.DialFunc{"gnmi": nil}},
		"refusal without a reason": {Name: "x", Render: render, Dial: dial, Refuses: map[string]string{"gnmi": ""}},
		"spoken and refused": {Name: "x", Render: render, Dial: dial,
			Transports: map[string]vendors.DialFunc{"gnmi": dial}, Refuses: map[string]string{"gnmi": "no"}},
		"kinds without a port naming": {Name: "x", Render: render, Dial: dial, Containerlab: []string{"x-kind"}},
		"kind of another vendor":      {Name: "x", Render: render, Dial: dial, Ports: ports, Containerlab: []string{"test-kind"}},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			vendors.Register(v)
		})
	}
}

func TestParsePlatform(t *testing.T) {
	for name, def := range map[string]string{
		"not yaml":       "{",
		"no default":     "platform-type: x\n",
		"generic driver": "platform-type: x\ndefault:\n  driver-type: generic\n",
	} {
		if _, err := vendors.ParsePlatform([]byte(def)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestAccepted: the inventory accepts every registered name and each
// vendor's containerlab kinds with its port naming.
func TestAccepted(t *testing.T) {
	a := vendors.Accepted()
	if !slices.Equal(a.Names, vendors.Names()) || !slices.IsSorted(a.Names) || !slices.Contains(a.Names, "test-speaks-gnmi") {
		t.Errorf("names %v, registered %v", a.Names, vendors.Names())
	}
	want := inventory.ContainerlabKind{Vendor: "test-speaks-gnmi", Ports: inventory.PortNaming{Format: "et-0/0/%d", Stride: 1, First: 0}}
	if diff := cmp.Diff(want, a.Containerlab["test-kind"]); diff != "" {
		t.Errorf("containerlab kind (-want +got):\n%s", diff)
	}
	if got := vendors.Formats(); !slices.Equal(got, []string{"test-format"}) {
		t.Errorf("formats %v", got)
	}
}
