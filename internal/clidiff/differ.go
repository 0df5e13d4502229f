package clidiff

import (
	"maps"
	"slices"
	"strings"
)

// Rules are a vendor's facts about its modes and lines, which a [Differ]
// asks as it walks the desired and the running tree. The commands a rule
// records go to the Differ with [Differ.Add]; a rule may walk a mode
// itself with [Differ.Mode].
type Rules interface {
	// Key returns the key of a canonical line (the [LineFunc]'s).
	Key(text string) string
	// Phase returns the phase of a top-level line or mode of the
	// rendering: where its commands go in the remediation.
	Phase(text string) int
	// Opens reports whether the desired line text, in the modes of path
	// (nil at the top level), opens a mode whose lines are compared one
	// by one; a line that does not is compared whole.
	Opens(path []string, text string) bool
	// Set records the commands that take have, a line in the modes of
	// path, to want, which differs from it; have is nil when the running
	// mode lacks the line.
	Set(d *Differ, phase int, path []string, have, want *Node)
	// Remove records the commands that take away have, a line or mode
	// in the modes of path that the rendering lacks.
	Remove(d *Differ, phase int, path []string, have *Node)
	// Drop records the commands for have, a top-level line or mode of
	// the running config that the rendering lacks.
	Drop(d *Differ, have *Node)
}

// Creator is a Rules that knows top-level modes which always exist
// (ports): Creates reports whether the mode want opens, which the running
// config lacks, is created by a command of its own. Without it every
// mode is; a mode below the top level always is.
type Creator interface {
	Creates(want *Node) bool
}

// Enterer is a Rules whose lines enter the mode they open when typed:
// Enters reports whether typing line enters a mode, so that the commands
// after it that belong elsewhere leave it first. Without it a mode is
// entered only as the path of a command (the creation of a mode is then
// a command with its path and no line).
type Enterer interface {
	Enters(line string) bool
}

// Disrupter is a Rules that knows which commands can disturb traffic:
// Disrupts returns why the command line, in phase and in the modes of
// path, may, or "".
type Disrupter interface {
	Disrupts(phase int, path []string, line string) string
}

// Implier is a Rules whose removals take other lines with them (a
// CloudEngine `undo qos drr 0 to 5` also removes the weights of queues
// 0-5): AlsoRemoves returns the keys of the lines in have's mode that go
// when have, a line the rendering changes or lacks, is removed. The
// Differ neither removes those lines again nor keeps a desired line of
// such a key as it is: it is set anew.
type Implier interface {
	AlsoRemoves(have *Node) []string
}

// Dialect is how a vendor's commands are typed and kept in order, beside
// its Rules.
type Dialect struct {
	// Negation is the prefix that takes a line away ("no ", "undo "):
	// a command without a mode changes the top-level line it negates.
	Negation string
	// Exit leaves the current mode ("exit", "quit").
	Exit string
	// ExitLast leaves, after the last command, the modes still open.
	ExitLast bool
	// Group says which commands of one phase stay together.
	Group Grouping
	// SetStep is the step of a top-level line that is set and of the
	// command that creates a mode.
	SetStep int
}

// Grouping says which commands of one phase stay together before their
// steps order them (Dialect.Group).
type Grouping int

// The groupings.
const (
	// ByStep orders a phase by step alone, across modes: every command
	// of a lower step of the phase goes before any of a higher one.
	ByStep Grouping = iota
	// ByTopLine keeps the commands of each top-level line or mode the
	// Differ visits together, in the order it visits them (desired
	// lines first, then the running lines the rendering lacks), and
	// orders each group by step; [Differ.NextGroup] starts a group too.
	ByTopLine
	// ByMode keeps the commands of each top-level mode together, and
	// those outside any mode, in the order they are first recorded.
	ByMode
)

// op is one command of the remediation: the modes to be in, then line
// ("" to enter the modes only).
type op struct {
	phase, group, step int
	path               []string
	line               string
}

// Differ records the commands that take a running tree to a desired one
// and writes them out in order. It is for one diff; the zero value is
// not usable: make one with [New].
type Differ struct {
	rules     Rules
	dialect   Dialect
	creator   Creator
	enterer   Enterer
	disrupter Disrupter
	implier   Implier

	ops   []op
	group int
	modes map[string]int // ByMode: path[0] ("" for none) → group
	// touched are the keys of the top-level lines and modes that change.
	touched map[string]bool
	reasons map[string]bool
}

// New returns a Differ that asks r and writes commands as d says.
func New(r Rules, d Dialect) *Differ {
	df := &Differ{rules: r, dialect: d}
	df.creator, _ = r.(Creator)
	df.enterer, _ = r.(Enterer)
	df.disrupter, _ = r.(Disrupter)
	df.implier, _ = r.(Implier)
	return df
}

// Add records one command: line, typed in the modes of path (nil: at the
// top level), in phase at step. A line "" only enters path.
func (d *Differ) Add(phase, step int, path []string, line string) {
	d.ops = append(d.ops, op{phase: phase, group: d.groupOf(path), step: step, path: path, line: line})
	top := line
	if len(path) > 0 {
		top = path[0]
	}
	if d.touched == nil {
		d.touched = map[string]bool{}
	}
	d.touched[d.rules.Key(strings.TrimPrefix(top, d.dialect.Negation))] = true
	if d.disrupter != nil {
		if r := d.disrupter.Disrupts(phase, path, line); r != "" {
			d.Disrupt(r)
		}
	}
}

func (d *Differ) groupOf(path []string) int {
	switch d.dialect.Group {
	case ByTopLine:
		return d.group
	case ByMode:
		m := ""
		if len(path) > 0 {
			m = path[0]
		}
		g, ok := d.modes[m]
		if !ok {
			if d.modes == nil {
				d.modes = map[string]int{}
			}
			g = len(d.modes)
			d.modes[m] = g
		}
		return g
	}
	return 0
}

// NextGroup starts a new group of commands (Dialect.Group ByTopLine),
// for commands a vendor records before [Differ.Diff].
func (d *Differ) NextGroup() { d.group++ }

// Disrupt adds reason to the reasons why the change may disturb traffic.
func (d *Differ) Disrupt(reason string) {
	if d.reasons == nil {
		d.reasons = map[string]bool{}
	}
	d.reasons[reason] = true
}

// Disruptive returns the reasons why the change may disturb traffic,
// sorted; nil when there are none.
func (d *Differ) Disruptive() []string { return slices.Sorted(maps.Keys(d.reasons)) }

// Touched reports whether a command changes the top-level line or mode
// with key k.
func (d *Differ) Touched(k string) bool { return d.touched[k] }

// Diff records the commands that take have, the running top level inside
// the scope, to want, the desired one; the nodes' peers must be set
// ([PairByKey], [PairInOrder]). A desired line that differs from its
// peer is set whole, a desired mode is compared line by line (created
// first when the running config lacks it), and a running line or mode
// without a peer goes to Rules.Drop. A mode whose own line differs from
// its peer's (same key, another value in the line, such as an NX-OS
// class-map's match type) is entered by the desired line and compared
// line by line; its line is not changed: a vendor whose device cannot
// change such a value in place records that change itself and leaves
// the mode out of the trees it passes here.
func (d *Differ) Diff(want, have []*Node) {
	// The one-mode paths of the top level, cut from one slice.
	tops := make([]string, len(want))
	for i, w := range want {
		d.group++
		h := w.Peer
		phase := d.rules.Phase(w.Text)
		if !d.rules.Opens(nil, w.Text) {
			if h == nil || h.Text != w.Text {
				d.Add(phase, d.dialect.SetStep, nil, w.Text)
			}
			continue
		}
		tops[i] = w.Text
		if h == nil && d.creator != nil && !d.creator.Creates(w) {
			d.Mode(phase, tops[i:i+1:i+1], nil, w)
			continue
		}
		d.open(phase, nil, tops[i:i+1:i+1], h, w)
	}
	for _, h := range have {
		if h.Peer != nil {
			continue
		}
		d.group++
		d.rules.Drop(d, h)
	}
}

// open compares the mode want opens in the modes of path with have,
// creating it when have is nil; inner is the mode's own path (nil: path
// and want's line, made when needed).
func (d *Differ) open(phase int, path, inner []string, have, want *Node) {
	if have != nil && Equal(have, want) {
		return
	}
	if inner == nil {
		inner = append(slices.Clip(path), want.Text)
	}
	switch {
	case have != nil:
	case d.enterer != nil && d.enterer.Enters(want.Text):
		d.Add(phase, d.dialect.SetStep, path, want.Text)
	default:
		d.Add(phase, d.dialect.SetStep, inner, "")
	}
	d.Mode(phase, inner, have, want)
}

// Mode records the commands that take the lines of have, a mode at path
// (the modes to be in, its own line last), to those of want: either may
// be nil (a mode the running config lacks; one whose lines all go).
// Lines the rendering lacks go to Rules.Remove, lines that differ or are
// missing to Rules.Set, and modes inside are compared in turn.
func (d *Differ) Mode(phase int, path []string, have, want *Node) {
	var also map[string]bool
	if d.implier != nil {
		for _, h := range have.kids() {
			if w := want.Child(h.Key); w != nil && w.Text == h.Text {
				continue
			}
			for _, k := range d.implier.AlsoRemoves(h) {
				if also == nil {
					also = map[string]bool{}
				}
				also[k] = true
			}
		}
	}
	for _, h := range have.kids() {
		if want.Child(h.Key) == nil && !also[h.Key] {
			d.rules.Remove(d, phase, path, h)
		}
	}
	for _, w := range want.kids() {
		h := have.Child(w.Key)
		switch {
		case d.rules.Opens(path, w.Text):
			d.open(phase, path, nil, h, w)
		case h != nil && h.Text == w.Text && !also[w.Key]:
		default:
			d.rules.Set(d, phase, path, h, w)
		}
	}
}

// Commands orders the commands by phase, group and step (stable: in the
// order recorded otherwise) and writes them as the lines typed in config
// mode: each command's modes are entered and the others left with
// Dialect.Exit, so that no line lands in a mode where it also parses (a
// global PFC line inside an interface).
func (d *Differ) Commands() []string {
	slices.SortStableFunc(d.ops, func(a, b op) int {
		if a.phase != b.phase {
			return a.phase - b.phase
		}
		if a.group != b.group {
			return a.group - b.group
		}
		return a.step - b.step
	})
	var out, ctx []string
	for _, o := range d.ops {
		common := 0
		for common < len(ctx) && common < len(o.path) && ctx[common] == o.path[common] {
			common++
		}
		for range len(ctx) - common {
			out = append(out, d.dialect.Exit)
		}
		ctx = ctx[:common]
		for _, p := range o.path[common:] {
			out = append(out, p)
			ctx = append(ctx, p)
		}
		if o.line == "" {
			continue
		}
		out = append(out, o.line)
		if d.enterer != nil && d.enterer.Enters(o.line) {
			ctx = append(ctx, o.line)
		}
	}
	if d.dialect.ExitLast {
		for range ctx {
			out = append(out, d.dialect.Exit)
		}
	}
	return out
}

// Only keeps the nodes of a top level that a command changes.
func (d *Differ) Only(nodes []*Node) []*Node {
	var out []*Node
	for _, n := range nodes {
		if d.touched[n.Key] {
			out = append(out, n)
		}
	}
	return out
}
