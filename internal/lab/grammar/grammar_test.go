package grammar_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/lossless-net/lossless/internal/lab/grammar"
)

func TestSplit(t *testing.T) {
	got := grammar.Split("  match  dscp\t24,26 ")
	want := []grammar.Token{{Text: "match", Pos: 2}, {Text: "dscp", Pos: 9}, {Text: "24,26", Pos: 14}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCompileErrors(t *testing.T) {
	for _, bad := range []string{"a [b [c]]", "a b]", "a [b", "<x>", "<x:nope>", "<x:rest...>"} {
		if _, err := grammar.Compile(bad, nil); err == nil {
			t.Errorf("Compile(%q) succeeded", bad)
		}
	}
}

type sess struct{ ran []string }

func record(s *sess, _ *grammar.State, neg grammar.Neg, m grammar.Match) (string, bool) {
	s.ran = append(s.ran, m.Text())
	return "", false
}

var table = grammar.New([]grammar.Entry[*sess]{
	{Modes: []string{"top"}, Syntax: "set level <n:1-8> [weight <w:0-15>] [ecn]", Key: "set level", Rank: 2},
	{Modes: []string{"top"}, Syntax: "set label <l:word>", Key: "set label", Rank: 1, NoLine: true, No: []string{"set label [<l:word>]"}},
	{Modes: []string{"top"}, Syntax: "map <d:0-63...> to <q:0-7>"},
	{Modes: []string{"top"}, Syntax: "mode <m:auto|on|off>", Key: "mode", Default: "mode auto"},
	{Modes: []string{"top"}, Syntax: "stanza <name:word>", Key: "stanza {name}", Enter: "sub", Rank: 5},
	{Modes: []string{"sub"}, Syntax: "leaf <n:0-7>", Key: "leaf"},
	{Modes: []string{"top", "sub"}, Syntax: "show it", No: []string{}, Do: record},
	{Modes: []string{"top"}, Syntax: "shutdown"},
}, grammar.Options{AllowDefault: true})

func TestExec(t *testing.T) {
	cases := []struct {
		line string
		kind grammar.ErrKind
		tok  int
		lo   int64
		hi   int64
	}{
		{"set level 3", 0, 0, 0, 0},
		{"SET LEV 3 weight 15 ecn", 0, 0, 0, 0},
		{"set level 9", grammar.OutOfRange, 2, 1, 8},
		{"set level 3 weight", grammar.Incomplete, 4, 0, 0},
		{"set level 3 bogus", grammar.Invalid, 3, 0, 0},
		{"set l 3", grammar.Ambiguous, 1, 0, 0},
		{"s", grammar.Ambiguous, 0, 0, 0},
		{"sh it", grammar.Ambiguous, 0, 0, 0},
		{"show it", 0, 0, 0, 0},
		{"map 1 2 3 to 4", 0, 0, 0, 0},
		{"map 1 64 to 4", grammar.OutOfRange, 2, 0, 63},
		{"map to 4", grammar.Invalid, 1, 0, 0},
		{"mode o", grammar.Ambiguous, 1, 0, 0},
		{"nothing", grammar.Invalid, 0, 0, 0},
		{"no", grammar.Incomplete, 1, 0, 0},
	}
	for _, c := range cases {
		st := &grammar.State{Tree: grammar.NewTree()}
		st.Frames = []grammar.Frame{{Mode: "top", Nodes: []*grammar.Node{st.Tree.Root}}}
		r := table.Exec(&sess{}, st, c.line)
		if c.kind == 0 {
			if r.Err != nil {
				t.Errorf("%q: error kind %d at token %d", c.line, r.Err.Kind, r.Err.Token)
			}
			continue
		}
		if r.Err == nil {
			t.Errorf("%q: accepted", c.line)
			continue
		}
		if r.Err.Kind != c.kind || r.Err.Token != c.tok || r.Err.Lo != c.lo || r.Err.Hi != c.hi {
			t.Errorf("%q: got kind %d token %d range %d-%d, want kind %d token %d range %d-%d",
				c.line, r.Err.Kind, r.Err.Token, r.Err.Lo, r.Err.Hi, c.kind, c.tok, c.lo, c.hi)
		}
	}
}

// TestTreeEdits: keys replace, negation removes or stores "no …",
// defaults hide, stanzas nest, parent fallback leaves the sub-mode.
func TestTreeEdits(t *testing.T) {
	st := &grammar.State{Tree: grammar.NewTree()}
	st.Frames = []grammar.Frame{{Mode: "top", Nodes: []*grammar.Node{st.Tree.Root}}}
	s := &sess{}
	for _, l := range []string{
		"set level 3", "set level 4 weight 2", "set label x", "no set label",
		"mode on", "mode auto", "stanza b", "leaf 1", "leaf 2", "stanza a", "leaf 5",
		"show it", "map 1 to 2", "shutdown", "default shutdown",
	} {
		if r := table.Exec(s, st, l); r.Err != nil || r.Msg != "" {
			t.Fatalf("%q: %+v", l, r.Err)
		}
	}
	want := "map 1 to 2\nno set label\nset level 4 weight 2\nstanza b\n  leaf 2\nstanza a\n  leaf 5\n"
	if got := st.Tree.Print("  "); got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
	if !cmp.Equal(s.ran, []string{"show it"}) {
		t.Errorf("Do ran %q", s.ran)
	}
	if st.Mode() != "top" {
		t.Errorf("mode %q after a top-level line typed in a sub-mode", st.Mode())
	}
	clone := st.Tree.Clone()
	table.Exec(s, st, "no stanza a")
	if got := clone.Print("  "); got != want {
		t.Errorf("the clone changed with its original:\n%s", got)
	}
	if strings.Contains(st.Tree.Print("  "), "stanza a") {
		t.Error("no stanza a left the stanza")
	}
}

func TestNaturalCompare(t *testing.T) {
	in := []string{"Ethernet1/10", "Ethernet1/2", "Ethernet2/1", "Ethernet1/1", "Ethernet10", "Ethernet9"}
	nodes := &grammar.Node{}
	tr := grammar.NewTree()
	for _, s := range in {
		tr.Set(nodes, s, s, 0, true, "")
	}
	var got []string
	for _, n := range nodes.Sorted() {
		got = append(got, n.Text)
	}
	want := []string{"Ethernet1/1", "Ethernet1/2", "Ethernet1/10", "Ethernet2/1", "Ethernet9", "Ethernet10"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
