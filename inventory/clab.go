package inventory

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"gopkg.in/yaml.v3"

	"github.com/lossless-net/lossless/intent/bounded"
	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/units"
)

// Containerlab import.
//
// A containerlab topology (https://containerlab.dev/manual/topo-def-file)
// names nodes with a kind, a management address and labels, and links as
// pairs of "node:interface" endpoints. lossless reads:
//
//	topology.nodes.NAME.kind          the vendor, by the caller's kinds (below)
//	topology.nodes.NAME.mgmt-ipv4     the management address (else mgmt-ipv6,
//	                                  else the container name containerlab
//	                                  puts in /etc/hosts: clab-LAB-NAME)
//	topology.nodes.NAME.labels        lossless.* labels, below
//	topology.kinds.KIND.labels        labels for every node of a kind
//	topology.defaults.{kind,labels}   defaults for every node
//	topology.links[].endpoints        ["a:eth1", "b:eth2"] or
//	                                  [{node: a, interface: eth1}, …]
//
// Labels (node over kind over defaults):
//
//	lossless.platform     the platform catalog model (required)
//	lossless.roles        comma-separated roles ("leaf")
//	lossless.tags         comma-separated tags
//	lossless.speed        speed of every linked port ("100G"; required)
//	lossless.cable        cable length of every linked port ("3m")
//	lossless.transport    "ssh" (default) or "gnmi"
//	lossless.port         management TCP port
//	lossless.port-format  printf format naming data port N, e.g. "25GE1/0/%d"
//
// Every interface of a managed node that appears in a link becomes a port.
// Interfaces named ethN (N ≥ 1, eth0 is management) are renamed to the
// switch's own names, by the PortNaming of the node's kind (the caller's
// Vendors.Containerlab, which the vendor registry fills: each vendor lists
// its containerlab kinds and port naming in its own package); any other
// name is taken as already the switch's name (containerlab accepts
// interface aliases). The label lossless.port-format replaces the kind's
// naming for one node: ethN becomes the format with N.
//
// Nodes of kinds that are not switches (linux, bridge, ovs-bridge, host,
// ext-container) are ignored, and so are links to them, but the switch's
// port still counts. Other kinds get a warning (LL121).

// clabHostKinds are kinds that are not switches and are skipped quietly.
var clabHostKinds = []string{"bridge", "ext-container", "host", "linux", "ovs-bridge"}

// yamlDoc maps YAML node positions to hcl ranges.
type yamlDoc struct {
	filename string
	src      []byte
	lines    []int // byte offset of each line start
}

func newYAMLDoc(filename string, src []byte) *yamlDoc {
	d := &yamlDoc{filename: filename, src: src, lines: []int{0}}
	for i, c := range src {
		if c == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
	return d
}

// pos converts a 1-based line and column into an hcl.Pos, clamped to the
// source: a line past the end is the last line, a column past the end of
// its line is the line's end.
func (d *yamlDoc) pos(line, col int) hcl.Pos {
	line = min(max(line, 1), len(d.lines))
	start := d.lines[line-1]
	end := len(d.src)
	if line < len(d.lines) {
		end = d.lines[line] - 1
	}
	b := min(start+max(col, 1)-1, end)
	return hcl.Pos{Line: line, Column: b - start + 1, Byte: b}
}

// rng is the range of a YAML node: a scalar's text on its line, or one
// character at the start of a collection.
func (d *yamlDoc) rng(n *yaml.Node) hcl.Range {
	if n == nil {
		return hcl.Range{Filename: d.filename, Start: d.pos(1, 1), End: d.pos(1, 2)}
	}
	width := 1
	if n.Kind == yaml.ScalarNode {
		width = max(len(n.Value), 1)
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			width += 2
		}
	}
	return hcl.Range{Filename: d.filename, Start: d.pos(n.Line, n.Column), End: d.pos(n.Line, n.Column+width)}
}

// mapGet returns the key and value nodes of key in mapping m.
func mapGet(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// ParseContainerlab decodes a containerlab topology; see Load and the
// description above.
func ParseContainerlab(src []byte, filename string, vendors Vendors) (*Inventory, hcl.Diagnostics) {
	var budget bounded.Budget
	if d := budget.ScanYAML(src, filename); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	doc := newYAMLDoc(filename, src)
	inv := &Inventory{Files: map[string]*hcl.File{filename: {Bytes: src}}}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		line := 1
		fmt.Sscanf(strings.TrimPrefix(err.Error(), "yaml: line "), "%d", &line)
		r := hcl.Range{Filename: filename, Start: doc.pos(line, 1), End: doc.pos(line, 2)}
		return nil, hcl.Diagnostics{diagnostic(RuleClabTopology, "Invalid containerlab topology", &r, nil,
			"The file is not valid YAML: %s.", strings.TrimPrefix(err.Error(), "yaml: "))}
	}
	var diags hcl.Diagnostics
	top := &root
	if top.Kind == yaml.DocumentNode && len(top.Content) == 1 {
		top = top.Content[0]
	}
	bad := func(n *yaml.Node, format string, args ...any) {
		diags = append(diags, diagnostic(RuleClabTopology, "Invalid containerlab topology", ptr(doc.rng(n)), nil, format, args...))
	}
	if top.Kind != yaml.MappingNode {
		bad(top, "A containerlab topology is a YAML mapping with name and topology keys.")
		return nil, diags
	}
	labName := ""
	if _, v := mapGet(top, "name"); v != nil && v.Kind == yaml.ScalarNode {
		labName = v.Value
	}
	prefix := "clab"
	if _, v := mapGet(top, "prefix"); v != nil && v.Kind == yaml.ScalarNode {
		prefix = v.Value
	}
	_, topo := mapGet(top, "topology")
	if topo == nil || topo.Kind != yaml.MappingNode {
		bad(top, "The file has no topology mapping: containerlab topologies list their nodes under topology.nodes.")
		return nil, diags
	}
	_, defaults := mapGet(topo, "defaults")
	_, kinds := mapGet(topo, "kinds")
	_, nodes := mapGet(topo, "nodes")
	if nodes == nil || nodes.Kind != yaml.MappingNode {
		bad(topo, "The topology has no nodes mapping.")
		return nil, diags
	}
	vs := newVendorSet(vendors.Names)
	type nodeInfo struct {
		dev   *Device
		ports PortNaming
		speed units.BitRate
		cable units.Length
		key   *yaml.Node
	}
	managed := map[string]*nodeInfo{}
	known := map[string]bool{}
	for i := 0; i+1 < len(nodes.Content); i += 2 {
		key, n := nodes.Content[i], nodes.Content[i+1]
		name := key.Value
		known[name] = true
		if n.Kind != yaml.MappingNode && !(n.Kind == yaml.ScalarNode && n.Tag == "!!null") {
			bad(n, "Node %q must be a mapping with at least a kind.", name)
			continue
		}
		_, kindNode := mapGet(n, "kind")
		if kindNode == nil {
			_, kindNode = mapGet(defaults, "kind")
		}
		if kindNode == nil || kindNode.Kind != yaml.ScalarNode || kindNode.Value == "" {
			bad(key, "Node %q has no kind, and topology.defaults gives none.", name)
			continue
		}
		kname := kindNode.Value
		if slices.Contains(clabHostKinds, kname) {
			continue
		}
		ck, ok := vendors.Containerlab[kname]
		if !ok {
			d := diagnostic(RuleClabKind, "Node kind not managed", ptr(doc.rng(kindNode)), ptr(doc.rng(key)),
				"Node %q has kind %q, which lossless does not manage; it is left out. Managed kinds: %s.", name, kname, quoteList(vendors.containerlabKinds()))
			d.Severity = hcl.DiagWarning
			diags = append(diags, d)
			continue
		}
		ctx := doc.rng(key)
		if why := checkName(name); why != "" {
			diags = append(diags, diagnostic(RuleBadName, "Invalid device name", ptr(ctx), nil, "Node name %q: %s.", name, why))
			continue
		}
		if !vs.has(ck.Vendor) {
			diags = append(diags, diagnostic(RuleUnknownVendor, "Unknown vendor", ptr(doc.rng(kindNode)), ptr(ctx),
				"Kind %q maps to vendor %q, which is not among the valid vendors %s.", kname, ck.Vendor, vs))
			continue
		}
		labels := map[string]*yaml.Node{}
		collect := func(m *yaml.Node) {
			_, l := mapGet(m, "labels")
			if l == nil || l.Kind != yaml.MappingNode {
				return
			}
			for j := 0; j+1 < len(l.Content); j += 2 {
				labels[l.Content[j].Value] = l.Content[j+1]
			}
		}
		collect(defaults)
		_, kindDefaults := mapGet(kinds, kname)
		collect(kindDefaults)
		collect(n)
		label := func(k string) (*yaml.Node, string) {
			v := labels[k]
			if v == nil || v.Kind != yaml.ScalarNode {
				return v, ""
			}
			return v, strings.TrimSpace(v.Value)
		}
		dev := &Device{Name: name, Vendor: ck.Vendor, Transport: TransportSSH, DeclRange: ctx, VendorRange: doc.rng(kindNode)}
		info := &nodeInfo{dev: dev, ports: ck.Ports, key: key}
		okDev := true
		if v, s := label("lossless.platform"); s == "" {
			diags = append(diags, diagnostic(RuleMissingAttribute, "Missing platform", ptr(ctx), nil,
				"Node %q has no platform: add the label lossless.platform: %s.", name, strings.Trim(example("platform"), `"`)))
		} else {
			dev.Model, dev.ModelRange = s, doc.rng(v)
			if p, ok := platform.Lookup(s); ok {
				dev.Platform = p
			} else {
				diags = append(diags, unknownPlatform(s, doc.rng(v), ctx))
			}
		}
		if _, v := mapGet(n, "mgmt-ipv4"); v != nil && v.Value != "" {
			dev.Address = v.Value
			if why := checkAddress(v.Value); why != "" {
				diags = append(diags, diagnostic(RuleBadAddress, "Invalid management address", ptr(doc.rng(v)), ptr(ctx),
					"Address %q of node %q is not an IP address: %s.", v.Value, name, why))
			}
		} else if _, v := mapGet(n, "mgmt-ipv6"); v != nil && v.Value != "" {
			dev.Address = v.Value
			if why := checkAddress(v.Value); why != "" {
				diags = append(diags, diagnostic(RuleBadAddress, "Invalid management address", ptr(doc.rng(v)), ptr(ctx),
					"Address %q of node %q is not an IP address: %s.", v.Value, name, why))
			}
		} else {
			dev.Address = containerName(prefix, labName, name)
		}
		if v, s := label("lossless.transport"); s != "" {
			if s != TransportSSH && s != TransportGNMI {
				diags = append(diags, diagnostic(RuleBadTransport, "Unknown transport", ptr(doc.rng(v)), ptr(ctx),
					"Transport %q is not supported: use %q or %q.", s, TransportSSH, TransportGNMI))
			} else {
				dev.Transport = s
			}
		}
		if v, s := label("lossless.port"); s != "" {
			p, err := strconv.Atoi(s)
			if err != nil || p < 1 || p > 65535 {
				diags = append(diags, diagnostic(RuleBadMgmtPort, "Management port out of range", ptr(doc.rng(v)), ptr(ctx),
					"Port %q of node %q is not a TCP port: use 1–65535.", s, name))
			} else {
				dev.Port = p
			}
		}
		if dev.Port == 0 && dev.Transport == TransportSSH {
			dev.Port = DefaultSSHPort
		}
		if _, s := label("lossless.roles"); s != "" {
			dev.Roles = splitList(s)
		}
		if _, s := label("lossless.tags"); s != "" {
			dev.Tags = splitList(s)
		}
		if v, s := label("lossless.speed"); s != "" {
			r, err := units.ParseBitRate(s)
			switch {
			case errors.Is(err, units.ErrNoUnit):
				diags = append(diags, diagnostic(RuleMissingUnit, "Missing unit", ptr(doc.rng(v)), ptr(ctx),
					"The speed %q has no unit. Write it as lossless.speed: %sG.", s, s))
				okDev = false
			case err != nil || r <= 0:
				diags = append(diags, diagnostic(RuleBadValue, "Invalid speed", ptr(doc.rng(v)), ptr(ctx), "Speed %q: write it like 100G.", s))
				okDev = false
			default:
				info.speed = r
			}
		}
		if v, s := label("lossless.cable"); s != "" {
			l, err := units.ParseLength(s)
			switch {
			case errors.Is(err, units.ErrNoUnit):
				diags = append(diags, diagnostic(RuleMissingUnit, "Missing unit", ptr(doc.rng(v)), ptr(ctx),
					"The cable length %q has no unit. Write it as lossless.cable: %sm.", s, s))
				okDev = false
			case err != nil:
				diags = append(diags, diagnostic(RuleBadValue, "Invalid cable length", ptr(doc.rng(v)), ptr(ctx), "Cable length %q: write it like 3m.", s))
				okDev = false
			default:
				info.cable = l
			}
		}
		if v, s := label("lossless.port-format"); s != "" {
			if strings.Count(s, "%d") != 1 || strings.Count(s, "%") != 1 {
				diags = append(diags, diagnostic(RuleBadValue, "Invalid port format", ptr(doc.rng(v)), ptr(ctx),
					"lossless.port-format %q must contain %%d exactly once, for example \"25GE1/0/%%d\".", s))
				okDev = false
			} else {
				info.ports = PortNaming{Format: s, Stride: 1, First: 1}
			}
		}
		if !okDev {
			continue
		}
		managed[name] = info
		inv.Devices = append(inv.Devices, dev)
	}

	// Links: ports come from them.
	_, links := mapGet(topo, "links")
	portSeen := map[Endpoint]hcl.Range{}
	if links != nil && links.Kind == yaml.SequenceNode {
		for _, ln := range links.Content {
			_, eps := mapGet(ln, "endpoints")
			if eps == nil || eps.Kind != yaml.SequenceNode || len(eps.Content) != 2 {
				bad(ln, "A link needs endpoints: a list of two \"node:interface\" strings.")
				continue
			}
			var pair [2]Endpoint
			var rngs [2]hcl.Range
			var isManaged [2]bool
			skip := false
			for k, ep := range eps.Content {
				nodeName, ifName, r, ok := clabEndpoint(doc, ep)
				rngs[k] = r
				if !ok {
					diags = append(diags, diagnostic(RuleBadEndpoint, "Invalid link end", ptr(r), nil,
						"A link end is written \"node:interface\" (for example \"leaf1:eth1\") or {node: leaf1, interface: eth1}."))
					skip = true
					continue
				}
				info := managed[nodeName]
				if info == nil {
					if !known[nodeName] && !isSpecialNode(nodeName) {
						diags = append(diags, diagnostic(RuleLinkUnknownDevice, "Link to an unknown device", ptr(r), nil,
							"No node is named %q in topology.nodes.", nodeName))
						skip = true
					}
					pair[k] = Endpoint{Device: nodeName, Port: ifName}
					continue
				}
				port, why := clabPortName(info.ports, ifName)
				if why != "" {
					diags = append(diags, diagnostic(RuleClabInterface, "Unmappable interface", ptr(r), nil,
						"Interface %q of node %q: %s.", ifName, nodeName, why))
					skip = true
					continue
				}
				pair[k] = Endpoint{Device: nodeName, Port: port}
				isManaged[k] = true
				if prev, dup := portSeen[pair[k]]; dup {
					diags = append(diags, diagnostic(RulePortInTwoLinks, "Port in two links", ptr(r), nil,
						"Port %q is already linked at %s. A port has one peer.", pair[k].String(), prev))
					skip = true
					continue
				}
				portSeen[pair[k]] = r
				if info.speed == 0 {
					diags = append(diags, diagnostic(RuleMissingAttribute, "Missing speed", ptr(info.dev.DeclRange), nil,
						"Node %q has linked ports but no speed: add the label lossless.speed: 100G.", nodeName))
					info.speed = -1 // report once
				}
				if info.speed > 0 {
					info.dev.Ports = append(info.dev.Ports, &Port{Name: port, Speed: info.speed, Cable: info.cable, DeclRange: r})
				}
			}
			if skip || !isManaged[0] || !isManaged[1] {
				continue
			}
			if pair[0] == pair[1] {
				diags = append(diags, diagnostic(RuleSelfLink, "Link to itself", ptr(rngs[1]), ptr(doc.rng(ln)),
					"Both ends of this link are %q.", pair[0].String()))
				continue
			}
			inv.Links = append(inv.Links, &Link{A: pair[0], B: pair[1], DeclRange: doc.rng(ln)})
		}
	} else if links != nil && !(links.Kind == yaml.ScalarNode && links.Tag == "!!null") {
		bad(links, "topology.links must be a list.")
	}
	for _, d := range inv.Devices {
		slices.SortFunc(d.Ports, func(a, b *Port) int { return ComparePorts(a.Name, b.Name) })
	}
	inv.index()
	return inv, diags
}

// containerName is the host name containerlab gives a node's container.
func containerName(prefix, lab, node string) string {
	switch prefix {
	case "":
		return node
	case "__lab-name":
		return lab + "-" + node
	}
	return prefix + "-" + lab + "-" + node
}

// isSpecialNode reports containerlab's pseudo-nodes in link endpoints.
func isSpecialNode(n string) bool {
	return n == "host" || n == "mgmt-net" || n == "macvlan"
}

// clabEndpoint reads one endpoint, "node:iface" or {node:, interface:}.
func clabEndpoint(doc *yamlDoc, ep *yaml.Node) (node, iface string, r hcl.Range, ok bool) {
	r = doc.rng(ep)
	switch ep.Kind {
	case yaml.ScalarNode:
		node, iface, ok = strings.Cut(ep.Value, ":")
		return node, iface, r, ok && node != "" && iface != "" && !strings.Contains(iface, ":")
	case yaml.MappingNode:
		_, n := mapGet(ep, "node")
		_, i := mapGet(ep, "interface")
		if n == nil || i == nil || n.Value == "" || i.Value == "" {
			return "", "", r, false
		}
		return n.Value, i.Value, r, true
	}
	return "", "", r, false
}

// clabPortName maps a containerlab interface name to the switch's name.
func clabPortName(ports PortNaming, iface string) (string, string) {
	num, isEth := strings.CutPrefix(iface, "eth")
	if !isEth {
		if _, err := ExpandPorts(iface); err != nil || strings.Contains(iface, ",") {
			return "", "it is neither ethN nor a switch port name"
		}
		return iface, ""
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || n > 4096 {
		return "", "containerlab data interfaces are eth1, eth2, …"
	}
	if n == 0 {
		return "", "eth0 is the management interface, not a data port"
	}
	return ports.Name(n), ""
}

// splitList splits a comma-separated label value, sorted and unique.
func splitList(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
