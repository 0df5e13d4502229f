package lab_test

import (
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/lossless-net/lossless/internal/lab"
)

// TestKeyExchanges: a lab device offers the key exchanges of a switch's
// SSH server (curve25519, ECDH, DH) and not crypto/ssh's post-quantum
// hybrid, which switch NOSes do not offer; a client that insists on the
// hybrid is refused, as a switch refuses it.
func TestKeyExchanges(t *testing.T) {
	l := newLab(t, lab.WithCredentials("ops", "s3cret"))
	n := addNode(t, l, "sw1")
	for _, c := range []struct {
		kex string
		ok  bool
	}{
		{ssh.KeyExchangeCurve25519, true},
		{ssh.KeyExchangeECDHP256, true},
		{ssh.KeyExchangeECDHP384, true},
		{ssh.KeyExchangeDH14SHA256, true},
		{ssh.KeyExchangeMLKEM768X25519, false},
	} {
		t.Run(c.kex, func(t *testing.T) {
			cfg := passwordConfig("ops", "s3cret", ssh.FixedHostKey(n.HostKey()))
			cfg.KeyExchanges = []string{c.kex}
			cl, err := ssh.Dial("tcp", n.Addr(), cfg)
			if c.ok != (err == nil) {
				t.Fatalf("dial with %s only: err=%v, want ok=%v", c.kex, err, c.ok)
			}
			if cl != nil {
				_ = cl.Close()
			}
		})
	}
}
