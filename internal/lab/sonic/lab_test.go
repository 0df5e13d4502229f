package sonic_test

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/scrapli/scrapligo/channel"
	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
	"github.com/scrapli/scrapligo/transport"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	"github.com/lossless-net/lossless/internal/lab/sonic"
)

func open(t *testing.T, seed []byte) (*lab.Node, *network.Driver) {
	t.Helper()
	l, err := lab.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	n, err := l.Add(sonic.Name, "sonic", seed)
	if err != nil {
		t.Fatal(err)
	}
	def, err := os.ReadFile("testdata/sonic.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := platform.NewPlatform(def, "127.0.0.1",
		options.WithPort(n.Port()),
		options.WithAuthUsername(lab.DefaultUser),
		options.WithAuthPassword(lab.DefaultPassword),
		options.WithAuthNoStrictKey(),
		options.WithTransportType(transport.StandardTransport),
		options.WithTimeoutOps(20*time.Second),
	)
	if err != nil {
		t.Fatal(err)
	}
	d, err := p.GetNetworkDriver()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Open(); err != nil {
		t.Fatalf("scrapligo open: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil && !errors.Is(err, io.EOF) {
			t.Errorf("close: %v", err)
		}
	})
	return n, d
}

// heredoc uploads a file as a driver would: `cat > F <<'EOF'`, each line
// answered by bash's "> " continuation prompt, then EOF.
func heredoc(path string, lines ...string) []*channel.SendInteractiveEvent {
	ev := []*channel.SendInteractiveEvent{{ChannelInput: "cat > " + path + " <<'EOF'", ChannelResponse: `(?m)^>\s?$`}}
	for _, l := range lines {
		ev = append(ev, &channel.SendInteractiveEvent{ChannelInput: l, ChannelResponse: `(?m)^>\s?$`})
	}
	return append(ev, &channel.SendInteractiveEvent{ChannelInput: "EOF"})
}

// scrapligo reads the config, uploads a patch through a heredoc, checks it
// with --dry-run, checkpoints, applies, and rolls back, over the lab's SSH.
func TestScrapligoApplyPatch(t *testing.T) {
	seed, err := os.ReadFile("testdata/config_db.json")
	if err != nil {
		t.Fatal(err)
	}
	n, d := open(t, seed)
	show, err := d.SendCommand("show runningconfiguration all")
	if err != nil || show.Failed != nil {
		t.Fatalf("show: %v %v", err, show.Failed)
	}
	before := string(n.Device().Running())
	if show.Result != strings.TrimSuffix(before, "\n") {
		t.Errorf("(-device +scrapligo):\n%s", cmp.Diff(before, show.Result))
	}
	var running map[string]any
	if err := json.Unmarshal([]byte(show.Result), &running); err != nil {
		t.Fatalf("show runningconfiguration all is not JSON: %v", err)
	}
	patch := `[{"op": "replace", "path": "/WRED_PROFILE/ROCE_LOSSLESS/green_min_threshold", "value": "204800"},`
	patch2 := ` {"op": "add", "path": "/QUEUE/Ethernet0|4", "value": {"scheduler": "ROCE_LOSSY"}}]`
	if _, err := d.SendInteractive(heredoc("/tmp/lossless-7.json", patch, patch2)); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{
		"sudo config apply-patch --dry-run /tmp/lossless-7.json",
		"sudo config checkpoint lossless-7",
		"sudo config apply-patch /tmp/lossless-7.json",
	} {
		r, err := d.SendCommand(cmd)
		if err != nil || r.Failed != nil {
			t.Fatalf("%s: %v %q", cmd, err, r.Result)
		}
	}
	db := n.Device().(device.ConfigDB).DB()
	if db["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_min_threshold"] != "204800" || db["QUEUE"]["Ethernet0|4"]["scheduler"] != "ROCE_LOSSY" {
		t.Errorf("patch did not land")
	}
	bad, err := d.SendCommand("config apply-patch /tmp/lossless-7.json")
	if err != nil || bad.Failed == nil {
		t.Errorf("non-root apply-patch not a failure: %v %q", err, bad.Result)
	}
	if r, err := d.SendCommand("sudo config rollback lossless-7"); err != nil || r.Failed != nil || r.Result != "Config rolled back successfully." {
		t.Fatalf("rollback: %v %q", err, r.Result)
	}
	if diff := cmp.Diff(before, string(n.Device().Running())); diff != "" {
		t.Errorf("after rollback (-before +after):\n%s", diff)
	}
}
