package vendors_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

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
	for name, v := range map[string]vendors.Vendor{"empty": {}, "no dial": {Name: "x"}} {
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
