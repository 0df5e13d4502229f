package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/load"
)

// TestLabUp starts the lab, reads the inventory and known_hosts it wrote,
// logs in to every device with them, and stops on cancel.
func TestLabUp(t *testing.T) {
	t.Setenv(lab.UserEnv, "")
	t.Setenv(lab.PasswordEnv, "")
	dir := t.TempDir()
	seeds := t.TempDir()
	canon, err := os.ReadFile("../../internal/lab/nxos/testdata/canonical.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(seeds, "nxos2.cfg"), canon, 0o644); err != nil {
		t.Fatal(err)
	}
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	signer, _ := ssh.NewSignerFromKey(priv)
	keys := filepath.Join(seeds, "authorized_keys")
	if err := os.WriteFile(keys, ssh.MarshalAuthorizedKey(signer.PublicKey()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		code := run(ctx, []string{"lab", "up", "-n", "2", "-vendors", "nxos,eos", "-out", dir, "-seed", seeds, "-latency", "1ms",
			"-authorized-keys", keys}, pw, &stderr)
		_ = pw.Close()
		done <- code
	}()
	var out strings.Builder
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if strings.HasPrefix(sc.Text(), "Running until interrupted") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	for _, want := range []string{"nxos1", "nxos2", "eos1", "eos2", "Inventory:", "Known hosts:", "export LOSSLESS_USER=admin"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "PASSWORD="+lab.DefaultPassword) {
		t.Errorf("the password was printed:\n%s", out.String())
	}
	inv, diags := load.Inventory(filepath.Join(dir, "inventory.hcl"))
	if diags.HasErrors() {
		t.Fatalf("the written inventory does not load: %v", diags)
	}
	if len(inv.Devices) != 4 {
		t.Fatalf("inventory has %d devices, want 4", len(inv.Devices))
	}
	hk, err := knownhosts.New(filepath.Join(dir, lab.KnownHostsFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range inv.Devices {
		addr := fmt.Sprintf("%s:%d", d.Address, d.Port)
		c, err := ssh.Dial("tcp", addr, &ssh.ClientConfig{User: lab.DefaultUser,
			Auth: []ssh.AuthMethod{ssh.Password(lab.DefaultPassword)}, HostKeyCallback: hk})
		if err != nil {
			t.Errorf("%s (%s): %v", d.Name, addr, err)
			continue
		}
		s, _ := c.NewSession()
		b, err := s.Output("show running-config")
		if err != nil || !strings.Contains(string(b), "hostname "+d.Name) {
			t.Errorf("%s: show running-config: %v %q", d.Name, err, b)
		}
		if seeded := strings.Contains(string(b), "policy-map type queuing QOS_EGRESS_PORT"); seeded != (d.Name == "nxos2") {
			t.Errorf("%s: seeded=%v, want only nxos2 seeded", d.Name, seeded)
		}
		_ = c.Close()
	}
	d := inv.Devices[0]
	c, err := ssh.Dial("tcp", fmt.Sprintf("%s:%d", d.Address, d.Port), &ssh.ClientConfig{User: lab.DefaultUser,
		Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)}, HostKeyCallback: hk})
	if err != nil {
		t.Errorf("public-key login with -authorized-keys: %v", err)
	} else {
		_ = c.Close()
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit code %d, stderr:\n%s", code, stderr.String())
	}
}

func TestLabUpFlags(t *testing.T) {
	cases := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"lab", "up", "-help"}, 0, ""},
		{[]string{"lab"}, 1, "Usage: lossless lab up"},
		{[]string{"lab", "up", "-vendors", "junos"}, 1, `unknown vendor "junos"`},
		{[]string{"lab", "up", "-n", "0"}, 1, "-n must be at least 1"},
		{[]string{"lab", "up", "-bogus"}, 1, "flag provided but not defined"},
		{[]string{"lab", "up", "-authorized-keys", "/nonexistent"}, 1, "read authorized keys"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if code := run(ctx, c.args, &stdout, &stderr); code != c.code || !strings.Contains(stderr.String(), c.err) {
			t.Errorf("%v: code %d stderr %q, want %d and %q", c.args, code, stderr.String(), c.code, c.err)
		}
	}
}

// loginCreds sends the gNMI username and password metadata.
type loginCreds struct{ user, pass string }

func (c loginCreds) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"username": c.user, "password": c.pass}, nil
}

func (loginCreds) RequireTransportSecurity() bool { return true }

// TestLabUpInventoryGNMI starts the devices an inventory names and, with
// -gnmi, a TLS gNMI target whose CA lands next to the inventory.
func TestLabUpInventoryGNMI(t *testing.T) {
	t.Setenv(lab.UserEnv, "ops")
	t.Setenv(lab.PasswordEnv, "s3cret-pw")
	dir := t.TempDir()
	inv := filepath.Join(t.TempDir(), "inventory.hcl")
	src := `device "leafA" {
  vendor    = "nxos"
  platform  = "N9K-C9364D-GX2A"
  address   = "192.0.2.1"
  transport = "ssh"
}

device "leafB" {
  vendor    = "eos"
  platform  = "DCS-7050CX3-32S"
  address   = "192.0.2.2"
  transport = "ssh"
}
`
	if err := os.WriteFile(inv, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		code := run(ctx, []string{"lab", "up", "-inventory", inv, "-gnmi", "-out", dir}, pw, &stderr)
		_ = pw.Close()
		done <- code
	}()
	var out strings.Builder
	var gnmiAddr string
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if f := strings.Fields(sc.Text()); len(f) > 1 && f[0] == "gnmi" {
			gnmiAddr = f[1]
		}
		if strings.HasPrefix(sc.Text(), "Running until interrupted") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if !strings.Contains(out.String(), "leafA") || !strings.Contains(out.String(), "leafB") || gnmiAddr == "" {
		t.Fatalf("output:\n%s\nstderr:\n%s", out.String(), stderr.String())
	}
	if strings.Contains(out.String(), "s3cret-pw") {
		t.Errorf("the password was printed:\n%s", out.String())
	}
	caPEM, err := os.ReadFile(filepath.Join(dir, "gnmi-ca.pem"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		t.Fatal("gnmi-ca.pem holds no certificate")
	}
	conn, err := grpc.NewClient(gnmiAddr, grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: pool})),
		grpc.WithPerRPCCredentials(loginCreds{"ops", "s3cret-pw"}))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := gpb.NewGNMIClient(conn).Capabilities(ctx, &gpb.CapabilityRequest{}); err != nil {
		t.Errorf("gNMI Capabilities over TLS: %v", err)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit code %d, stderr:\n%s", code, stderr.String())
	}
}
