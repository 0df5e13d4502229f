package vendors

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/lossless-net/lossless/inventory"
)

// Secret is a value that never prints: String, GoString, MarshalJSON and
// LogValue all give "REDACTED", and only Reveal returns it (called by the
// SSH authentication alone). It is the inventory's type, so a literal
// password keeps its protection from the inventory to the socket.
type Secret = inventory.Secret

// Login is how to authenticate to a device and how to check its host key.
// Its String and JSON forms never show the password.
type Login struct {
	User string
	// Password is used for password and keyboard-interactive auth; empty
	// for none.
	Password Secret
	// KeyFile is a private key file path; empty for none.
	KeyFile string
	// AgentSocket is the ssh-agent socket (SSH_AUTH_SOCK) to authenticate
	// with; empty for none.
	AgentSocket string
	// KnownHosts is the known_hosts file the host key is checked against.
	KnownHosts string
	// HostKeys, when set, checks host keys instead of reading KnownHosts
	// on every connection; build it once per file with [KnownHosts].
	HostKeys ssh.HostKeyCallback `json:"-"`
	// InsecureIgnoreHostKey skips the host key check
	// (-insecure-ignore-host-key); never set it by default.
	InsecureIgnoreHostKey bool

	// TLSCA is the PEM file of the CA that signs a gNMI target's
	// certificate; empty trusts the system roots.
	TLSCA string
	// TLSCert and TLSKey are the PEM client certificate and key files a
	// gNMI target may ask for (mutual TLS); empty for none.
	TLSCert, TLSKey string
	// InsecureSkipVerify accepts any gNMI server certificate
	// (-insecure-skip-verify); never set it by default.
	InsecureSkipVerify bool
	// Plaintext speaks gNMI without TLS (-plaintext), sending the
	// password in clear; never set it by default.
	Plaintext bool
}

// LookupEnv reads an environment variable, as os.LookupEnv does; tests
// and main pass their own.
type LookupEnv func(name string) (string, bool)

// defaultKnownHosts is used when the credentials name no known_hosts file.
const defaultKnownHosts = "~/.ssh/known_hosts"

// LoginFor resolves a device's credentials block once: the user from its
// environment variable, the password from its variable, its file or its
// literal, the key and known_hosts paths with "~" expanded against home.
// A missing variable or unreadable file is an error naming the device and
// the variable or file, never the value.
func LoginFor(device string, c *inventory.Credentials, env LookupEnv, home string) (Login, error) {
	if c == nil {
		return Login{}, fmt.Errorf("login %s: the device has no credentials block", device)
	}
	var l Login
	if c.UsernameEnv != "" {
		u, ok := env(c.UsernameEnv)
		if !ok || u == "" {
			return Login{}, fmt.Errorf("login %s: environment variable %s (username_env of credentials %q) is not set", device, c.UsernameEnv, c.Name)
		}
		l.User = u
	}
	if l.User == "" {
		return Login{}, fmt.Errorf("login %s: credentials %q give no username (username_env)", device, c.Name)
	}
	switch {
	case c.PasswordEnv != "":
		p, ok := env(c.PasswordEnv)
		if !ok || p == "" {
			return Login{}, fmt.Errorf("login %s: environment variable %s (password_env of credentials %q) is not set", device, c.PasswordEnv, c.Name)
		}
		l.Password = Secret(p)
	case c.PasswordFile != "":
		b, err := os.ReadFile(expand(c.PasswordFile, home))
		if err != nil {
			return Login{}, fmt.Errorf("login %s: password_file of credentials %q: %w", device, c.Name, pathOnly(err))
		}
		l.Password = Secret(strings.TrimRight(string(b), "\r\n"))
	case c.AllowLiteralPassword:
		l.Password = c.Password
	}
	if c.KeyFile != "" {
		l.KeyFile = expand(c.KeyFile, home)
		if _, err := os.Stat(l.KeyFile); err != nil {
			return Login{}, fmt.Errorf("login %s: key_file of credentials %q: %w", device, c.Name, pathOnly(err))
		}
	}
	if l.Password == "" && l.KeyFile == "" {
		// Neither in the credentials: the user's ssh-agent.
		if sock, ok := env("SSH_AUTH_SOCK"); ok && sock != "" {
			l.AgentSocket = sock
		} else {
			return Login{}, fmt.Errorf("login %s: credentials %q give neither a password nor a key file, and SSH_AUTH_SOCK names no ssh-agent", device, c.Name)
		}
	}
	l.TLSCA, l.TLSCert, l.TLSKey = expand(c.TLSCA, home), expand(c.TLSCert, home), expand(c.TLSKey, home)
	l.KnownHosts = c.KnownHosts
	if l.KnownHosts == "" {
		l.KnownHosts = defaultKnownHosts
	}
	l.KnownHosts = expand(l.KnownHosts, home)
	return l, nil
}

// expand replaces a leading "~/" with home.
func expand(path, home string) string {
	if path == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(path, "~/"); ok && home != "" {
		return filepath.Join(home, rest)
	}
	return path
}

// pathOnly keeps an *os.PathError's operation, path and cause, dropping
// nothing secret (file errors never carry contents) but keeping %w.
func pathOnly(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe
	}
	return err
}
