package sonic

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lossless-net/lossless/internal/lab/device"
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

// sku is a switch model as SONiC knows it: DEVICE_METADATA's hwsku and
// platform, the ASIC generation GCU's validators see, and the factory
// PORT table's layout (ports front-panel ports of lanes lanes each, named
// Ethernet<first lane>, at speed).
type sku struct {
	hwsku, platform, asic string
	ports, lanes          int
	speed                 string
	// buf is the SKU template's BUFFER_POOL and BUFFER_PROFILE rows; nil:
	// the default SKU's (reference/sonic.md §5).
	buf *buffers
}

// buffers are the BUFFER_POOL and BUFFER_PROFILE rows a SKU's buffer
// template writes on a factory switch.
type buffers struct {
	pools, profiles map[string]map[string]string
	// ingressList and egressList are every port's
	// BUFFER_PORT_INGRESS_PROFILE_LIST and BUFFER_PORT_EGRESS_PROFILE_LIST
	// profile_list; "" for none.
	ingressList, egressList string
}

// defaultBuffers are the default SKU's rows, reference/sonic.md §5.
func defaultBuffers() *buffers {
	return &buffers{
		pools: map[string]map[string]string{
			"egress_lossless_pool":  {"mode": "static", "size": "15982720", "type": "egress"},
			"egress_lossy_pool":     {"mode": "dynamic", "size": "9243812", "type": "egress"},
			"ingress_lossless_pool": {"mode": "dynamic", "size": "10875072", "type": "ingress", "xoff": "4194112"},
		},
		profiles: map[string]map[string]string{
			"egress_lossless_profile": {"pool": "egress_lossless_pool", "size": "1518", "static_th": "15982720"},
			"egress_lossy_profile":    {"dynamic_th": "3", "pool": "egress_lossy_pool", "size": "1518"},
			"ingress_lossy_profile":   {"dynamic_th": "3", "pool": "ingress_lossless_pool", "size": "0"},
		},
	}
}

// mellanoxBuffers are the rows of the Mellanox ACS SKUs' template, static
// buffer model, all ports active: the pools and profiles of
// generate_buffer_pool_and_profiles_with_inactive_ports in sonic-buildimage
// 086b03bd device/mellanox/x86_64-mlnx_msn2700-r0/ACS-MSN2700/buffers_defaults_objects.j2
// (which ACS-MSN3700, ACS-MSN4700, ACS-MSN4600C and ACS-SN5600 link to),
// with the SKU's buffers_defaults_t1.j2 pool sizes (a LeafRouter: t1,
// files/build_templates/buffers_config.j2). ingress is the ingress and
// egress lossy pool size, egressLossless the egress lossless one.
func mellanoxBuffers(ingress, egressLossless string) *buffers {
	return &buffers{
		pools: map[string]map[string]string{
			"ingress_lossless_pool": {"size": ingress, "type": "ingress", "mode": "dynamic"},
			"ingress_lossy_pool":    {"size": ingress, "type": "ingress", "mode": "dynamic"},
			"egress_lossless_pool":  {"size": egressLossless, "type": "egress", "mode": "dynamic"},
			"egress_lossy_pool":     {"size": ingress, "type": "egress", "mode": "dynamic"},
		},
		profiles: map[string]map[string]string{
			"ingress_lossless_profile": {"pool": "ingress_lossless_pool", "size": "0", "dynamic_th": "7"},
			"ingress_lossy_profile":    {"pool": "ingress_lossy_pool", "size": "0", "dynamic_th": "3"},
			"egress_lossless_profile":  {"pool": "egress_lossless_pool", "size": "0", "dynamic_th": "7"},
			"egress_lossy_profile":     {"pool": "egress_lossy_pool", "size": "9216", "dynamic_th": "7"},
			"q_lossy_profile":          {"pool": "egress_lossy_pool", "size": "0", "dynamic_th": "3"},
		},
		// generate_profile_lists, for active ports.
		ingressList: "ingress_lossless_profile,ingress_lossy_profile",
		egressList:  "egress_lossless_profile,egress_lossy_profile",
	}
}

// skus are the models a spec may name (the platform catalog's names for
// them). The default SKU's figures are reference/sonic.md §5's; the others
// are [I: sonic-buildimage's device/<vendor>/<platform>/<hwsku> names,
// with 4-lane ports on 100G Spectrum-3 and Tomahawk, 8-lane ports on
// Spectrum-2/3 200G/400G and Spectrum-4 (the SN5600's "eth//8" port
// index)]. The Mellanox SKUs have their template's buffer rows
// (mellanoxBuffers), the others the default SKU's.
var skus = map[string]sku{
	"Arista-7060CX-32S":  {DefaultHWSKU, "x86_64-arista_7060_cx32s", defaultASIC, 32, 4, "100000", nil},
	"SN3700":             {"ACS-MSN3700", "x86_64-mlnx_msn3700-r0", "spc2", 32, 8, "200000", mellanoxBuffers("11622400", "34287552")},
	"SN4600C":            {"ACS-MSN4600C", "x86_64-mlnx_msn4600c-r0", "spc3", 64, 4, "100000", mellanoxBuffers("20627456", "60817392")},
	"SN4700":             {"ACS-MSN4700", "x86_64-mlnx_msn4700-r0", "spc3", 32, 8, "400000", mellanoxBuffers("20627456", "60817392")},
	"SN5600":             {"ACS-SN5600", "x86_64-nvidia_sn5600-r0", "spc4", 64, 8, "800000", mellanoxBuffers("52161690", "158229504")},
	"DellEMC-Z9332f-O32": {"DellEMC-Z9332f-O32", "x86_64-dellemc_z9332f_d1508-r0", "th3", 32, 8, "400000", nil},
}

// skuOf returns the SKU named by a model or by its hwsku.
func skuOf(model string) (sku, bool) {
	if s, ok := skus[model]; ok {
		return s, true
	}
	for _, s := range skus {
		if s.hwsku == model {
			return s, true
		}
	}
	return sku{}, false
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
// config_db.json form, leaf-lists as lists of strings; a "bgpraw" key is
// ignored); it is loaded as `config
// load` does, without YANG validation (reference/sonic.md §7.1). A nil seed
// gives a factory device: DEVICE_METADATA, the ports, the SKU's buffer
// pools and platform buffer profiles, and PFC watchdog counter polling.
func (k *Kind) New(hostname string, seed []byte) (device.Device, error) {
	return k.newDevice(hostname, seed)
}

// NewSpec implements device.SpecKind: a device of spec.Model (a model of
// skus or its hwsku; empty: the kind's), whose ASIC generation is the one
// GCU's validators see and whose factory CONFIG_DB has the SKU's
// DEVICE_METADATA and PORT layout. spec.Ports come on top of the SKU's
// ports: each one missing from PORT (the factory's or the seed's) gets a
// row, as SONiC's PORT table is whatever the platform and breakout mode
// made it (an inventory's Ethernet4 on an 8-lane SKU is a breakout port);
// a name that is not Ethernet<N> is an error. A seed whose
// DEVICE_METADATA|localhost names no hwsku or platform gets the model's.
func (k *Kind) NewSpec(hostname string, seed []byte, spec device.Spec) (device.Device, error) {
	return k.newSpecDevice(hostname, seed, spec)
}

func (k *Kind) newDevice(hostname string, seed []byte) (*Device, error) {
	return k.newSpecDevice(hostname, seed, device.Spec{})
}

func (k *Kind) newSpecDevice(hostname string, seed []byte, spec device.Spec) (*Device, error) {
	sk := sku{DefaultHWSKU, "x86_64-arista_7060_cx32s", k.asic, k.ports, 4, "100000", nil}
	if spec.Model != "" {
		var ok bool
		if sk, ok = skuOf(spec.Model); !ok {
			return nil, fmt.Errorf("new %s: model %q: not a SONiC switch the lab emulates (%s)", hostname, spec.Model, strings.Join(skuNames(), ", "))
		}
	}
	for _, p := range spec.Ports {
		if n, ok := strings.CutPrefix(p, "Ethernet"); !ok || n == "" || strings.Trim(n, "0123456789") != "" || (len(n) > 1 && n[0] == '0') {
			return nil, fmt.Errorf("new %s: port %q: not a SONiC port name like Ethernet8", hostname, p)
		}
	}
	s, err := k.loadSchema()
	if err != nil {
		return nil, err
	}
	d := &Device{kind: k, schema: s, asic: sk.asic, checkpoints: map[string]db{}, files: map[string][]byte{}}
	if seed == nil {
		d.db = factory(hostname, sk)
	} else if d.db, err = parseDB(seed); err != nil {
		return nil, fmt.Errorf("new %s: seed: %w", hostname, err)
	}
	if seed != nil && spec.Model != "" {
		// The platform writes its SKU's names at first boot; a seed that
		// leaves them out is the rest of the config.
		md := d.db["DEVICE_METADATA"]["localhost"]
		if md == nil {
			md = map[string]string{}
			if d.db["DEVICE_METADATA"] == nil {
				d.db["DEVICE_METADATA"] = map[string]map[string]string{}
			}
			d.db["DEVICE_METADATA"]["localhost"] = md
		}
		for f, v := range map[string]string{"hwsku": sk.hwsku, "platform": sk.platform} {
			if _, ok := md[f]; !ok {
				md[f] = v
			}
		}
	}
	addPorts(d.db, sk, spec.Ports)
	d.hostname = hostname
	d.model, d.sku, d.booted = cmp.Or(spec.Model, sk.hwsku), sk, time.Now()
	if d.hostname == "" {
		d.hostname = d.db["DEVICE_METADATA"]["localhost"]["hostname"]
	}
	if d.hostname == "" {
		d.hostname = "sonic"
	}
	return d, nil
}

// parseDB decodes CONFIG_DB JSON as sonic-cfggen -j writes it to redis:
// every value a string, or a leaf-list given as a list of strings, which
// is stored as the field name with "@" appended and the items joined by
// "," (swss-common common/configdb.h, ConfigDBConnector.typed_to_raw;
// reference/sonic.md §1).
func parseDB(b []byte) (db, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("parse config_db json: %w", err)
	}
	delete(raw, "bgpraw")
	d := db{}
	for tn, r := range raw {
		var keys map[string]map[string]json.RawMessage
		if err := json.Unmarshal(r, &keys); err != nil {
			return nil, fmt.Errorf("parse config_db json: table %s: %w", tn, err)
		}
		t := make(map[string]map[string]string, len(keys))
		for k, fields := range keys {
			f := make(map[string]string, len(fields))
			for name, v := range fields {
				var s string
				if err := json.Unmarshal(v, &s); err == nil {
					f[name] = s
					continue
				}
				var list []string
				if err := json.Unmarshal(v, &list); err != nil {
					return nil, fmt.Errorf("parse config_db json: table %s: key %s: field %s: not a string or a list of strings", tn, k, name)
				}
				f[name+"@"] = strings.Join(list, ",")
			}
			t[k] = f
		}
		d[tn] = t
	}
	return d, nil
}

// skuNames lists the models of skus, sorted.
func skuNames() []string {
	var n []string
	for m := range skus {
		n = append(n, m)
	}
	sort.Strings(n)
	return n
}

// addPorts gives every named port missing from PORT a row of the SKU's
// speed, on lanes after the highest lane PORT uses.
func addPorts(d db, sk sku, ports []string) {
	if len(ports) == 0 {
		return
	}
	if d["PORT"] == nil {
		d["PORT"] = map[string]map[string]string{}
	}
	lane, index := 0, 0
	for _, f := range d["PORT"] {
		for _, l := range strings.Split(f["lanes"], ",") {
			if n, err := strconv.Atoi(strings.TrimSpace(l)); err == nil && n > lane {
				lane = n
			}
		}
		if n, err := strconv.Atoi(f["index"]); err == nil && n > index {
			index = n
		}
	}
	for _, p := range ports {
		if d["PORT"][p] != nil {
			continue
		}
		var lanes []string
		for range sk.lanes {
			lane++
			lanes = append(lanes, strconv.Itoa(lane))
		}
		index++
		d["PORT"][p] = map[string]string{
			"admin_status": "up", "alias": fmt.Sprintf("etp%d", index), "index": strconv.Itoa(index),
			"lanes": strings.Join(lanes, ","), "mtu": "9100", "speed": sk.speed,
		}
	}
}

// factory is a freshly installed switch's CONFIG_DB: the parts the
// platform writes and a QoS rendering must not own (reference/sonic.md §4,
// §7.5): PORT (the SKU's layout), BUFFER_POOL and the platform's
// lossy/lossless buffer profiles (the SKU's, or the values of §5).
func factory(hostname string, sk sku) db {
	if hostname == "" {
		hostname = "sonic"
	}
	buf := sk.buf
	if buf == nil {
		buf = defaultBuffers()
	}
	d := db{
		"DEVICE_METADATA": {"localhost": {
			"hostname": hostname, "hwsku": sk.hwsku, "platform": sk.platform,
			"buffer_model": "traditional", "default_pfcwd_status": "disable", "type": "LeafRouter",
		}},
		"PORT":               {},
		"BUFFER_POOL":        copyTable(buf.pools),
		"BUFFER_PROFILE":     copyTable(buf.profiles),
		"FLEX_COUNTER_TABLE": {"PFCWD": {"FLEX_COUNTER_STATUS": "enable"}},
	}
	for i := 0; i < sk.ports; i++ {
		lanes := make([]string, sk.lanes)
		for l := range lanes {
			lanes[l] = strconv.Itoa(sk.lanes*i + l + 1)
		}
		name := fmt.Sprintf("Ethernet%d", sk.lanes*i)
		d["PORT"][name] = map[string]string{
			"admin_status": "up", "alias": fmt.Sprintf("Ethernet%d/1", i+1), "index": fmt.Sprint(i + 1),
			"lanes": strings.Join(lanes, ","), "mtu": "9100", "speed": sk.speed,
		}
		for tn, list := range map[string]string{"BUFFER_PORT_INGRESS_PROFILE_LIST": buf.ingressList, "BUFFER_PORT_EGRESS_PROFILE_LIST": buf.egressList} {
			if list == "" {
				continue
			}
			if d[tn] == nil {
				d[tn] = map[string]map[string]string{}
			}
			d[tn][name] = map[string]string{"profile_list": list}
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
	// model is the inventory's model (the spec's, or the default SKU's
	// hwsku), sku the SKU it is, and booted when the device was made:
	// `show version`.
	model  string
	sku    sku
	booted time.Time
	// asic is the ASIC generation GCU's validators see (the kind's, or
	// the spec's model's).
	asic string

	mu          sync.Mutex
	db          db
	checkpoints map[string]db
	files       map[string][]byte
	// counters are the ports' health counters (counters.go).
	counters device.Counters
	// watch, when set, sees every key the change applier writes (Watch).
	watch func(Write, map[string]map[string]map[string]string)
	// drop is the number of changes after which the next writing GCU
	// command dies with its session, when dropSet (DropSessionAfter).
	drop    int
	dropSet bool
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
// `config apply-patch` checks it, sorted into GCU's changes and applied
// change by change (gcu.go), or not at all when a check or the sorting
// fails. The error text is SONiC's reason (reference/sonic.md §7.2).
func (d *Device) Patch(patch []byte) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	target, reason := d.planPatch(patch)
	if reason != "" {
		return errors.New(reason)
	}
	changes, err := d.schema.sortChanges(d.db, target)
	if err != nil {
		return err
	}
	d.writeChanges(changes, -1)
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
	allowedASIC := pfcwdASICs[d.asic]
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
