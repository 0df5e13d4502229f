package lab

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/lossless-net/lossless/intent/platform"
)

// Environment variables the generated inventory reads the lab's
// credentials from.
const (
	UserEnv     = "LOSSLESS_USER"
	PasswordEnv = "LOSSLESS_PASSWORD"
)

// KnownHostsFile is the name WriteInventory gives the known_hosts file it
// points at, in the inventory's folder.
const KnownHostsFile = "known_hosts"

// WriteKnownHosts writes a known_hosts file with each device's host key
// under "[127.0.0.1]:PORT", in the order the devices were added.
func (l *Lab) WriteKnownHosts(path string) error {
	var b bytes.Buffer
	for _, n := range l.Nodes() {
		b.WriteString(knownhosts.Line([]string{knownhosts.Normalize(n.Addr())}, n.HostKey()))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write known_hosts: %w", err)
	}
	return nil
}

// WriteInventory writes an inventory.hcl in the project's format naming
// every device (vendor, platform when the kind names a model the platform
// catalog knows, address, port,
// transport, credentials). Its credentials block reads the user and
// password from UserEnv and PasswordEnv and points known_hosts at
// KnownHostsFile in the same folder, which it writes too.
func (l *Lab) WriteInventory(path string) error {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("write inventory: %w", err)
	}
	kh := filepath.Join(dir, KnownHostsFile)
	if err := l.WriteKnownHosts(kh); err != nil {
		return fmt.Errorf("write inventory: %w", err)
	}
	var b bytes.Buffer
	b.WriteString("# Devices emulated by the lossless lab on this machine (lossless lab up).\n")
	fmt.Fprintf(&b, "# Credentials: export %s=%s %s=<the lab's password>.\n\n", UserEnv, l.opts.user, PasswordEnv)
	b.WriteString("credentials \"lab\" {\n")
	fmt.Fprintf(&b, "  username_env = %q\n", UserEnv)
	fmt.Fprintf(&b, "  password_env = %q\n", PasswordEnv)
	fmt.Fprintf(&b, "  known_hosts  = %s\n", strconv.Quote(kh))
	b.WriteString("}\n")
	for _, n := range l.Nodes() {
		fmt.Fprintf(&b, "\ndevice %q {\n", n.Name())
		fmt.Fprintf(&b, "  vendor      = %q\n", n.Kind())
		// Only a model the platform catalog knows, so that the
		// inventory loads without a diagnostic.
		if m := n.Model(); m != "" {
			if _, known := platform.Lookup(m); known {
				fmt.Fprintf(&b, "  platform    = %q\n", m)
			}
		}
		fmt.Fprintf(&b, "  address     = %q\n", "127.0.0.1")
		fmt.Fprintf(&b, "  port        = %d\n", n.Port())
		fmt.Fprintf(&b, "  transport   = %q\n", "ssh")
		b.WriteString("  credentials = credentials.lab\n")
		b.WriteString("}\n")
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write inventory: %w", err)
	}
	return nil
}
