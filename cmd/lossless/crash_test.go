package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/lab"
	"github.com/lossless-net/lossless/internal/lab/device"
	eoslab "github.com/lossless-net/lossless/internal/lab/eos"
	huaweilab "github.com/lossless-net/lossless/internal/lab/huaweice"
	soniclab "github.com/lossless-net/lossless/internal/lab/sonic"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/internal/textdiff"
)

// crashVendors are the devices of TestApplyKilledEveryVendor: three of
// each vendor, each with two managed ports.
var crashVendors = []struct{ prefix, vendor, platform, ports, speed string }{
	{"nx", "nxos", "N9K-C93600CD-GX", "Ethernet1/1-2", "100G"},
	{"eos", "eos", "DCS-7060DX4-32", "Ethernet1-2", "100G"},
	{"ce", "huawei-ce", "CE8850-HAM", "100GE1/0/1-2", "100G"},
	{"sonic", "sonic", "SN4700", "Ethernet0,4", "100G"},
}

// crashFabric is one lab fabric of TestApplyKilledEveryVendor: the
// intent directory, the lab nodes by device, the device-side timers the
// test runs out, and the environment of the lossless children.
type crashFabric struct {
	dir    string
	nodes  map[string]*lab.Node
	timers *manualTimers
	env    []string
}

// newCrashFabric starts the lab (in this process: lossless runs in a
// child) with every device seeded as plan -lab seeds it, writes the
// intent, inventory and known_hosts, and gives each EOS and CloudEngine
// device a commit timer the test runs out by hand.
func newCrashFabric(t *testing.T) *crashFabric {
	t.Helper()
	l, err := lab.New(lab.WithCredentials("ops", testPassword))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	dir := t.TempDir()
	intent, err := os.ReadFile("testdata/crash/intent.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "intent.hcl"), intent, 0o644); err != nil {
		t.Fatal(err)
	}
	kh := filepath.Join(dir, "known_hosts")
	var inv strings.Builder
	fmt.Fprintf(&inv, "credentials \"lab\" {\n  username_env = %q\n  password_env = %q\n  known_hosts  = %q\n}\n", lab.UserEnv, lab.PasswordEnv, kh)
	// The addresses are placeholders until the lab gives the ports.
	for _, v := range crashVendors {
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(&inv, "\ndevice \"%s%d\" {\n  vendor = %q\n  platform = %q\n  address = \"127.0.0.1\"\n  port = PORT_%s%d\n  credentials = credentials.lab\n  ports %q {\n    speed = %q\n    cable = \"3m\"\n  }\n}\n",
				v.prefix, i, v.vendor, v.platform, v.prefix, i, v.ports, v.speed)
		}
	}
	invPath := filepath.Join(dir, "inventory.hcl")
	// Load with port 22 first, to render and seed; then point the
	// inventory at the lab's ports.
	placeholder := inv.String()
	for _, v := range crashVendors {
		for i := 1; i <= 3; i++ {
			placeholder = strings.Replace(placeholder, fmt.Sprintf("PORT_%s%d", v.prefix, i), "22", 1)
		}
	}
	if err := os.WriteFile(invPath, []byte(placeholder), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(kh, nil, 0o600); err != nil { // written whole below
		t.Fatal(err)
	}
	res, diags := load.Fabric(dir, load.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	devs, err := plan.Devices(res, plan.Access{Env: func(k string) (string, bool) {
		v, ok := map[string]string{lab.UserEnv: "ops", lab.PasswordEnv: testPassword}[k]
		return v, ok
	}})
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := seedLab(l, devs, res.Inventory, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	final := inv.String()
	timers := &manualTimers{}
	for name, n := range nodes {
		final = strings.Replace(final, "PORT_"+name, fmt.Sprint(n.Port()), 1)
		n.Faults().Update(func(f *device.Faults) { f.Latency = time.Millisecond })
		switch d := n.Device().(type) {
		case *eoslab.Device:
			d.SetAfterFunc(func(dur time.Duration, f func()) eoslab.Timer { return timers.add(f) })
		case *huaweilab.Device:
			d.SetAfterFunc(func(dur time.Duration, f func()) huaweilab.Timer { return timers.add(f) })
		}
	}
	if err := os.WriteFile(invPath, []byte(final), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := l.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), lab.UserEnv+"=ops", lab.PasswordEnv+"="+testPassword, "XDG_STATE_HOME="+t.TempDir())
	return &crashFabric{dir: dir, nodes: nodes, timers: timers, env: env}
}

// configs returns every device's whole running config as the device's
// full show command prints it, without the timestamps it prints (NX-OS
// "!Time:" is the time of the read and "!Running configuration last done
// at:" and CloudEngine's "!Last configuration was updated at" that of the
// last change or rollback): the rest is compared byte for byte.
func (f *crashFabric) configs() map[string]string {
	out := map[string]string{}
	for name, n := range f.nodes {
		var b strings.Builder
		for line := range strings.Lines(string(n.Device().Running())) {
			if strings.HasPrefix(line, "!Time:") || strings.HasPrefix(line, "!Running configuration last done at:") || strings.HasPrefix(line, "!Last configuration was updated at") {
				continue
			}
			b.WriteString(line)
		}
		out[name] = b.String()
	}
	return out
}

// settle waits until no device serves a connection any more: the lines a
// killed lossless had sent have run (a commit trial typed last arms its
// timer only then).
func (f *crashFabric) settle(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for _, n := range f.nodes {
		for n.Connections() > 0 {
			if time.Now().After(deadline) {
				t.Fatalf("%s still serves %d connection(s) 30 s after the kill", n.Name(), n.Connections())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// dropSONiCPatches makes the next apply-patch of every SONiC device die
// with its session after change n, the device refusing logins from its
// first write on.
func (f *crashFabric) dropSONiCPatches(n int) {
	for _, node := range f.nodes {
		d, ok := node.Device().(*soniclab.Device)
		if !ok {
			continue
		}
		d.DropSessionAfter(n)
		d.Watch(func(soniclab.Write, map[string]map[string]map[string]string) {
			node.Faults().Update(func(f *device.Faults) { f.RefuseAuth = true })
		})
	}
}

// allowLogins lets every device take logins again.
func (f *crashFabric) allowLogins() {
	for _, node := range f.nodes {
		if d, ok := node.Device().(*soniclab.Device); ok {
			d.Watch(nil)
		}
		node.Faults().Update(func(f *device.Faults) { f.RefuseAuth = false })
	}
}

// manualTimers are device-side timers (commit timer, commit trial) that
// run out only when the test says so.
type manualTimers struct {
	mu  sync.Mutex
	all []*manualTimer
}

type manualTimer struct {
	mu      sync.Mutex
	f       func()
	stopped bool
}

func (m *manualTimers) add(f func()) *manualTimer {
	t := &manualTimer{f: f}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.all = append(m.all, t)
	return t
}

// Stop implements the labs' Timer.
func (t *manualTimer) Stop() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	was := !t.stopped
	t.stopped = true
	return was
}

// runOut runs out every timer still armed, as the devices would once
// their time passed, and returns how many ran.
func (m *manualTimers) runOut() int {
	m.mu.Lock()
	all := m.all
	m.all = nil
	m.mu.Unlock()
	n := 0
	for _, t := range all {
		t.mu.Lock()
		armed := !t.stopped
		t.stopped = true
		t.mu.Unlock()
		if armed {
			t.f()
			n++
		}
	}
	return n
}

// runChild runs lossless in a child process (TestHelperLossless) with
// env; each, when not nil, sees every line the child prints on stderr,
// and the child is killed with SIGKILL as soon as it returns false.
func runChild(t *testing.T, env []string, each func(line string) bool, args ...string) (res cliResult, killed bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperLossless$")
	cmd.Env = append(append([]string{}, env...), helperEnv+"="+strings.Join(args, "\x1f"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(pipe)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		stderr.WriteString(sc.Text() + "\n")
		if each != nil && !each(sc.Text()) {
			_ = cmd.Process.Kill()
			killed = true
			break
		}
	}
	_, _ = io.Copy(io.Discard, pipe)
	err = cmd.Wait()
	res = cliResult{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		res.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return res, killed
}

// TestApplyKilledEveryVendor is issue 12's crash test: lossless apply, in
// a child process, pushing to three devices of each vendor (the lab in
// this process), is killed with SIGKILL at 20 moments spread over the
// push, and at 5 more SONiC's apply-patch dies midway with its session.
// After each, once the devices' own timers have run out and
// `lossless recover` has run, every device's whole running config is
// byte for byte its config from before the apply or the one a complete
// apply leaves, and the next plan changes exactly the devices left at
// their old config: never "no changes" over leftovers.
func TestApplyKilledEveryVendor(t *testing.T) {
	if raceEnabled {
		t.Skip("drives child processes only; it runs without -race (the README's test command)")
	}
	if testing.Short() {
		t.Skip("kills child processes")
	}
	writes := func(line string) bool { return strings.Contains(line, "channel write ") }
	// A complete apply gives the new configs and the number of writes
	// to spread the kills over.
	ref := newCrashFabric(t)
	old := ref.configs()
	total := 0
	r, _ := runChild(t, ref.env, func(line string) bool {
		if writes(line) {
			total++
		}
		return true
	}, "apply", "-auto-approve", "-log-level", "debug", ref.dir)
	if r.code != 0 {
		t.Fatalf("the complete apply failed:\n%s", r)
	}
	ref.timers.runOut()
	applied := ref.configs()
	for name := range applied {
		if applied[name] == old[name] {
			t.Fatalf("%s: the complete apply changed nothing; the test needs a change on every device", name)
		}
	}
	if r, _ := runChild(t, ref.env, nil, "plan", "-detailed-exitcode", ref.dir); r.code != 0 {
		t.Fatalf("plan after the complete apply:\n%s", r)
	}
	const moments = 25
	for i := range moments {
		k := 1 + (total-1)*i/(moments-1)
		// Every fifth moment is SONiC's instead: each apply-patch dies
		// with its session after change 1, 2 or 3 of its sorted changes,
		// as GCU does when its SSH session drops (the lab runs a command
		// to its end before it reads the connection again, so a kill
		// never lands inside one by itself: internal/lab/sonic
		// hangup.go), and the switch takes no login after, as if lossless
		// had died with it; the apply, unkilled, runs to its end.
		dropAfter := 0
		name := fmt.Sprintf("kill after write %d of %d", k, total)
		if i%5 == 1 {
			dropAfter = 1 + i%3
			name = fmt.Sprintf("SONiC apply-patch dies after change %d", dropAfter)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := newCrashFabric(t)
			each := func(string) bool { return true }
			if dropAfter > 0 {
				f.dropSONiCPatches(dropAfter)
			} else {
				seen := 0
				each = func(line string) bool {
					if writes(line) {
						seen++
					}
					return seen < k
				}
			}
			if _, killed := runChild(t, f.env, each, "apply", "-auto-approve", "-log-level", "debug", f.dir); !killed && dropAfter == 0 {
				t.Fatalf("the apply ended before write %d", k)
			}
			f.settle(t)
			f.timers.runOut()
			if dropAfter > 0 {
				half := 0
				for name, got := range f.configs() {
					if strings.HasPrefix(name, "sonic") && got != old[name] && got != applied[name] {
						half++
					}
				}
				if half == 0 {
					t.Error("no SONiC device was left in the middle of its patch: the moment tests nothing")
				}
			}
			f.allowLogins()
			if r, _ := runChild(t, f.env, nil, "recover", f.dir); r.code != 0 {
				t.Fatalf("recover:\n%s", r)
			}
			f.timers.runOut()
			atOld := 0
			for name, got := range f.configs() {
				switch got {
				case old[name]:
					atOld++
				case applied[name]:
				default:
					t.Errorf("%s is neither at its old nor at its new config; against the old:\n%s", name, textdiff.Unified("old", "now", old[name], got))
				}
			}
			r, _ := runChild(t, f.env, nil, "plan", "-json", f.dir)
			var p struct {
				Summary *plan.Counts `json:"summary"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &p); err != nil || p.Summary == nil {
				t.Fatalf("plan -json after the kill: %v\n%s", err, r)
			}
			if want := (plan.Counts{Change: atOld, Unchanged: len(old) - atOld}); *p.Summary != want {
				t.Errorf("plan after the kill: %s, want %s (the devices left at their old config change):\n%s", p.Summary, want, r)
			}
		})
	}
}
