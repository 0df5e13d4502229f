// Package golden compares renderings with approved ("golden") files kept in
// a directory, one file per device, and rewrites that directory on request.
// `lossless render -golden DIR [-update]` and the project's own golden tests
// (golden/<scenario>/want/) use it. It knows file names and bytes, nothing
// about vendors.
package golden

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lossless-net/lossless/internal/textdiff"
)

// A golden directory's files end in .cfg (CLI text) or .json (JSON
// documents); other files in the directory (a README) are left alone.

// Kind says how a file differs from its golden copy.
type Kind int

// Mismatch kinds.
const (
	// Differs: the rendering and the golden file both exist and differ.
	Differs Kind = iota
	// Missing: a device was rendered but DIR has no golden file for it.
	Missing
	// Extra: DIR has a golden file that no rendered device produced.
	Extra
)

// String names the kind as reports print it.
func (k Kind) String() string {
	switch k {
	case Differs:
		return "differs"
	case Missing:
		return "missing"
	case Extra:
		return "extra"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Mismatch is one file whose rendering does not match DIR.
type Mismatch struct {
	// File is the file name inside DIR ("nxos1.cfg").
	File string
	Kind Kind
	// Diff is the unified diff from the golden file to the rendering
	// (Differs only), with "---"/"+++" headers.
	Diff string
}

// Compare compares got (file name → rendered bytes) with the golden files
// in dir and returns the mismatches sorted by file name; none means every
// rendering equals its golden file and dir has no extra file. A dir that
// does not exist counts as empty.
func Compare(dir string, got map[string][]byte) ([]Mismatch, error) {
	want, err := list(dir)
	if err != nil {
		return nil, err
	}
	var out []Mismatch
	for _, name := range sortedKeys(got) {
		if !want[name] {
			out = append(out, Mismatch{File: name, Kind: Missing})
			continue
		}
		w, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("golden compare %s: %w", dir, err)
		}
		if !bytes.Equal(w, got[name]) {
			out = append(out, Mismatch{File: name, Kind: Differs, Diff: textdiff.Unified(filepath.Join(dir, name), name+" (rendered)", string(w), string(got[name]))})
		}
	}
	for name := range want {
		if _, ok := got[name]; !ok {
			out = append(out, Mismatch{File: name, Kind: Extra})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out, nil
}

// Update makes dir hold exactly got: it writes every rendering, creating dir
// if needed, and removes golden files (.cfg, .json) that no rendering
// produced. Files that are not .cfg or .json are left alone.
func Update(dir string, got map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("golden update %s: %w", dir, err)
	}
	want, err := list(dir)
	if err != nil {
		return err
	}
	for _, name := range sortedKeys(got) {
		if name != filepath.Base(name) || !golden(name) {
			return fmt.Errorf("golden update %s: %q is not a golden file name", dir, name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), got[name], 0o644); err != nil {
			return fmt.Errorf("golden update %s: %w", dir, err)
		}
	}
	for name := range want {
		if _, ok := got[name]; !ok {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return fmt.Errorf("golden update %s: %w", dir, err)
			}
		}
	}
	return nil
}

// Report prints mismatches the way users read them: each differing file's
// unified diff, then one line per missing or extra file. dir names the
// golden directory in those lines.
func Report(w io.Writer, dir string, ms []Mismatch) {
	for _, m := range ms {
		if m.Kind == Differs {
			fmt.Fprint(w, m.Diff)
		}
	}
	for _, m := range ms {
		switch m.Kind {
		case Missing:
			fmt.Fprintf(w, "missing: %s has no %s (the device is rendered but has no approved file)\n", dir, m.File)
		case Extra:
			fmt.Fprintf(w, "extra: %s (no rendered device produces it)\n", filepath.Join(dir, m.File))
		}
	}
}

// list returns the golden files in dir.
func list(dir string) (map[string]bool, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("golden read %s: %w", dir, err)
	}
	out := map[string]bool{}
	for _, e := range entries {
		if e.Type().IsRegular() && golden(e.Name()) {
			out[e.Name()] = true
		}
	}
	return out, nil
}

func golden(name string) bool {
	return strings.HasSuffix(name, ".cfg") || strings.HasSuffix(name, ".json")
}

func sortedKeys(m map[string][]byte) []string {
	k := make([]string, 0, len(m))
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return k
}
