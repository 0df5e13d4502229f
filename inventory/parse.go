package inventory

import (
	"errors"
	"math/big"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/lossless-net/lossless/intent/bounded"
	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/units"
)

// Schemas of the inventory language. Required attributes are checked by
// hand so that their diagnostics carry a rule ID.
var (
	rootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "credentials", LabelNames: []string{"name"}},
		{Type: "device", LabelNames: []string{"name"}},
		{Type: "link"},
	}}
	credentialsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "username_env"}, {Name: "password_env"}, {Name: "password_file"},
		{Name: "key_file"}, {Name: "known_hosts"}, {Name: "password"},
		{Name: "allow_literal_password"},
		{Name: "tls_ca"}, {Name: "tls_cert"}, {Name: "tls_key"},
	}}
	deviceSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{
			{Name: "vendor"}, {Name: "platform"}, {Name: "address"}, {Name: "port"},
			{Name: "transport"}, {Name: "roles"}, {Name: "tags"}, {Name: "credentials"},
		},
		Blocks: []hcl.BlockHeaderSchema{{Type: "ports", LabelNames: []string{"range"}}},
	}
	portsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "speed"}, {Name: "cable"}}}
	linkSchema  = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "a"}, {Name: "b"}}}
)

// Transports a device may use.
const (
	TransportSSH  = "ssh"
	TransportGNMI = "gnmi"
)

// DefaultSSHPort is the management port of an ssh device with none given.
const DefaultSSHPort = 22

// Parse decodes an inventory from HCL source; filename is used in
// diagnostics. See Load for vendors and for what comes back.
func Parse(src []byte, filename string, vendors Vendors) (*Inventory, hcl.Diagnostics) {
	var budget bounded.Budget
	file, diags := budget.Parse(src, filename)
	tagRule(diags, RuleSyntax)
	if file == nil || file.Body == nil {
		return nil, diags
	}
	// The file is kept for the snippets of diagnostics, which must never
	// show a password.
	body, _ := file.Body.(*hclsyntax.Body)
	if masked, spans := maskSecrets(src, body); spans != nil {
		file.Bytes = masked
		withholdSecrets(diags, spans)
	}
	files := map[string]*hcl.File{filename: file}
	content, cd := bodyContent(file.Body, rootSchema)
	tagRule(cd, RuleSyntax)
	diags = append(diags, cd...)

	p := &parser{vendors: newVendorSet(vendors.Names), creds: map[string]*Credentials{}}
	inv := &Inventory{Files: files}
	for _, b := range content.Blocks {
		if b.Type == "credentials" {
			diags = append(diags, p.credentials(b)...)
		}
	}
	seen := map[string]*Device{}
	for _, b := range content.Blocks {
		if b.Type != "device" {
			continue
		}
		d, ds := p.device(b)
		diags = append(diags, ds...)
		if d == nil {
			if inv.rejected == nil {
				inv.rejected = map[string]bool{}
			}
			inv.rejected[b.Labels[0]] = true
			continue
		}
		if prev, dup := seen[d.Name]; dup {
			diags = append(diags, diagnostic(RuleDuplicateDevice, "Duplicate device name", ptr(b.LabelRanges[0]), ptr(b.DefRange),
				"A device named %q was already declared at %s. Device names must be unique.", d.Name, prev.DeclRange))
			continue
		}
		seen[d.Name] = d
		inv.Devices = append(inv.Devices, d)
	}
	inv.index()
	var ends []linkRanges
	for _, b := range content.Blocks {
		if b.Type != "link" {
			continue
		}
		l, r, ds := p.link(b)
		diags = append(diags, ds...)
		if l != nil {
			inv.Links = append(inv.Links, l)
			ends = append(ends, r)
		}
	}
	diags = append(diags, checkLinks(inv, ends)...)
	inv.index()
	return inv, diags
}

// parser holds what decoding one file needs across blocks.
type parser struct {
	vendors vendorSet
	creds   map[string]*Credentials
	// expanded caches ExpandPorts by pattern: the devices of one model
	// mostly declare the same ranges. The cached names are shared, never
	// modified.
	expanded map[string]expansion
}

// expansion is one cached ExpandPorts result.
type expansion struct {
	names []string
	err   error
}

// expand is ExpandPorts through the parser's cache.
func (p *parser) expand(pattern string) ([]string, error) {
	if e, ok := p.expanded[pattern]; ok {
		return e.names, e.err
	}
	names, err := ExpandPorts(pattern)
	if p.expanded == nil {
		p.expanded = map[string]expansion{}
	}
	p.expanded[pattern] = expansion{names, err}
	return names, err
}

func (p *parser) credentials(b *hcl.Block) hcl.Diagnostics {
	name := b.Labels[0]
	c := &Credentials{Name: name, DeclRange: b.DefRange}
	content, diags := bodyContent(b.Body, credentialsSchema)
	tagRule(diags, RuleSyntax)
	if prev, dup := p.creds[name]; dup {
		return append(diags, diagnostic(RuleDuplicateCreds, "Duplicate credentials name", ptr(b.LabelRanges[0]), ptr(b.DefRange),
			"Credentials %q were already declared at %s. Credentials names must be unique.", name, prev.DeclRange))
	}
	if why := checkName(name); why != "" {
		diags = append(diags, diagnostic(RuleBadName, "Invalid credentials name", ptr(b.LabelRanges[0]), ptr(b.DefRange), "Credentials name %q: %s.", name, why))
	}
	str := func(attr string, dst *string) {
		if a, ok := content.Attributes[attr]; ok {
			v, ds := stringAttr(a, b.DefRange)
			diags = append(diags, ds...)
			*dst = v
		}
	}
	str("username_env", &c.UsernameEnv)
	str("password_env", &c.PasswordEnv)
	str("password_file", &c.PasswordFile)
	str("key_file", &c.KeyFile)
	str("known_hosts", &c.KnownHosts)
	str("tls_ca", &c.TLSCA)
	str("tls_cert", &c.TLSCert)
	str("tls_key", &c.TLSKey)
	if a, ok := content.Attributes["allow_literal_password"]; ok {
		v, ds := boolAttr(a, b.DefRange)
		diags = append(diags, ds...)
		c.AllowLiteralPassword = v
	}
	if a, ok := content.Attributes["password"]; ok {
		var pw string
		v, ds := bounded.Value(a.Expr, nil)
		if !ds.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
			pw = v.AsString()
		}
		// Never echo the value: the diagnostic names the attribute only.
		if !c.AllowLiteralPassword {
			diags = append(diags, diagnostic(RuleLiteralPassword, "Literal password in the inventory", ptr(a.Expr.Range()), ptr(b.DefRange),
				"Credentials %q hold a password in the file. Put it in an environment variable (password_env = \"NAME\") or a file (password_file = \"PATH\"); to keep it here anyway, for a lab, set allow_literal_password = true.", name))
		} else if pw == "" {
			diags = append(diags, diagnostic(RuleBadValue, "Invalid password", ptr(a.Expr.Range()), ptr(b.DefRange),
				"The password of credentials %q must be a non-empty string.", name))
		} else {
			c.Password = Secret(pw)
		}
	}
	p.creds[name] = c
	return diags
}

func (p *parser) device(b *hcl.Block) (*Device, hcl.Diagnostics) {
	name := b.Labels[0]
	d := &Device{Name: name, DeclRange: b.DefRange, Transport: TransportSSH}
	content, diags := bodyContent(b.Body, deviceSchema)
	tagRule(diags, RuleSyntax)
	ctx := b.DefRange
	bad := false
	if why := checkName(name); why != "" {
		diags = append(diags, diagnostic(RuleBadName, "Invalid device name", ptr(b.LabelRanges[0]), ptr(ctx), "Device name %q: %s.", name, why))
		bad = true
	}
	required := func(attr, what string) (*hcl.Attribute, bool) {
		a, ok := content.Attributes[attr]
		if !ok {
			ex := example(attr)
			if attr == "vendor" {
				ex = p.vendors.example()
			}
			diags = append(diags, diagnostic(RuleMissingAttribute, "Missing "+what, ptr(b.DefRange), nil,
				"Device %q has no %s: add %s = %s.", name, what, attr, ex))
		}
		return a, ok
	}
	if a, ok := required("vendor", "vendor"); ok {
		v, ds := stringAttr(a, ctx)
		diags = append(diags, ds...)
		d.Vendor, d.VendorRange = v, a.Expr.Range()
		if !ds.HasErrors() && !p.vendors.has(v) {
			diags = append(diags, diagnostic(RuleUnknownVendor, "Unknown vendor", ptr(a.Expr.Range()), ptr(ctx),
				"Vendor %q is not one lossless knows. Valid vendors: %s.", v, p.vendors))
			bad = true
		}
	} else {
		bad = true
	}
	if a, ok := required("platform", "platform"); ok {
		v, ds := stringAttr(a, ctx)
		diags = append(diags, ds...)
		d.Model, d.ModelRange = v, a.Expr.Range()
		if !ds.HasErrors() {
			if pl, ok := platform.Lookup(v); ok {
				d.Platform = pl
			} else {
				diags = append(diags, unknownPlatform(v, a.Expr.Range(), ctx))
			}
		}
	}
	if a, ok := required("address", "address"); ok {
		v, ds := stringAttr(a, ctx)
		diags = append(diags, ds...)
		d.Address = v
		if !ds.HasErrors() {
			if why := checkAddress(v); why != "" {
				diags = append(diags, diagnostic(RuleBadAddress, "Invalid management address", ptr(a.Expr.Range()), ptr(ctx),
					"Address %q of device %q is neither an IP address nor a host name: %s.", v, name, why))
			}
		}
	}
	if a, ok := content.Attributes["transport"]; ok {
		v, ds := stringAttr(a, ctx)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			if v != TransportSSH && v != TransportGNMI {
				diags = append(diags, diagnostic(RuleBadTransport, "Unknown transport", ptr(a.Expr.Range()), ptr(ctx),
					"Transport %q is not supported: use %q or %q.", v, TransportSSH, TransportGNMI))
			} else {
				d.Transport = v
			}
		}
	}
	if a, ok := content.Attributes["port"]; ok {
		n, ds := intAttr(a, ctx)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			if n < 1 || n > 65535 {
				diags = append(diags, diagnostic(RuleBadMgmtPort, "Management port out of range", ptr(a.Expr.Range()), ptr(ctx),
					"Port %d of device %q is not a TCP port: use 1–65535 (22 for SSH).", n, name))
			} else {
				d.Port = int(n)
			}
		}
	} else if d.Transport == TransportSSH {
		d.Port = DefaultSSHPort
	}
	for _, f := range []struct {
		attr string
		dst  *[]string
	}{{"roles", &d.Roles}, {"tags", &d.Tags}} {
		if a, ok := content.Attributes[f.attr]; ok {
			v, ds := stringListAttr(a, ctx)
			diags = append(diags, ds...)
			slices.Sort(v)
			*f.dst = slices.Compact(v)
		}
	}
	if a, ok := content.Attributes["credentials"]; ok {
		c, ds := p.credRef(a, ctx)
		diags = append(diags, ds...)
		d.Credentials = c
	}
	d.Ports, diags = p.devicePorts(name, content.Blocks, diags)
	if bad {
		return nil, diags
	}
	return d, diags
}

// devicePorts decodes a device's ports blocks and returns its ports in
// natural order. A port declared twice is reported once per offending
// block, on the block's label, and kept from its first declaration. It
// sorts instead of using a map: an inventory of 10,000 devices × 64 ports
// spends most of its decoding time here otherwise.
func (p *parser) devicePorts(device string, blocks hcl.Blocks, diags hcl.Diagnostics) ([]*Port, hcl.Diagnostics) {
	if len(blocks) == 1 {
		// One block whose ports are written in strictly increasing order
		// (the usual "Ethernet1/1-64"): sorting would change nothing and
		// there is no duplicate.
		ports, ds := p.portsBlock(blocks[0])
		diags = append(diags, ds...)
		if len(ports) > 0 && strictlySorted(ports) {
			return ports, diags
		}
		return sortPorts(device, blocks, [][]*Port{ports}, diags)
	}
	perBlock := make([][]*Port, len(blocks))
	for bi, pb := range blocks {
		ports, ds := p.portsBlock(pb)
		diags = append(diags, ds...)
		perBlock[bi] = ports
	}
	return sortPorts(device, blocks, perBlock, diags)
}

// sortPorts puts the ports of blocks (perBlock[i] declared by blocks[i])
// in natural order, reporting and dropping each name declared again.
func sortPorts(device string, blocks hcl.Blocks, perBlock [][]*Port, diags hcl.Diagnostics) ([]*Port, hcl.Diagnostics) {
	type tagged struct {
		port  *Port
		block int
	}
	var all []tagged
	for bi, ports := range perBlock {
		if all == nil {
			all = make([]tagged, 0, len(ports)*len(blocks))
		}
		for _, pt := range ports {
			all = append(all, tagged{pt, bi})
		}
	}
	// Stable: for equal names the first declared stays first.
	slices.SortStableFunc(all, func(a, b tagged) int { return ComparePorts(a.port.Name, b.port.Name) })
	out := make([]*Port, 0, len(all))
	var dups map[int][]string
	var firstAt map[int]hcl.Range
	kept := -1 // index in all of the port last kept
	for i, t := range all {
		if kept >= 0 && all[kept].port.Name == t.port.Name {
			if dups == nil {
				dups, firstAt = map[int][]string{}, map[int]hcl.Range{}
			}
			if len(dups[t.block]) == 0 {
				firstAt[t.block] = blocks[all[kept].block].LabelRanges[0]
			}
			dups[t.block] = append(dups[t.block], t.port.Name)
			continue
		}
		kept = i
		out = append(out, t.port)
	}
	for bi, pb := range blocks {
		names := dups[bi]
		if len(names) == 0 {
			continue
		}
		what := "Port " + quoteList(names) + " was"
		if len(names) > 1 {
			what = "Ports " + quoteList(names) + " were"
		}
		diags = append(diags, diagnostic(RuleDuplicatePort, "Duplicate port", ptr(pb.LabelRanges[0]), ptr(pb.DefRange),
			"%s already declared on device %q at %s. Each port is declared once.", what, device, firstAt[bi]))
	}
	return out, diags
}

// strictlySorted reports whether ports are in strictly increasing
// ComparePorts order.
func strictlySorted(ports []*Port) bool {
	for i := 1; i < len(ports); i++ {
		if ComparePorts(ports[i-1].Name, ports[i].Name) >= 0 {
			return false
		}
	}
	return true
}

// example gives an example value for a missing attribute.
func example(attr string) string {
	switch attr {
	case "platform":
		return `"N9K-C9364D-GX2A"`
	case "address":
		return `"192.0.2.11"`
	case "speed":
		return `"400G"`
	case "a", "b":
		return `"leaf1:Ethernet1/1"`
	}
	return `"…"`
}

// credRef resolves credentials = credentials.NAME.
func (p *parser) credRef(a *hcl.Attribute, ctx hcl.Range) (*Credentials, hcl.Diagnostics) {
	trav, ds := hcl.AbsTraversalForExpr(a.Expr)
	if ds.HasErrors() || len(trav) != 2 || trav.RootName() != "credentials" {
		return nil, hcl.Diagnostics{diagnostic(RuleBadValue, "Invalid credentials reference", ptr(a.Expr.Range()), ptr(ctx),
			"Refer to a credentials block by name, without quotes: credentials = credentials.NAME.")}
	}
	step, ok := trav[1].(hcl.TraverseAttr)
	if !ok {
		return nil, hcl.Diagnostics{diagnostic(RuleBadValue, "Invalid credentials reference", ptr(a.Expr.Range()), ptr(ctx),
			"Refer to a credentials block by name: credentials = credentials.NAME.")}
	}
	c, ok := p.creds[step.Name]
	if !ok {
		names := make([]string, 0, len(p.creds))
		for n := range p.creds {
			names = append(names, n)
		}
		slices.Sort(names)
		return nil, hcl.Diagnostics{diagnostic(RuleUnknownCreds, "Unknown credentials", ptr(a.Expr.Range()), ptr(ctx),
			"No credentials block is named %q. Declared credentials: %s.", step.Name, quoteList(names))}
	}
	return c, nil
}

// portsBlock decodes one ports "RANGE" { speed, cable } block.
func (p *parser) portsBlock(b *hcl.Block) ([]*Port, hcl.Diagnostics) {
	content, diags := bodyContent(b.Body, portsSchema)
	tagRule(diags, RuleSyntax)
	names, err := p.expand(b.Labels[0])
	if err != nil {
		reason := err.Error()
		if pe, ok := err.(*PortPatternError); ok {
			reason = pe.Reason
		}
		diags = append(diags, diagnostic(RuleBadPortRange, "Invalid port range", ptr(b.LabelRanges[0]), ptr(b.DefRange),
			"Port range %q does not expand: %s. Write a name, a range such as \"Ethernet1/1-32\", a stepped range such as \"Ethernet0-124 step 4\", or a comma-separated list of them.", b.Labels[0], reason))
	}
	var speed units.BitRate
	var cable units.Length
	if a, ok := content.Attributes["speed"]; ok {
		s, ds := quantityAttr(a, b.DefRange, "G", "speed", func(s string) error { v, err := units.ParseBitRate(s); speed = v; return err })
		diags = append(diags, ds...)
		if !ds.HasErrors() && speed <= 0 {
			diags = append(diags, diagnostic(RuleBadValue, "Invalid speed", ptr(a.Expr.Range()), ptr(b.DefRange), "Speed %q must be positive.", s))
		}
	} else {
		diags = append(diags, diagnostic(RuleMissingAttribute, "Missing speed", ptr(b.DefRange), nil,
			"Ports %q have no speed: add speed = \"400G\" (the headroom depends on it).", b.Labels[0]))
	}
	if a, ok := content.Attributes["cable"]; ok {
		_, ds := quantityAttr(a, b.DefRange, "m", "cable length", func(s string) error { v, err := units.ParseLength(s); cable = v; return err })
		diags = append(diags, ds...)
	}
	if err != nil || diags.HasErrors() {
		return nil, diags
	}
	// One allocation for the block's ports; the pointers stay valid.
	backing := make([]Port, len(names))
	ports := make([]*Port, len(names))
	for i, n := range names {
		backing[i] = Port{Name: n, Speed: speed, Cable: cable, DeclRange: b.DefRange}
		ports[i] = &backing[i]
	}
	return ports, diags
}

// link decodes link { a = "dev:port" b = "dev:port" }.
func (p *parser) link(b *hcl.Block) (*Link, linkRanges, hcl.Diagnostics) {
	content, diags := bodyContent(b.Body, linkSchema)
	tagRule(diags, RuleSyntax)
	l := &Link{DeclRange: b.DefRange}
	var r linkRanges
	ok := true
	for _, e := range []struct {
		attr string
		ep   *Endpoint
		rng  *hcl.Range
	}{{"a", &l.A, &r.a}, {"b", &l.B, &r.b}} {
		a, has := content.Attributes[e.attr]
		if !has {
			diags = append(diags, diagnostic(RuleMissingAttribute, "Missing link end", ptr(b.DefRange), nil,
				"This link has no %s: add %s = %s.", e.attr, e.attr, example(e.attr)))
			ok = false
			continue
		}
		v, ds := stringAttr(a, b.DefRange)
		diags = append(diags, ds...)
		if ds.HasErrors() {
			ok = false
			continue
		}
		*e.rng = a.Expr.Range()
		ep, good := parseEndpoint(v)
		if !good {
			diags = append(diags, diagnostic(RuleBadEndpoint, "Invalid link end", ptr(a.Expr.Range()), ptr(b.DefRange),
				"Link end %q must be written \"device:port\", for example \"leaf1:Ethernet1/1\".", v))
			ok = false
			continue
		}
		*e.ep = ep
	}
	if !ok {
		return nil, r, diags
	}
	return l, r, diags
}

// parseEndpoint splits "device:port".
func parseEndpoint(s string) (Endpoint, bool) {
	dev, port, ok := strings.Cut(s, ":")
	if !ok || dev == "" || port == "" || strings.ContainsAny(s, " \t") || strings.Contains(port, ":") {
		return Endpoint{}, false
	}
	return Endpoint{Device: dev, Port: port}, true
}

// value evaluates an attribute expression without variables. A quoted
// string without interpolation, the usual inventory value, is read from
// the syntax tree: evaluating its template gives that same string, only
// at the cost of the template machinery.
func value(expr hcl.Expression) (cty.Value, hcl.Diagnostics) {
	if s, ok := literalString(expr); ok {
		return cty.StringVal(s), nil
	}
	return bounded.Value(expr, nil)
}

// literalString returns the string of a quoted string expression without
// interpolation.
func literalString(expr hcl.Expression) (string, bool) {
	t, ok := expr.(*hclsyntax.TemplateExpr)
	if !ok || len(t.Parts) != 1 {
		return "", false
	}
	l, ok := t.Parts[0].(*hclsyntax.LiteralValueExpr)
	if !ok || l.Val.Type() != cty.String || l.Val.IsNull() || !l.Val.IsKnown() || l.Val.IsMarked() {
		return "", false
	}
	return l.Val.AsString(), true
}

// stringAttr evaluates a literal string attribute.
func stringAttr(a *hcl.Attribute, ctx hcl.Range) (string, hcl.Diagnostics) {
	if s, ok := literalString(a.Expr); ok {
		return s, nil
	}
	v, diags := bounded.Value(a.Expr, nil)
	tagRule(diags, RuleBadValue)
	if diags.HasErrors() {
		return "", diags
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", hcl.Diagnostics{diagnostic(RuleBadValue, "Invalid value", ptr(a.Expr.Range()), ptr(ctx),
			"%s must be a string in quotes.", upperFirst(a.Name))}
	}
	return v.AsString(), nil
}

// boolAttr evaluates a literal bool attribute.
func boolAttr(a *hcl.Attribute, ctx hcl.Range) (bool, hcl.Diagnostics) {
	v, diags := bounded.Value(a.Expr, nil)
	tagRule(diags, RuleBadValue)
	if diags.HasErrors() {
		return false, diags
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.Bool {
		return false, hcl.Diagnostics{diagnostic(RuleBadValue, "Invalid value", ptr(a.Expr.Range()), ptr(ctx),
			"%s must be true or false.", upperFirst(a.Name))}
	}
	return v.True(), nil
}

// intAttr evaluates a literal whole-number attribute.
func intAttr(a *hcl.Attribute, ctx hcl.Range) (int64, hcl.Diagnostics) {
	v, diags := bounded.Value(a.Expr, nil)
	tagRule(diags, RuleBadValue)
	if diags.HasErrors() {
		return 0, diags
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.Number {
		return 0, hcl.Diagnostics{diagnostic(RuleBadValue, "Invalid value", ptr(a.Expr.Range()), ptr(ctx),
			"%s must be a whole number without quotes.", upperFirst(a.Name))}
	}
	bf := v.AsBigFloat()
	n, acc := bf.Int64()
	if acc != big.Exact || !bf.IsInt() {
		return 0, hcl.Diagnostics{diagnostic(RuleBadValue, "Invalid value", ptr(a.Expr.Range()), ptr(ctx),
			"%s must be a whole number.", upperFirst(a.Name))}
	}
	return n, nil
}

// stringListAttr evaluates a list of literal strings.
func stringListAttr(a *hcl.Attribute, ctx hcl.Range) ([]string, hcl.Diagnostics) {
	if out, ok := literalStrings(a.Expr); ok {
		return out, nil
	}
	v, diags := bounded.Value(a.Expr, nil)
	tagRule(diags, RuleBadValue)
	if diags.HasErrors() {
		return nil, diags
	}
	bad := hcl.Diagnostics{diagnostic(RuleBadValue, "Invalid value", ptr(a.Expr.Range()), ptr(ctx),
		"%s must be a list of strings, for example [\"leaf\"].", upperFirst(a.Name))}
	if v.IsNull() || !v.IsKnown() || !(v.Type().IsTupleType() || v.Type().IsListType()) {
		return nil, bad
	}
	var out []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e.IsNull() || !e.IsKnown() || e.Type() != cty.String || e.AsString() == "" {
			return nil, bad
		}
		out = append(out, e.AsString())
	}
	return out, nil
}

// literalStrings returns the strings of a bracketed list of non-empty
// quoted strings without interpolation (["leaf", "pod1"]), which is what
// evaluating it gives; false for anything else, to be evaluated.
func literalStrings(expr hcl.Expression) ([]string, bool) {
	t, ok := expr.(*hclsyntax.TupleConsExpr)
	if !ok || len(t.Exprs) == 0 {
		return nil, false
	}
	out := make([]string, len(t.Exprs))
	for i, e := range t.Exprs {
		s, ok := literalString(e)
		if !ok || s == "" {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// quantityAttr evaluates a unit-suffixed string ("400G", "3m") with parse.
// A bare number, quoted or not, is LL111 with the unit suggested.
func quantityAttr(a *hcl.Attribute, ctx hcl.Range, unit, what string, parse func(string) error) (string, hcl.Diagnostics) {
	v, diags := value(a.Expr)
	tagRule(diags, RuleBadValue)
	if diags.HasErrors() {
		return "", diags
	}
	if !v.IsNull() && v.IsKnown() && v.Type() == cty.Number {
		n := v.AsBigFloat().Text('f', -1)
		return "", hcl.Diagnostics{diagnostic(RuleMissingUnit, "Missing unit", ptr(a.Expr.Range()), ptr(ctx),
			"The %s %s has no unit. Write it as a string with its unit: %s = \"%s%s\".", what, n, a.Name, n, unit)}
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return "", hcl.Diagnostics{diagnostic(RuleBadValue, "Invalid value", ptr(a.Expr.Range()), ptr(ctx),
			"The %s must be a string with a unit, for example \"%s\".", what, "1"+unit)}
	}
	s := v.AsString()
	if err := parse(s); err != nil {
		if errors.Is(err, units.ErrNoUnit) {
			return s, hcl.Diagnostics{diagnostic(RuleMissingUnit, "Missing unit", ptr(a.Expr.Range()), ptr(ctx),
				"The %s %q has no unit. Write it as %s = \"%s%s\".", what, s, a.Name, strings.TrimSpace(s), unit)}
		}
		return s, hcl.Diagnostics{diagnostic(RuleBadValue, "Invalid "+what, ptr(a.Expr.Range()), ptr(ctx), "%s.", upperFirst(err.Error()))}
	}
	return s, nil
}

// tagRule gives every diagnostic without a rule the rule r.
func tagRule(diags hcl.Diagnostics, r any) {
	for _, d := range diags {
		if d.Extra == nil {
			d.Extra = r
		}
	}
}

// upperFirst capitalises the first letter, for errors used as sentences.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
