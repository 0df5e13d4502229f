package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/lossless-net/lossless/vendors"
)

// ErrNotReviewed is wrapped by the error of a device whose saved change
// is not the change computed now from the intent and the running config
// the plan fingerprinted: the plan file was edited, or the intent, the
// inventory or lossless changed since it was made.
var ErrNotReviewed = errors.New("the saved change is not the one the intent and the running config give now")

// ChangeDiff says how saved, a change read from a plan file, differs from
// fresh, the change computed now, in what apply would send (the commands
// or the JSON patch) or verify against (the desired config); "" when
// they agree. It names the first difference of each.
func ChangeDiff(saved, fresh *vendors.Change) string {
	var out []string
	if d := linesDiff("command", saved.Commands, fresh.Commands); d != "" {
		out = append(out, d)
	}
	if d := patchDiff(saved.Patch, fresh.Patch); d != "" {
		out = append(out, d)
	}
	var sd, fd []byte
	if saved.Desired != nil {
		sd = saved.Desired.Text
	}
	if fresh.Desired != nil {
		fd = fresh.Desired.Text
	}
	if !bytes.Equal(sd, fd) {
		out = append(out, "desired config "+linesDiff("line", strings.Split(string(sd), "\n"), strings.Split(string(fd), "\n")))
	}
	return strings.Join(out, "; ")
}

// linesDiff names the first line (1-based) where saved and fresh differ.
func linesDiff(what string, saved, fresh []string) string {
	for i := range max(len(saved), len(fresh)) {
		switch {
		case i >= len(saved):
			return fmt.Sprintf("%s %d: the plan has none, now %q (%d more now)", what, i+1, fresh[i], len(fresh)-len(saved))
		case i >= len(fresh):
			return fmt.Sprintf("%s %d: the plan has %q, now none (%d more in the plan)", what, i+1, saved[i], len(saved)-len(fresh))
		case saved[i] != fresh[i]:
			return fmt.Sprintf("%s %d: the plan has %q, now %q", what, i+1, saved[i], fresh[i])
		}
	}
	return ""
}

// patchDiff names the first operation where two JSON patches differ,
// compared as JSON (whitespace aside).
func patchDiff(saved, fresh json.RawMessage) string {
	if len(saved) == 0 && len(fresh) == 0 {
		return ""
	}
	ops := func(p json.RawMessage) ([]string, bool) {
		if len(p) == 0 {
			return nil, true
		}
		var raw []json.RawMessage
		if err := json.Unmarshal(p, &raw); err != nil {
			return nil, false
		}
		out := make([]string, len(raw))
		for i, r := range raw {
			var b bytes.Buffer
			if err := json.Compact(&b, r); err != nil {
				return nil, false
			}
			out[i] = b.String()
		}
		return out, true
	}
	s, okS := ops(saved)
	f, okF := ops(fresh)
	if !okS || !okF {
		if bytes.Equal(saved, fresh) {
			return ""
		}
		return "the JSON patch is not the one computed now"
	}
	if d := linesDiff("patch operation", s, f); d != "" {
		return d
	}
	return ""
}
