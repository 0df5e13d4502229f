package intent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/lossless-net/lossless/intent/bounded"
)

// DefaultInventoryFile is the inventory's file name inside an intent
// directory; Load skips it because it is not part of the intent.
const DefaultInventoryFile = "inventory.hcl"

// Option changes how Load reads a directory.
type Option func(*loadOptions)

type loadOptions struct {
	skip []string
}

// SkipFile makes Load ignore the file at path (an inventory kept in the
// intent directory under another name). The default inventory file name is
// always skipped.
func SkipFile(path string) Option {
	return func(o *loadOptions) { o.skip = append(o.skip, path) }
}

var topSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "qos_profile", LabelNames: []string{"name"}},
		{Type: "buffer_profile", LabelNames: []string{"name"}},
		{Type: "port_group", LabelNames: []string{"name"}},
		{Type: "assign", LabelNames: []string{"name"}},
		{Type: "rollout"},
	},
}

// Load reads every *.hcl file of dir (except the inventory and the
// varFiles) as one intent module. vars are -var NAME=VALUE assignments; varFiles are -var-file
// paths, applied in order before vars. It returns what it could decode
// together with every diagnostic; the Fabric is nil only when dir cannot be
// read.
func Load(dir string, vars map[string]string, varFiles []string, opts ...Option) (*Fabric, hcl.Diagnostics) {
	var o loadOptions
	for _, opt := range opts {
		opt(&o)
	}
	// A -var-file kept in the intent directory is not intent.
	names, err := intentFiles(dir, append(o.skip, varFiles...))
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the intent directory", Detail: err.Error()}}
	}
	if len(names) == 0 {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "No intent files",
			Detail: fmt.Sprintf("The directory %s holds no *.hcl intent file besides the inventory. Write the qos_profile, buffer_profile and assign blocks in a *.hcl file there.", dir)}}
	}
	srcs := newSources()
	var diags hcl.Diagnostics
	var bodies []hcl.Body
	for _, name := range names {
		f, d := srcs.parseFile(name, false)
		diags = append(diags, d...)
		if f != nil {
			bodies = append(bodies, f.Body)
		}
	}
	if diags.HasErrors() {
		return syntaxOnly(srcs), diags
	}
	fab, d := loadBodies(srcs, bodies, vars, varFiles)
	diags = append(diags, d...)
	return fab, diags
}

// syntaxOnly is the Fabric of a module with syntax errors: its files, for
// snippets, and nothing else. Decoding half-parsed files would only add
// errors that fixing the syntax removes, so Resolve skips it.
func syntaxOnly(srcs *sources) *Fabric {
	return &Fabric{Files: srcs.files, broken: true}
}

// sources reads and parses the files of one load (the intent's files,
// its -var-file files and -var values) within the limits of package
// bounded, all charged to one budget, and keeps every file for snippets.
type sources struct {
	budget bounded.Budget
	files  map[string]*hcl.File
	fns    map[string]function.Function
}

func newSources() *sources {
	s := &sources{files: map[string]*hcl.File{}}
	s.fns = s.budget.Functions(functions())
	return s
}

// parseFile reads and parses the file at path, as HCL or, with json, as
// JSON. A file read before is not parsed again.
func (s *sources) parseFile(path string, json bool) (*hcl.File, hcl.Diagnostics) {
	if f := s.files[path]; f != nil {
		return f, nil
	}
	src, err := bounded.ReadFile(path)
	if err != nil {
		var se *bounded.SizeError
		if errors.As(err, &se) {
			s.files[path] = &hcl.File{Bytes: se.Head}
			return nil, hcl.Diagnostics{se.Diagnostic()}
		}
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to read file",
			Detail: fmt.Sprintf("The configuration file %q could not be read.", path)}}
	}
	return s.parse(src, path, json)
}

// parse parses src, named name in diagnostics.
func (s *sources) parse(src []byte, name string, json bool) (*hcl.File, hcl.Diagnostics) {
	parse := s.budget.Parse
	if json {
		parse = s.budget.ParseJSON
	}
	f, diags := parse(src, name)
	s.files[name] = f
	return f, diags
}

// LoadSources is Load over in-memory sources keyed by filename, for tests,
// fuzzing and generated fabrics.
func LoadSources(src map[string][]byte, vars map[string]string) (*Fabric, hcl.Diagnostics) {
	srcs := newSources()
	names := make([]string, 0, len(src))
	for n := range src {
		names = append(names, n)
	}
	sort.Strings(names)
	var diags hcl.Diagnostics
	var bodies []hcl.Body
	for _, n := range names {
		f, d := srcs.parse(src[n], n, false)
		diags = append(diags, d...)
		if f != nil {
			bodies = append(bodies, f.Body)
		}
	}
	if diags.HasErrors() {
		return syntaxOnly(srcs), diags
	}
	fab, d := loadBodies(srcs, bodies, vars, nil)
	return fab, append(diags, d...)
}

func intentFiles(dir string, skip []string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read intent %s: %w", dir, err)
	}
	skipAbs := map[string]bool{}
	for _, s := range skip {
		if a, err := filepath.Abs(s); err == nil {
			skipAbs[a] = true
		}
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".hcl") || n == DefaultInventoryFile || strings.HasPrefix(n, ".") {
			continue
		}
		p := filepath.Join(dir, n)
		if a, err := filepath.Abs(p); err == nil && skipAbs[a] {
			continue
		}
		names = append(names, p)
	}
	sort.Strings(names)
	return names, nil
}

// loadBodies decodes the parsed files of one module.
func loadBodies(srcs *sources, bodies []hcl.Body, vars map[string]string, varFiles []string) (*Fabric, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	fab := &Fabric{
		QoSProfiles:    map[string]*Profile{},
		BufferProfiles: map[string]*Profile{},
		PortGroups:     map[string]*PortGroup{},
		Files:          srcs.files,
	}
	var (
		varBlocks    []*hcl.Block
		localsBlocks []*hcl.Block
		qosBlocks    []*hcl.Block
		bufBlocks    []*hcl.Block
		groupBlocks  []*hcl.Block
		assignBlocks []*hcl.Block
		rollouts     []*hcl.Block
	)
	for _, body := range bodies {
		content, d := body.Content(topSchema)
		diags = append(diags, d...)
		for _, b := range content.Blocks {
			switch b.Type {
			case "variable":
				varBlocks = append(varBlocks, b)
			case "locals":
				localsBlocks = append(localsBlocks, b)
			case "qos_profile":
				qosBlocks = append(qosBlocks, b)
			case "buffer_profile":
				bufBlocks = append(bufBlocks, b)
			case "port_group":
				groupBlocks = append(groupBlocks, b)
			case "assign":
				assignBlocks = append(assignBlocks, b)
			case "rollout":
				rollouts = append(rollouts, b)
			default:
				// Content rejected every other block type already.
			}
		}
	}

	varVals, d := evalVariables(srcs, varBlocks, vars, varFiles)
	diags = append(diags, d...)
	fab.Variables = varVals
	ctx := newEvalContext(varVals, srcs.fns)

	locals, d := evalLocals(localsBlocks, ctx)
	diags = append(diags, d...)
	ctx.Variables["local"] = cty.ObjectVal(locals)

	// Profiles and port groups can be referenced by name (qos_profile.roce,
	// port_group.uplinks), so they are collected before anything refers
	// to them.
	seen := map[string]hcl.Range{}
	dup := func(kind string, b *hcl.Block) bool {
		key := kind + "." + b.Labels[0]
		if prev, ok := seen[key]; ok {
			diags = append(diags, errorf(RuleDuplicateBlock, "Duplicate "+kind+" declaration", b.LabelRanges[0].Ptr(), &b.DefRange,
				fmt.Sprintf("A %s named %q was already declared at %s. Names must be unique within the intent; rename or remove one of them.", kind, b.Labels[0], prev)))
			return true
		}
		seen[key] = b.DefRange
		return false
	}
	for _, b := range groupBlocks {
		if dup("port_group", b) {
			continue
		}
		g, d := decodePortGroup(b, ctx)
		diags = append(diags, d...)
		fab.PortGroups[g.Name] = g
	}
	profileNames := func(kind string, blocks []*hcl.Block) map[string]cty.Value {
		m := map[string]cty.Value{}
		for _, b := range blocks {
			m[b.Labels[0]] = cty.StringVal(b.Labels[0])
		}
		return m
	}
	groupVals := map[string]cty.Value{}
	for name, g := range fab.PortGroups {
		l := make([]cty.Value, len(g.Ports))
		for i, p := range g.Ports {
			l[i] = cty.StringVal(p.Pattern)
		}
		groupVals[name] = cty.TupleVal(l)
	}
	ctx.Variables["qos_profile"] = cty.ObjectVal(profileNames("qos_profile", qosBlocks))
	ctx.Variables["buffer_profile"] = cty.ObjectVal(profileNames("buffer_profile", bufBlocks))
	ctx.Variables["port_group"] = cty.ObjectVal(groupVals)

	for _, b := range qosBlocks {
		if dup("qos_profile", b) {
			continue
		}
		body, d := readBody(b.Body, qosSchema, ctx)
		diags = append(diags, d...)
		fab.QoSProfiles[b.Labels[0]] = &Profile{Name: b.Labels[0], Body: body, DeclRange: b.DefRange}
	}
	for _, b := range bufBlocks {
		if dup("buffer_profile", b) {
			continue
		}
		body, d := readBody(b.Body, bufferSchema, ctx)
		diags = append(diags, d...)
		fab.BufferProfiles[b.Labels[0]] = &Profile{Name: b.Labels[0], Body: body, DeclRange: b.DefRange}
	}
	for _, b := range assignBlocks {
		if dup("assign", b) {
			continue
		}
		a, d := decodeAssign(b, ctx, fab)
		diags = append(diags, d...)
		if a != nil {
			fab.Assigns = append(fab.Assigns, a)
		}
	}
	fab.Rollout, d = decodeRollouts(rollouts, ctx)
	diags = append(diags, d...)
	return fab, diags
}
