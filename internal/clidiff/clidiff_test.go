package clidiff

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// toy is a small CLI: "mode X" opens a mode at the top level, "sub X" one
// inside it; "set K V" lines are keyed by "set K", other lines by their
// text. Top-level lines go in phase 0, modes in phase 1, removals of the
// top level in phase 2; inside a phase, removals (step 0) go before sets
// (step 1).
type toy struct{}

func (toy) Key(text string) string {
	if f := strings.Fields(text); len(f) >= 2 && f[0] == "set" {
		return "set " + f[1]
	}
	return text
}

func (toy) Phase(text string) int {
	if strings.HasPrefix(text, "mode ") {
		return 1
	}
	return 0
}

func (toy) Opens(path []string, text string) bool {
	if len(path) == 0 {
		return strings.HasPrefix(text, "mode ")
	}
	return strings.HasPrefix(text, "sub ")
}

func (toy) Set(d *Differ, phase int, path []string, _, want *Node) { d.Add(phase, 1, path, want.Text) }

func (toy) Remove(d *Differ, phase int, path []string, have *Node) {
	d.Add(phase, 0, path, "no "+have.Text)
}

func (toy) Drop(d *Differ, have *Node) {
	if strings.HasPrefix(have.Text, "mode ") {
		d.Mode(1, []string{have.Text}, have, nil)
		return
	}
	d.Add(2, 0, nil, "no "+have.Text)
}

// enterer is toy whose mode lines enter their mode when typed.
type enterer struct{ toy }

func (enterer) Enters(line string) bool {
	return strings.HasPrefix(line, "mode ") || strings.HasPrefix(line, "sub ")
}

// implier is toy where "drop all" takes the keys of implied with it.
type implier struct {
	toy
	implied []string
}

func (i implier) AlsoRemoves(have *Node) []string {
	if have.Text == "drop all" {
		return i.implied
	}
	return nil
}

// scan reads toy text: one space per level.
func scan(text []byte, yield func(n, depth int, body string) error) error {
	return Lines(text, func(n, spaces int, body string) error { return yield(n, spaces, body) })
}

func line(text string) (string, string) { return text, toy{}.Key(text) }

func trees(t *testing.T, have, want string) (h, w []*Node) {
	t.Helper()
	h, err := Read([]byte(have), scan, line)
	if err != nil {
		t.Fatal(err)
	}
	w, err = Read([]byte(want), scan, line)
	if err != nil {
		t.Fatal(err)
	}
	PairByKey(w, h, Index(w), Index(h))
	return h, w
}

func commands(t *testing.T, r Rules, dl Dialect, have, want string) []string {
	t.Helper()
	h, w := trees(t, have, want)
	d := New(r, dl)
	d.Diff(w, h)
	return d.Commands()
}

func TestCommands(t *testing.T) {
	const have = "set a 1\nmode M\n set x 1\n set y 1\nmode OLD\n set z 1\nstale\n"
	const want = "set a 2\nmode M\n set x 2\n sub S\n  set q 1\nmode NEW\n"
	tests := []struct {
		name  string
		rules Rules
		dl    Dialect
		want  []string
	}{
		{"lines enter modes, one phase by step", enterer{}, Dialect{Negation: "no ", Exit: "exit", Group: ByStep, SetStep: 1}, []string{
			"set a 2",
			// Phase 1 by step: every removal before any set.
			"mode M", "no set y 1", "exit", "mode OLD", "no set z 1", "exit",
			"mode M", "set x 2", "sub S", "set q 1", "exit", "exit", "mode NEW",
			"exit", "no stale"}},
		{"modes entered by their path, grouped by mode", toy{}, Dialect{Negation: "no ", Exit: "quit", ExitLast: true, Group: ByMode, SetStep: 1}, []string{
			"set a 2",
			"mode M", "no set y 1", "set x 2",
			// Without an Enterer a new mode is entered by its path.
			"sub S", "set q 1", "quit",
			"quit", "mode NEW",
			"quit", "mode OLD", "no set z 1",
			"quit", "no stale",
		}},
		{"grouped by top line", enterer{}, Dialect{Negation: "no ", Exit: "exit", Group: ByTopLine, SetStep: 1}, []string{
			"set a 2",
			"mode M", "no set y 1", "set x 2", "sub S", "set q 1", "exit", "exit",
			"mode NEW", "exit",
			"mode OLD", "no set z 1", "exit",
			"no stale"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, commands(t, tc.rules, tc.dl, have, want)); diff != "" {
				t.Errorf("commands (-want +got):\n%s", diff)
			}
		})
	}
}

// TestEqualIsEmpty: the same trees need no command, and Only keeps
// nothing.
func TestEqualIsEmpty(t *testing.T) {
	const text = "set a 1\nmode M\n set x 1\n sub S\n  set q 1\n"
	h, w := trees(t, text, text)
	d := New(enterer{}, Dialect{Negation: "no ", Exit: "exit"})
	d.Diff(w, h)
	if got := d.Commands(); len(got) != 0 {
		t.Errorf("commands %q", got)
	}
	if got := d.Only(h); len(got) != 0 {
		t.Errorf("Only kept %d nodes", len(got))
	}
}

// TestImplier: lines a removal takes along are not removed again, and a
// desired line of their key is sent anew even when it is unchanged.
func TestImplier(t *testing.T) {
	r := implier{implied: []string{"set x", "set y"}}
	got := commands(t, r, Dialect{Negation: "no ", Exit: "quit", Group: ByMode, SetStep: 1},
		"mode M\n drop all\n set x 1\n set y 1\n", "mode M\n set x 1\n")
	want := []string{"mode M", "no drop all", "set x 1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
}

// TestTouchedAndDisrupt: Only keeps the top-level nodes a command
// changes, found through the negation; reasons come back sorted.
func TestTouchedAndDisrupt(t *testing.T) {
	h, w := trees(t, "set a 1\nstale\nmode M\n set x 1\n", "set a 1\nmode M\n set x 2\n")
	d := New(toy{}, Dialect{Negation: "no ", Exit: "exit"})
	d.Diff(w, h)
	var got []string
	for _, n := range d.Only(h) {
		got = append(got, n.Text)
	}
	if diff := cmp.Diff([]string{"stale", "mode M"}, got); diff != "" {
		t.Errorf("Only (-want +got):\n%s", diff)
	}
	d.Disrupt("z")
	d.Disrupt("a")
	d.Disrupt("z")
	if diff := cmp.Diff([]string{"a", "z"}, d.Disruptive()); diff != "" {
		t.Errorf("Disruptive (-want +got):\n%s", diff)
	}
}

func TestReadAndParse(t *testing.T) {
	const text = "a\n b\n  c\n d\ne\n"
	nodes, err := Read([]byte(text), scan, line)
	if err != nil {
		t.Fatal(err)
	}
	if got := Print(nodes, " ", ""); got != text {
		t.Errorf("Read then Print = %q, want %q", got, text)
	}
	if got := Print(nodes, " ", "#"); got != "#\na\n b\n  c\n d\n#\ne\n" {
		t.Errorf("Print with a mark = %q", got)
	}
	tree, err := Parse([]byte(text), scan)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree) != 2 || len(tree[0].Children) != 2 || tree[0].Children[0].Children[0].Text != "c" {
		t.Errorf("Parse tree: %+v", tree)
	}
	for _, bad := range []string{" a\n", "a\n  b\n"} {
		if _, err := Read([]byte(bad), scan, line); err == nil || !strings.Contains(err.Error(), "indented under a line at depth") {
			t.Errorf("Read(%q) = %v, want a depth error", bad, err)
		}
		if _, err := Parse([]byte(bad), scan); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestDedupe(t *testing.T) {
	nodes, err := Read([]byte("set a 1\nm\n set b 1\n set b 2\n x\n x\nset a 2\n"), scan, line)
	if err != nil {
		t.Fatal(err)
	}
	// "x" lines are members of a set: both stay.
	single := func(n *Node) bool { return n.Key != n.Text }
	top, by := DedupeIndex(nodes, single)
	if got := Print(top, " ", ""); got != "m\n set b 2\n x\n x\nset a 2\n" {
		t.Errorf("DedupeIndex = %q", got)
	}
	if by["set a"].Text != "set a 2" || len(by) != 2 {
		t.Errorf("index %v", by)
	}
}

func TestPair(t *testing.T) {
	mk := func(texts ...string) []*Node {
		var out []*Node
		for _, s := range texts {
			out = append(out, &Node{Text: s, Key: s})
		}
		return out
	}
	want, have := mk("a", "b", "b", "c"), mk("b", "a", "b", "d")
	PairInOrder(want, have)
	var got []string
	for _, w := range want {
		p := "-"
		if w.Peer != nil {
			p = w.Peer.Text + "@" + string(rune('0'+slices.Index(have, w.Peer)))
		}
		got = append(got, p)
	}
	if diff := cmp.Diff([]string{"a@1", "b@2", "b@0", "-"}, got); diff != "" {
		t.Errorf("peers (-want +got):\n%s", diff)
	}
	if have[3].Peer != nil {
		t.Error("d has a peer")
	}
}

func TestOrdered(t *testing.T) {
	h, w := trees(t, "z\nmode M\n set y 1\n stale\n set x 1\na\n", "a\nmode M\n set x 1\n set y 1\n")
	if got := Print(Ordered(h, w), " ", ""); got != "a\nmode M\n set x 1\n set y 1\n stale\nz\n" {
		t.Errorf("Ordered = %q", got)
	}
	if got := Print(h, " ", ""); got != "z\nmode M\n set y 1\n stale\n set x 1\na\n" {
		t.Errorf("Ordered changed have: %q", got)
	}
}

func TestBody(t *testing.T) {
	got := Body([]byte("!x\r\na\r\n!y\nb\n\n\n"), func(l string) bool { return !strings.HasPrefix(l, "!") })
	if string(got) != "a\nb\n" {
		t.Errorf("Body = %q", got)
	}
	if got := Body([]byte("!x\n"), func(l string) bool { return !strings.HasPrefix(l, "!") }); got != nil {
		t.Errorf("Body of a header = %q, want nil", got)
	}
}

// TestModeLineValueNotChanged: a mode whose line differs from its peer's
// only in a value outside the key is compared line by line, and its line
// is not sent (Differ.Diff's contract: the vendor handles such a change).
func TestModeLineValueNotChanged(t *testing.T) {
	keyed := keyedMode{}
	h, err := Read([]byte("mode any M\n set x 1\n"), scan, keyed.line)
	if err != nil {
		t.Fatal(err)
	}
	w, err := Read([]byte("mode all M\n set x 2\n"), scan, keyed.line)
	if err != nil {
		t.Fatal(err)
	}
	PairByKey(w, h, Index(w), Index(h))
	d := New(keyed, Dialect{Negation: "no ", Exit: "exit", Group: ByStep, SetStep: 1})
	d.Diff(w, h)
	if diff := cmp.Diff([]string{"mode all M", "set x 2"}, d.Commands()); diff != "" {
		t.Errorf("commands (-want +got):\n%s", diff)
	}
}

// keyedMode is enterer whose mode lines "mode TYPE NAME" are keyed by
// NAME alone.
type keyedMode struct{ enterer }

func (keyedMode) Key(text string) string {
	if f := strings.Fields(text); len(f) == 3 && f[0] == "mode" {
		return "mode " + f[2]
	}
	return toy{}.Key(text)
}

func (k keyedMode) line(text string) (string, string) { return text, k.Key(text) }
