// Package plantest is test support for the orchestration packages (plan,
// rollout, apply): an in-memory vendor whose devices need no lab, and the
// loading of a lab fleet's intent the way the CLI loads it. Only _test.go
// files import it (internal/archtest checks).
package plantest

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/internal/plan"
	"github.com/lossless-net/lossless/renderers"
	"github.com/lossless-net/lossless/vendors"
)

// Memory is a registered vendor whose devices live in memory: device D
// runs the text Running(D), renders its intent's Options["want"] (with a
// warning of rule LL202 when Options["warn"] is set: its text), and an
// apply sets its running text to that. Its devices have no health
// counters. It is safe for concurrent use.
type Memory struct {
	name    string
	mu      sync.Mutex
	running map[string]string
	dialErr map[string]error
	// lockedBy is who holds a device's configuration lock ("" none);
	// locks counts the LockConfig calls that took it.
	lockedBy map[string]string
	locks    map[string]int
}

// NewMemory registers an in-memory vendor under name, which must be
// unique in the test binary (vendors.Register panics otherwise).
func NewMemory(name string) *Memory {
	m := &Memory{name: name, running: map[string]string{}, dialErr: map[string]error{}, lockedBy: map[string]string{}, locks: map[string]int{}}
	vendors.Register(vendors.Vendor{Name: name, Scope: "everything", Dial: m.dial,
		Render: func(d *intent.Device) (*config.Document, error) {
			doc := &config.Document{Device: d.Name, Format: config.CLI, Text: []byte(d.Options["want"])}
			if w := d.Options["warn"]; w != "" {
				doc.Warnings = []config.Warning{{Rule: renderers.RuleDefaultChosen, Device: d.Name, Message: w}}
			}
			return doc, nil
		}})
	return m
}

// Name is the vendor name m is registered under.
func (m *Memory) Name() string { return m.name }

// Device returns device name of m, running running and wanting want; a
// dial error set for it before is cleared.
func (m *Memory) Device(name, running, want string) plan.Device {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.running[name] = running
	delete(m.dialErr, name)
	return plan.Device{Intent: &intent.Device{Name: name, Vendor: m.name, Options: map[string]string{"want": want}},
		Target: vendors.Target{Device: name}}
}

// Devices returns devices named names, each running "old-NAME" and
// wanting "want-NAME".
func (m *Memory) Devices(names ...string) []plan.Device {
	out := make([]plan.Device, 0, len(names))
	for _, n := range names {
		out = append(out, m.Device(n, "old-"+n, "want-"+n))
	}
	return out
}

// Running returns device's running text.
func (m *Memory) Running(device string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.running[device]
}

// SetRunning changes device's running text, as someone else would.
func (m *Memory) SetRunning(device, text string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.running[device] = text
}

// FailDial makes every dial of device fail with err.
func (m *Memory) FailDial(device string, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dialErr[device] = err
}

func (m *Memory) dial(_ context.Context, t vendors.Target) (vendors.Driver, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.dialErr[t.Device]; err != nil {
		return nil, err
	}
	return &driver{m: m, name: t.Device}, nil
}

// HoldLock makes holder hold device's configuration lock, as another
// session would ("" releases it): a driver's LockConfig then fails.
func (m *Memory) HoldLock(device, holder string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lockedBy[device] = holder
}

// Locks returns how many times a driver took device's configuration lock,
// and whether one holds it now.
func (m *Memory) Locks(device string) (taken int, held bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.locks[device], m.lockedBy[device] != ""
}

// driver is a session to one device of a Memory. It implements
// vendors.DeviceLocker.
type driver struct {
	m    *Memory
	name string
}

func (d *driver) Running(context.Context) ([]byte, error) { return []byte(d.m.Running(d.name)), nil }

func (d *driver) Diff(running []byte, desired *config.Document) (*vendors.Change, error) {
	ch := &vendors.Change{Device: d.name, Vendor: d.m.name, Desired: desired}
	if !bytes.Equal(running, desired.Text) {
		ch.Commands = []string{"set " + string(desired.Text)}
	}
	return ch, nil
}

func (d *driver) Apply(_ context.Context, c *vendors.Change, _ vendors.ApplyOptions) vendors.Result {
	d.m.SetRunning(d.name, string(c.Desired.Text))
	return vendors.Result{Device: d.name, Applied: true}
}

func (d *driver) Close() error { return nil }

func (d *driver) LockConfig(context.Context) error {
	d.m.mu.Lock()
	defer d.m.mu.Unlock()
	if h := d.m.lockedBy[d.name]; h != "" {
		return fmt.Errorf("%s: %w (held by %s)", d.name, vendors.ErrDeviceLocked, h)
	}
	d.m.lockedBy[d.name] = "lossless"
	d.m.locks[d.name]++
	return nil
}

func (d *driver) UnlockConfig(context.Context) error {
	d.m.mu.Lock()
	defer d.m.mu.Unlock()
	if d.m.lockedBy[d.name] == "lossless" {
		delete(d.m.lockedBy, d.name)
	}
	return nil
}

// Load loads the fabric in dir as the CLI does (load.Fabric, then
// plan.Devices), reading the credentials' environment variables from env.
// It fails tb on any error.
func Load(tb testing.TB, dir string, env map[string]string) []plan.Device {
	tb.Helper()
	f, diags := load.Fabric(dir, load.Options{})
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	devs, err := plan.Devices(f, plan.Access{Env: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil {
		tb.Fatal(err)
	}
	return devs
}
