package vendors

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/util"
)

// TestPlatformDriverMatchesNewDriver: for every vendor's platform
// definition, the driver built from the compiled template is the one
// scrapligo's network.NewDriver builds (privilege levels with their
// compiled patterns, privilege graph, prompt pattern, failure strings,
// on-open/close, channel and transport settings), and two drivers never
// share a privilege level (ConfigureIn changes one).
func TestPlatformDriverMatchesNewDriver(t *testing.T) {
	files, err := filepath.Glob("*/platform.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no platform definitions under vendors/: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Dir(f), func(t *testing.T) {
			def, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p, err := ParsePlatform(def)
			if err != nil {
				t.Fatal(err)
			}
			opts := func() []util.Option {
				return []util.Option{options.WithCustomTransport(&sshTransport{}), options.WithPort(2222),
					options.WithAuthUsername("ops"), options.WithTimeoutOps(7 * time.Second), options.WithReadDelay(readDelay)}
			}
			got, err := p.driver("192.0.2.1", opts()...)
			if err != nil {
				t.Fatal(err)
			}
			want, err := network.NewDriver("192.0.2.1", append(p.options(), opts()...)...)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.PrivilegeLevels, want.PrivilegeLevels) {
				t.Errorf("privilege levels differ from network.NewDriver's")
			}
			if g, w := reflect.ValueOf(got).Elem().FieldByName("privGraph"), reflect.ValueOf(want).Elem().FieldByName("privGraph"); g.Len() == 0 || !equalGraphs(g, w) {
				t.Errorf("privilege graph differs: %v vs %v", g, w)
			}
			// network.NewDriver joins the levels' patterns in map order,
			// which differs from one call to the next: any order is its.
			if !joinedInSomeOrder(got.Channel.PromptPattern.String(), got.PrivilegeLevels) {
				t.Errorf("prompt pattern %q is not the levels' patterns joined (network.NewDriver's: %q)", got.Channel.PromptPattern, want.Channel.PromptPattern)
			}
			for name, pair := range map[string][2]any{
				"default privilege": {got.DefaultDesiredPriv, want.DefaultDesiredPriv},
				"current privilege": {got.CurrentPriv, want.CurrentPriv},
				"failed when":       {got.FailedWhenContains, want.FailedWhenContains},
				"on open":           {got.OnOpen != nil, want.OnOpen != nil},
				"on close":          {got.OnClose != nil, want.OnClose != nil},
				"transport host":    {got.Transport.Args.Host, want.Transport.Args.Host},
				"transport port":    {got.Transport.Args.Port, want.Transport.Args.Port},
				"transport user":    {got.Transport.Args.User, want.Transport.Args.User},
				"transport timeout": {got.Transport.Args.TimeoutSocket, want.Transport.Args.TimeoutSocket},
				"transport read":    {got.Transport.Args.ReadSize, want.Transport.Args.ReadSize},
				"terminal size":     {[2]int{got.Transport.Args.TermHeight, got.Transport.Args.TermWidth}, [2]int{want.Transport.Args.TermHeight, want.Transport.Args.TermWidth}},
				"transport impl":    {reflect.TypeOf(got.Transport.Impl), reflect.TypeOf(want.Transport.Impl)},
				"read delay":        {got.Channel.ReadDelay, want.Channel.ReadDelay},
				"op timeout":        {got.Channel.TimeoutOps, want.Channel.TimeoutOps},
				"return char":       {got.Channel.ReturnChar, want.Channel.ReturnChar},
				"search depth":      {got.Channel.PromptSearchDepth, want.Channel.PromptSearchDepth},
			} {
				if !reflect.DeepEqual(pair[0], pair[1]) {
					t.Errorf("%s: %v, want %v", name, pair[0], pair[1])
				}
			}
			other, err := p.driver("192.0.2.2", opts()...)
			if err != nil {
				t.Fatal(err)
			}
			for name, lvl := range got.PrivilegeLevels {
				if other.PrivilegeLevels[name] == lvl {
					t.Errorf("privilege level %q shared by two drivers", name)
				}
			}
		})
	}
}

// joinedInSomeOrder reports whether pattern is the patterns of levels
// joined with "|" in some order.
func joinedInSomeOrder(pattern string, levels map[string]*network.PrivilegeLevel) bool {
	left := map[string]bool{}
	for name := range levels {
		left[name] = true
	}
	var try func(rest string) bool
	try = func(rest string) bool {
		if len(left) == 0 {
			return rest == ""
		}
		for name := range left {
			p := levels[name].Pattern
			next, ok := strings.CutPrefix(rest, p)
			if !ok {
				continue
			}
			if len(left) > 1 {
				if next, ok = strings.CutPrefix(next, "|"); !ok {
					continue
				}
			}
			delete(left, name)
			found := try(next)
			left[name] = true
			if found {
				return true
			}
		}
		return false
	}
	return try(pattern)
}

// equalGraphs compares two privilege graphs (map[string]map[string]bool).
func equalGraphs(a, b reflect.Value) bool {
	if a.Len() != b.Len() {
		return false
	}
	for _, k := range a.MapKeys() {
		x, y := a.MapIndex(k), b.MapIndex(k)
		if !y.IsValid() || x.Len() != y.Len() {
			return false
		}
		for _, k2 := range x.MapKeys() {
			if v := y.MapIndex(k2); !v.IsValid() || v.Bool() != x.MapIndex(k2).Bool() {
				return false
			}
		}
	}
	return true
}
