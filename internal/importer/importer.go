// Package importer writes an intent from devices' running configs, for
// `lossless import`, and checks that it round-trips: planned against the
// same running configs, it changes nothing.
//
// Each vendor reads its own running config (vendors.Vendor.Import) into
// the intent's resolved state; this package is vendor-neutral. It groups
// the devices: one qos_profile per distinct QoS, folded into a device
// override of another profile where the difference is small (deep merge:
// the override says only what differs); one buffer_profile per distinct
// buffer settings; one assign block per profile, ports and options, with
// per-port overrides where ports differ from their device. What a
// device's running config has in lossless' scope that the intent cannot
// say is listed in the report and as a comment in the written file, with
// its line, never dropped.
package importer

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/inventory"
	"github.com/lossless-net/lossless/vendors"
)

// File is the name of the intent file Import writes.
const File = "qos.hcl"

// Source is one device to import.
type Source struct {
	// Device is the device's inventory entry.
	Device *inventory.Device
	// Running is its running config in the form its vendor's
	// Driver.Running returns (a saved file goes through Vendor.Saved
	// first).
	Running []byte
	// From says where Running came from, for the report and the written
	// comments: the saved file's name, or "" for the device itself.
	From string
	// File is the saved file's content when Running was made from it
	// (Vendor.Saved), so that what the intent cannot say is reported at
	// its line in the file; nil otherwise.
	File []byte
}

// Device is the outcome of importing one device.
type Device struct {
	Name   string `json:"device"`
	Vendor string `json:"vendor"`
	From   string `json:"from,omitempty"`
	// Profile is the qos_profile the device was given ("" when its
	// import failed or it has no QoS); Override says whether it carries a
	// device override of it.
	Profile  string `json:"profile,omitempty"`
	Override bool   `json:"override,omitempty"`
	// Unexpressed is what its running config has in lossless' scope that
	// the intent cannot say.
	Unexpressed []vendors.Unexpressed `json:"unexpressed,omitempty"`
	// Problems are what kept part of the device out of the intent (a
	// port the inventory lacks, a port QoS no override can say).
	Problems []string `json:"problems,omitempty"`
	// Added are the ports its running config gives QoS and a speed to
	// that the inventory lacks: AddPorts adds them to the inventory.
	Added []vendors.ImportedPort `json:"added_ports,omitempty"`
	// Err is why the device could not be imported at all.
	Err error `json:"-"`
	// Change is the round trip: the plan of the written intent against
	// the running config read (Check fills it); empty when it
	// round-trips.
	Change *vendors.Change `json:"change,omitempty"`
	// CheckErr is why the round trip could not be checked.
	CheckErr error `json:"-"`

	src *Source
	imp *vendors.Imported
}

// RoundTrips reports whether the device imported and its round trip is
// empty.
func (d *Device) RoundTrips() bool {
	return d.Err == nil && d.CheckErr == nil && d.Change != nil && d.Change.Empty()
}

// Result is an import: the files written and each device's outcome.
type Result struct {
	// Files are the intent's files by name (File).
	Files map[string][]byte
	// Devices are in the sources' name order.
	Devices []*Device
}

// Import reads every source with its vendor's importer and writes one
// intent for them all. A device that cannot be imported is reported in
// its Device.Err and left out of the intent; the others still are.
func Import(srcs []Source) *Result {
	r := &Result{Files: map[string][]byte{}}
	for i := range srcs {
		s := &srcs[i]
		d := &Device{Name: s.Device.Name, Vendor: s.Device.Vendor, From: s.From, src: s}
		r.Devices = append(r.Devices, d)
		v, ok := vendors.Lookup(s.Device.Vendor)
		switch {
		case !ok:
			d.Err = fmt.Errorf("import %s: vendor %q is not registered", d.Name, d.Vendor)
		case v.Import == nil:
			d.Err = fmt.Errorf("import %s: lossless cannot import %s devices yet", d.Name, d.Vendor)
		default:
			d.imp, d.Err = v.Import(s.Device, s.Running)
			if d.Err == nil && d.imp == nil {
				d.Err = fmt.Errorf("import %s: the %s importer returned nothing", d.Name, d.Vendor)
			}
			if d.imp != nil {
				d.Unexpressed = fileLines(d.imp.Unexpressed, s.Running, s.File)
			}
		}
	}
	slices.SortFunc(r.Devices, func(a, b *Device) int { return strings.Compare(a.Name, b.Name) })
	r.Files[File] = write(r.Devices)
	return r
}

// profile is one qos_profile to write.
type profile struct {
	label string
	qos   *intent.QoS
	text  string // the canonical body, the grouping key
	devs  []*Device
}

// assign is one assign block to write.
type assign struct {
	label         string
	qos, buffers  string
	ports         string // a pattern, "" for every inventory port
	options       map[string]string
	devs          []*Device
	overrides     map[string]*hclwrite.File // device → qos override body
	portOverrides map[string][]portOverride
}

type portOverride struct {
	pattern string
	body    *hclwrite.File
}

func write(devs []*Device) []byte {
	var ok []*Device
	for _, d := range devs {
		if d.Err == nil && d.imp.QoS != nil {
			ok = append(ok, d)
		}
	}
	profiles := groupQoS(ok)
	bufLabels, bufBlocks := groupBuffers(ok)
	assigns := groupAssigns(ok, profiles, bufLabels)

	var b bytes.Buffer
	b.WriteString("# Written by lossless import from the devices' running configs. Each\n")
	b.WriteString("# device's plan against the config it was read from is empty where the\n")
	b.WriteString("# import report says it round-trips.\n")
	for _, p := range profiles {
		f := hclwrite.NewEmptyFile()
		intent.WriteQoS(f.Body().AppendNewBlock("qos_profile", []string{p.label}).Body(), p.qos)
		b.WriteString("\n")
		b.Write(f.Bytes())
	}
	for _, blk := range bufBlocks {
		b.WriteString("\n")
		b.Write(blk)
	}
	for _, a := range assigns {
		b.WriteString("\n")
		writeComments(&b, a.devs)
		b.Write(a.block())
	}
	for _, d := range devs {
		if d.Err != nil {
			fmt.Fprintf(&b, "\n# %s: not imported: %s\n", d.Name, oneLine(d.Err.Error()))
		} else if d.imp.QoS == nil {
			fmt.Fprintf(&b, "\n# %s: no QoS in lossless' scope\n", d.Name)
		}
	}
	out := hclwrite.Format(b.Bytes())
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	return out
}

// writeComments lists, above an assign, what each of its devices has that
// the intent cannot say or that was left out.
func writeComments(b *bytes.Buffer, devs []*Device) {
	for _, d := range devs {
		if len(d.Unexpressed) == 0 && len(d.Problems) == 0 {
			continue
		}
		from := d.From
		if from == "" {
			from = "its running config"
		}
		fmt.Fprintf(b, "# %s: not expressed in the intent (%s):\n", d.Name, from)
		for _, u := range d.Unexpressed {
			fmt.Fprintf(b, "#   line %d: %s — %s\n", u.Line, oneLine(u.Text), oneLine(u.Reason))
		}
		for _, p := range d.Problems {
			fmt.Fprintf(b, "#   %s\n", oneLine(p))
		}
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// groupQoS gives every device a profile: one per distinct QoS, largest
// group first; a group whose QoS is a small override of an earlier
// profile's (at most half the lines of its own profile) gets that
// profile with a device override instead.
func groupQoS(devs []*Device) []*profile {
	byText := map[string]*profile{}
	var all []*profile
	for _, d := range devs {
		t := qosText(d.imp.QoS)
		p, ok := byText[t]
		if !ok {
			p = &profile{qos: d.imp.QoS, text: t}
			byText[t] = p
			all = append(all, p)
		}
		p.devs = append(p.devs, d)
	}
	slices.SortStableFunc(all, func(a, b *profile) int {
		return cmp.Or(cmp.Compare(len(b.devs), len(a.devs)), strings.Compare(a.devs[0].Name, b.devs[0].Name))
	})
	var kept []*profile
	used := map[string]bool{}
	for _, p := range all {
		folded := false
		for _, k := range kept {
			ov := hclwrite.NewEmptyFile()
			if !intent.WriteQoSOverride(ov.Body(), k.qos, p.qos) {
				continue
			}
			if lines(raw(ov))*2 > lines([]byte(p.text)) {
				continue
			}
			for _, d := range p.devs {
				d.Profile, d.Override = k.label, true
			}
			k.devs = append(k.devs, p.devs...)
			folded = true
			break
		}
		if folded {
			continue
		}
		p.label = uniqueLabel(suggest(cmp.Or(p.qos.Profile, p.qos.Names.Classifier, p.qos.Names.PortProfile)), used)
		for _, d := range p.devs {
			d.Profile = p.label
		}
		kept = append(kept, p)
	}
	return kept
}

func qosText(q *intent.QoS) string {
	f := hclwrite.NewEmptyFile()
	intent.WriteQoS(f.Body(), q)
	return string(raw(f))
}

// raw is f's text before formatting: what it says, as the grouping keys
// and sizes need; the written file is formatted once, as a whole.
func raw(f *hclwrite.File) []byte { return f.BuildTokens(nil).Bytes() }

func lines(b []byte) int { return bytes.Count(bytes.TrimSpace(b), []byte("\n")) + 1 }

// suggest makes a profile label of an importer's suggestion (the
// profile name it gives, else the device's classifier or port profile
// name): an HCL
// identifier (letters, digits, _ and -, starting with a letter), "qos"
// when there is none.
func suggest(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
			b.WriteRune(c)
		case (c >= '0' && c <= '9') || c == '-':
			if b.Len() > 0 {
				b.WriteRune(c)
			}
		default:
			if b.Len() > 0 {
				b.WriteByte('_')
			}
		}
	}
	if b.Len() == 0 {
		return "qos"
	}
	return b.String()
}

func uniqueLabel(base string, used map[string]bool) string {
	l := base
	for i := 2; used[l]; i++ {
		l = fmt.Sprintf("%s_%d", base, i)
	}
	used[l] = true
	return l
}

// groupBuffers gives one buffer_profile per distinct buffer settings and
// returns each device's label ("" for none) and the blocks.
func groupBuffers(devs []*Device) (map[*Device]string, [][]byte) {
	labels := map[*Device]string{}
	byText := map[string]string{}
	used := map[string]bool{}
	var blocks [][]byte
	for _, d := range devs {
		if d.imp.Buffers == nil {
			continue
		}
		f := hclwrite.NewEmptyFile()
		intent.WriteBuffers(f.Body(), d.imp.Buffers)
		t := string(raw(f))
		l, ok := byText[t]
		if !ok {
			l = uniqueLabel(suggest(cmp.Or(d.imp.Buffers.Profile, "buffers")), used)
			byText[t] = l
			bf := hclwrite.NewEmptyFile()
			intent.WriteBuffers(bf.Body().AppendNewBlock("buffer_profile", []string{l}).Body(), d.imp.Buffers)
			blocks = append(blocks, bf.Bytes())
		}
		labels[d] = l
	}
	return labels, blocks
}

// groupAssigns makes one assign block per profile, buffers, ports and
// options, with each device's overrides.
func groupAssigns(devs []*Device, profiles []*profile, bufLabels map[*Device]string) []*assign {
	byLabel := map[string]*profile{}
	for _, p := range profiles {
		byLabel[p.label] = p
	}
	byKey := map[string]*assign{}
	var out []*assign
	for _, d := range devs {
		p := byLabel[d.Profile]
		ports := portsPattern(d)
		key := strings.Join([]string{d.Profile, bufLabels[d], ports, optionsText(d.imp.Options)}, "\x00")
		a, ok := byKey[key]
		if !ok {
			a = &assign{qos: d.Profile, buffers: bufLabels[d], ports: ports, options: d.imp.Options, overrides: map[string]*hclwrite.File{}, portOverrides: map[string][]portOverride{}}
			byKey[key] = a
			out = append(out, a)
		}
		a.devs = append(a.devs, d)
		if d.Override {
			ov := hclwrite.NewEmptyFile()
			intent.WriteQoSOverride(ov.Body(), p.qos, d.imp.QoS)
			a.overrides[d.Name] = ov
		}
		a.portOverrides[d.Name] = portOverrides(d)
	}
	// An assign is named for its profile, and for its first device too
	// when the profile has several.
	perProfile := map[string]int{}
	for _, a := range out {
		perProfile[a.qos]++
	}
	used := map[string]bool{}
	for _, p := range profiles {
		used[p.label] = perProfile[p.label] == 1
	}
	for _, a := range out {
		if perProfile[a.qos] == 1 {
			a.label = a.qos
			continue
		}
		a.label = uniqueLabel(suggest(a.qos+"_"+a.devs[0].Name), used)
	}
	return out
}

// portsPattern is the assign's ports for d: "" when its QoS ports are
// every inventory port, else their pattern. A QoS port the inventory
// lacks is a problem of d's and left out.
func portsPattern(d *Device) string {
	inv := map[string]bool{}
	for _, p := range d.src.Device.Ports {
		inv[p.Name] = true
	}
	var names []string
	for _, p := range d.imp.Ports {
		if !inv[p.Name] && p.Speed > 0 {
			d.Added = append(d.Added, p)
		} else if !inv[p.Name] {
			d.Problems = append(d.Problems, fmt.Sprintf("port %s has QoS in the running config but is not in the inventory, and the config does not say its speed; add it to the inventory and import again", p.Name))
			continue
		}
		names = append(names, p.Name)
	}
	if len(names) == len(inv)+len(d.Added) {
		return ""
	}
	if len(names) == 0 {
		d.Problems = append(d.Problems, "no port of the inventory has QoS in the running config; the intent gives it none")
	}
	return inventory.CompactPorts(names)
}

// portOverrides groups d's ports whose QoS differs from the device's by
// their override.
func portOverrides(d *Device) []portOverride {
	byBody := map[string][]string{}
	bodies := map[string]*hclwrite.File{}
	var order []string
	for _, p := range d.imp.Ports {
		if p.QoS == nil {
			continue
		}
		ov := hclwrite.NewEmptyFile()
		if !intent.WriteQoSOverride(ov.Body(), d.imp.QoS, p.QoS) {
			d.Problems = append(d.Problems, fmt.Sprintf("port %s: its QoS differs from the device's in a way no port override can say (a setting the device has and the port leaves unset); it gets the device's", p.Name))
			continue
		}
		k := string(raw(ov))
		if _, ok := byBody[k]; !ok {
			order = append(order, k)
			bodies[k] = ov
		}
		byBody[k] = append(byBody[k], p.Name)
	}
	var out []portOverride
	for _, k := range order {
		out = append(out, portOverride{pattern: inventory.CompactPorts(byBody[k]), body: bodies[k]})
	}
	return out
}

func optionsText(o map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(o)) {
		fmt.Fprintf(&b, "%q=%q;", k, o[k])
	}
	return b.String()
}

// block writes the assign block.
func (a *assign) block() []byte {
	f := hclwrite.NewEmptyFile()
	body := f.Body().AppendNewBlock("assign", []string{a.label}).Body()
	var names []cty.Value
	for _, d := range a.devs {
		names = append(names, cty.StringVal(d.Name))
	}
	body.SetAttributeValue("devices", cty.ListVal(names))
	if a.ports != "" {
		var items []cty.Value
		for _, it := range strings.Split(a.ports, ",") {
			items = append(items, cty.StringVal(it))
		}
		body.SetAttributeValue("ports", cty.ListVal(items))
	}
	body.SetAttributeTraversal("qos", traversal("qos_profile", a.qos))
	if a.buffers != "" {
		body.SetAttributeTraversal("buffers", traversal("buffer_profile", a.buffers))
	}
	if len(a.options) > 0 {
		m := map[string]cty.Value{}
		for k, v := range a.options {
			m[k] = cty.StringVal(v)
		}
		body.SetAttributeValue("options", cty.MapVal(m))
	}
	for _, d := range a.devs {
		ov, pos := a.overrides[d.Name], a.portOverrides[d.Name]
		hasOv := ov != nil && len(bytes.TrimSpace(raw(ov))) > 0
		if !hasOv && len(pos) == 0 {
			continue
		}
		db := body.AppendNewBlock("device", []string{d.Name}).Body()
		if hasOv {
			db.AppendNewBlock("qos", nil).Body().AppendUnstructuredTokens(ov.Body().BuildTokens(nil))
		}
		for _, po := range pos {
			db.AppendNewBlock("port", []string{po.pattern}).Body().AppendNewBlock("qos", nil).Body().AppendUnstructuredTokens(po.body.Body().BuildTokens(nil))
		}
	}
	return f.Bytes()
}

var hclStart = hcl.Pos{Line: 1, Column: 1}

func traversal(root, name string) hcl.Traversal {
	return hcl.Traversal{hcl.TraverseRoot{Name: root}, hcl.TraverseAttr{Name: name}}
}

// fileLines moves each unexpressed line's number from the running config
// given to Import to the saved file it was made from: the line of the
// file with the same text (trimmed), the first one after the previous
// match where the text repeats (a running config lists its sections in
// the file's order). A line whose text the file lacks keeps its number.
func fileLines(us []vendors.Unexpressed, running, file []byte) []vendors.Unexpressed {
	if file == nil || bytes.Equal(running, file) {
		return us
	}
	var lines []string
	for l := range strings.Lines(string(file)) {
		lines = append(lines, strings.TrimSpace(l))
	}
	out := slices.Clone(us)
	next := 0
	for i, u := range out {
		want := strings.TrimSpace(u.Text)
		at := -1
		for j := next; j < len(lines) && at < 0; j++ {
			if lines[j] == want {
				at = j
			}
		}
		for j := 0; j < next && at < 0; j++ {
			if lines[j] == want {
				at = j
			}
		}
		if at >= 0 {
			out[i].Line = at + 1
			next = at + 1
		}
	}
	return out
}
