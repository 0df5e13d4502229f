package sonic

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/lossless-net/lossless/lab/device"
)

// Name is the vendor name the kind registers under.
const Name = "sonic"

// DefaultHWSKU is the SKU a factory device reports: the Broadcom Tomahawk
// SKU whose buffer values reference/sonic.md §4 and §5 use.
const DefaultHWSKU = "Arista-7060CX-32S-C32"

// defaultASIC is the ASIC generation GCU's field-operation validators see
// on a factory device: "th" (Tomahawk) is on the list that may change
// PFC_WD (reference/sonic.md §7.2).
const defaultASIC = "th"

// pfcwdASICs are the ASIC generations whose PFC_WD (and BUFFER_PROFILE
// dynamic_th/xoff) edits GCU allows (reference/sonic.md §7.2); any other
// ASIC, "vs" included, is refused.
var pfcwdASICs = map[string]bool{
	"spc1": true, "spc2": true, "spc3": true, "spc4": true, "spc5": true, "spc6": true,
	"td2": true, "td3": true, "td4": true,
	"th": true, "th2": true, "th3": true, "th4": true, "th5": true, "th6": true,
	"j2c+": true, "q2c+": true, "q3d": true, "cisco-8000": true, "marvell-teralynx": true,
}

// Kind makes emulated SONiC switches.
type Kind struct {
	asic  string
	ports int

	once   sync.Once
	schema *schema
	err    error
}

// Option configures a Kind.
type Option func(*Kind) error

// WithASIC sets the ASIC generation GCU's field-operation validators see
// ("th", "td3", "spc2", "vs"…); the default is "th". An ASIC off the
// reference's list makes apply-patch refuse PFC_WD changes.
func WithASIC(asic string) Option {
	return func(k *Kind) error {
		if asic == "" {
			return errors.New("asic must not be empty")
		}
		k.asic = asic
		return nil
	}
}

// WithPorts sets how many 100G ports a factory device has (Ethernet0,
// Ethernet4, …); the default is 32.
func WithPorts(n int) Option {
	return func(k *Kind) error {
		if n < 1 || n > 256 {
			return fmt.Errorf("ports must be 1..256, got %d", n)
		}
		k.ports = n
		return nil
	}
}

// NewKind returns a kind with the options applied.
func NewKind(opts ...Option) (*Kind, error) {
	k := &Kind{asic: defaultASIC, ports: 32}
	for _, o := range opts {
		if err := o(k); err != nil {
			return nil, fmt.Errorf("sonic kind: %w", err)
		}
	}
	return k, nil
}

func init() {
	k, _ := NewKind()
	device.Register(k)
}

// Name implements device.Kind.
func (k *Kind) Name() string { return Name }

// Model implements device.Modeler.
func (k *Kind) Model() string { return DefaultHWSKU }

// loadSchema parses the YANG once per kind; devices share it read-only.
func (k *Kind) loadSchema() (*schema, error) {
	k.once.Do(func() { k.schema, k.err = loadSchema() })
	return k.schema, k.err
}

// New implements device.Kind. The seed is CONFIG_DB JSON (the
// config_db.json form; a "bgpraw" key is ignored); it is loaded as `config
// load` does, without YANG validation (reference/sonic.md §7.1). A nil seed
// gives a factory device: DEVICE_METADATA, the ports, the SKU's buffer
// pools and platform buffer profiles, and PFC watchdog counter polling.
func (k *Kind) New(hostname string, seed []byte) (device.Device, error) {
	return k.newDevice(hostname, seed)
}

func (k *Kind) newDevice(hostname string, seed []byte) (*Device, error) {
	s, err := k.loadSchema()
	if err != nil {
		return nil, err
	}
	d := &Device{kind: k, schema: s, checkpoints: map[string]db{}, files: map[string][]byte{}}
	if seed == nil {
		d.db = k.factory(hostname)
	} else if d.db, err = parseDB(seed); err != nil {
		return nil, fmt.Errorf("new %s: seed: %w", hostname, err)
	}
	d.hostname = hostname
	if d.hostname == "" {
		d.hostname = d.db["DEVICE_METADATA"]["localhost"]["hostname"]
	}
	if d.hostname == "" {
		d.hostname = "sonic"
	}
	return d, nil
}

// parseDB decodes CONFIG_DB JSON; every value must be a string.
func parseDB(b []byte) (db, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("parse config_db json: %w", err)
	}
	delete(raw, "bgpraw")
	d := db{}
	for tn, r := range raw {
		var keys map[string]map[string]string
		if err := json.Unmarshal(r, &keys); err != nil {
			return nil, fmt.Errorf("parse config_db json: table %s: %w", tn, err)
		}
		for k, f := range keys {
			if f == nil {
				keys[k] = map[string]string{}
			}
		}
		d[tn] = keys
	}
	return d, nil
}

// factory is a freshly installed switch's CONFIG_DB: the parts the
// platform writes and a QoS rendering must not own (reference/sonic.md §4,
// §7.5): PORT, BUFFER_POOL and the platform's lossy/lossless buffer
// profiles, with the values of §5.
func (k *Kind) factory(hostname string) db {
	if hostname == "" {
		hostname = "sonic"
	}
	d := db{
		"DEVICE_METADATA": {"localhost": {
			"hostname": hostname, "hwsku": DefaultHWSKU, "platform": "x86_64-arista_7060_cx32s",
			"buffer_model": "traditional", "default_pfcwd_status": "disable", "type": "LeafRouter",
		}},
		"PORT": {},
		"BUFFER_POOL": {
			"egress_lossless_pool":  {"mode": "static", "size": "15982720", "type": "egress"},
			"egress_lossy_pool":     {"mode": "dynamic", "size": "9243812", "type": "egress"},
			"ingress_lossless_pool": {"mode": "dynamic", "size": "10875072", "type": "ingress", "xoff": "4194112"},
		},
		"BUFFER_PROFILE": {
			"egress_lossless_profile": {"pool": "egress_lossless_pool", "size": "1518", "static_th": "15982720"},
			"egress_lossy_profile":    {"dynamic_th": "3", "pool": "egress_lossy_pool", "size": "1518"},
			"ingress_lossy_profile":   {"dynamic_th": "3", "pool": "ingress_lossless_pool", "size": "0"},
		},
		"FLEX_COUNTER_TABLE": {"PFCWD": {"FLEX_COUNTER_STATUS": "enable"}},
	}
	for i := 0; i < k.ports; i++ {
		d["PORT"][fmt.Sprintf("Ethernet%d", 4*i)] = map[string]string{
			"admin_status": "up", "alias": fmt.Sprintf("Ethernet%d/1", i+1), "index": fmt.Sprint(i + 1),
			"lanes": fmt.Sprintf("%d,%d,%d,%d", 4*i+1, 4*i+2, 4*i+3, 4*i+4), "mtu": "9100", "speed": "100000",
		}
	}
	return d
}

// Device is one emulated SONiC switch: CONFIG_DB, its checkpoints and the
// files on its disk.
type Device struct {
	kind     *Kind
	schema   *schema
	hostname string

	mu          sync.Mutex
	db          db
	checkpoints map[string]db
	files       map[string][]byte
}

// Running implements device.Device: `show runningconfiguration all`.
func (d *Device) Running() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	return []byte(d.showRunning())
}

// showRunning prints CONFIG_DB plus the "bgpraw" key the command adds
// (reference/sonic.md §7.4); d.mu is held.
func (d *Device) showRunning() string {
	return formatDB(d.db, map[string]string{"bgpraw": ""}) + "\n"
}

// DB implements device.ConfigDB.
func (d *Device) DB() map[string]map[string]map[string]string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return copyDB(d.db)
}

// Patch implements device.ConfigDB: the patch is checked exactly as
// `config apply-patch` checks it and then applied all at once, or not at
// all. The error text is SONiC's reason (reference/sonic.md §7.2).
func (d *Device) Patch(patch []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	target, reason := d.planPatch(patch)
	if reason != "" {
		return errors.New(reason)
	}
	d.db = target
	return nil
}

// Checkpoint implements device.Checkpointer: CONFIG_DB as JSON.
func (d *Device) Checkpoint() []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	return []byte(formatDB(d.db, nil))
}

// Restore implements device.Checkpointer: CONFIG_DB becomes the
// checkpoint's, as `config reload` of the file would make it.
func (d *Device) Restore(cp []byte) error {
	target, err := parseDB(cp)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.db = target
	return nil
}

// planPatch simulates a JSON Patch on the running config and runs every
// check apply-patch runs. It returns the target config or SONiC's reason.
// d.mu is held.
func (d *Device) planPatch(patch []byte) (db, string) {
	ops, err := parsePatch(patch)
	if err != nil {
		return nil, err.Error()
	}
	target, err := applyPatch(d.db, ops)
	if err != nil {
		return nil, err.Error()
	}
	return target, d.check(target, false)
}

// check runs GCU's checks on a target config (reference/sonic.md §7.2):
// no empty tables, changes only to tables with YANG (unless ignoreNonYang),
// the field-operation validators, then YANG validation of the whole
// result. It returns the reason for a refusal, or "". d.mu is held.
func (d *Device) check(target db, ignoreNonYang bool) string {
	for _, tn := range sortedKeys(target) {
		if len(target[tn]) == 0 {
			// [I] GCU's EmptyTableError wording.
			return fmt.Sprintf("Given patch is not valid because it will result in empty tables which is not allowed in ConfigDb. Table: %s", tn)
		}
	}
	changes := diffPatch(d.db, target)
	var noYang []string
	for _, c := range changes {
		toks, _ := pointer(c.Path)
		if d.schema.tables[toks[0]] == nil && !contains(noYang, toks[0]) {
			noYang = append(noYang, toks[0])
		}
	}
	if len(noYang) > 0 && !ignoreNonYang {
		// [I] wording; §7.2: "refuse changes to tables without YANG unless -n".
		return fmt.Sprintf("Given patch is not valid because it has changes to tables without YANG models: %s", pyList(noYang))
	}
	if t := d.refusedTable(changes); t != "" {
		return fmt.Sprintf("Modification of %s table is illegal- validating function generic_config_updater.field_operation_validators.rdma_config_update_validator returned False", t)
	}
	if msg := d.schema.validate(target); msg != "" {
		return "Given patch will produce invalid config. Error: " + msg
	}
	return ""
}

// refusedTable applies the field-operation validators of
// gcu_field_operation_validators.conf.json as reference/sonic.md §7.2
// describes them, and returns the first table a change is refused on.
func (d *Device) refusedTable(changes []op) string {
	allowedASIC := pfcwdASICs[d.kind.asic]
	for _, c := range changes {
		toks, _ := pointer(c.Path)
		switch toks[0] {
		case "BUFFER_POOL":
			return "BUFFER_POOL" // empty allow-list on master
		case "BUFFER_PROFILE":
			// Whole profiles may come and go; a single field only for
			// dynamic_th and xoff (replace) on the listed ASICs.
			if len(toks) == 3 && !(allowedASIC && c.Op == "replace" && (toks[2] == "dynamic_th" || toks[2] == "xoff")) {
				return "BUFFER_PROFILE"
			}
		case "PFC_WD":
			if !allowedASIC {
				return "PFC_WD"
			}
			if c.Op == "remove" && (len(toks) == 1 || (toks[1] == "GLOBAL" && (len(toks) == 2 || toks[2] == "POLL_INTERVAL"))) {
				return "PFC_WD"
			}
		}
	}
	return ""
}

func contains(s []string, v string) bool {
	for _, e := range s {
		if e == v {
			return true
		}
	}
	return false
}

// pyList prints names as Python prints a list of strings.
func pyList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = "'" + v + "'"
	}
	return "[" + strings.Join(q, ", ") + "]"
}
