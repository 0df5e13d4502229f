package platform

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// catalogJSON is the platform catalog. Each entry cites its source; add a
// platform by adding an entry, never a code branch.
//
//go:embed catalog.json
var catalogJSON []byte

// catalog is parsed once, from embedded data, and never written after.
var catalog = mustParse(catalogJSON)

// mustParse decodes and checks the embedded catalog. The catalog is part of
// the binary, so a broken one is a build defect caught by the package tests;
// it panics at start-up rather than serving a half catalog.
func mustParse(b []byte) map[string]*Platform {
	m, err := parse(b)
	if err != nil {
		panic(err)
	}
	return m
}

// parse decodes a catalog and checks every entry with Check.
func parse(b []byte) (map[string]*Platform, error) {
	var list []*Platform
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("platform catalog: %w", err)
	}
	m := make(map[string]*Platform, len(list))
	for i, p := range list {
		if err := p.Check(); err != nil {
			return nil, fmt.Errorf("platform catalog entry %d: %w", i, err)
		}
		for _, name := range append([]string{p.Model}, p.Aliases...) {
			k := key(name)
			if _, dup := m[k]; dup {
				return nil, fmt.Errorf("platform catalog: %q names two entries", name)
			}
			m[k] = p
		}
	}
	return m, nil
}

// key folds a model name for lookup: case-insensitive, so "sn4700" finds
// "SN4700".
func key(model string) string { return strings.ToUpper(strings.TrimSpace(model)) }

// Lookup returns the catalog entry for a model name or alias as written in
// an inventory, ignoring case. The returned Platform is shared: callers
// must not modify it (use Clone to get a copy).
func Lookup(model string) (*Platform, bool) {
	p, ok := catalog[key(model)]
	return p, ok
}

// Models returns the canonical name of every model in the catalog, sorted.
func Models() []string {
	out := make([]string, 0, len(catalog))
	for k, p := range catalog {
		if key(p.Model) == k {
			out = append(out, p.Model)
		}
	}
	slices.Sort(out)
	return out
}

// Names returns every name Lookup accepts (models and aliases), sorted.
func Names() []string {
	out := make([]string, 0, len(catalog))
	for k, p := range catalog {
		name := p.Model
		for _, a := range p.Aliases {
			if key(a) == k {
				name = a
			}
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// Clone returns a deep copy of p.
func (p *Platform) Clone() *Platform {
	c := *p
	c.PFCPriorities = slices.Clone(p.PFCPriorities)
	c.Aliases = slices.Clone(p.Aliases)
	c.Unverified = slices.Clone(p.Unverified)
	c.Watchdog = p.Watchdog.clone()
	return &c
}

// Check reports the first implausible or missing figure of p: every entry
// needs a model, an ASIC, a positive buffer and cell (the buffer a whole
// number of cells is not required: vendors quote it in MB), at least one
// lossless class and no more than its PFC priorities, priorities 0–7 without
// repeats, a sane MTU range, a known unit, a source, and a plausible PFC
// watchdog (see Watchdog).
func (p *Platform) Check() error {
	switch {
	case strings.TrimSpace(p.Model) == "":
		return fmt.Errorf("model is empty")
	case p.ASIC == "":
		return fmt.Errorf("%s: asic is empty", p.Model)
	case p.Buffer <= 0:
		return fmt.Errorf("%s: buffer %d must be positive", p.Model, p.Buffer)
	case p.Cell <= 0 || p.Cell > 1024:
		return fmt.Errorf("%s: cell %d must be 1–1024 bytes", p.Model, p.Cell)
	case p.Buffer < 1024*p.Cell:
		return fmt.Errorf("%s: buffer %s holds fewer than 1024 cells", p.Model, p.Buffer)
	case p.MaxLossless < 1 || p.MaxLossless > 8:
		return fmt.Errorf("%s: max lossless classes %d must be 1–8", p.Model, p.MaxLossless)
	case len(p.PFCPriorities) < p.MaxLossless:
		return fmt.Errorf("%s: %d PFC priorities cannot carry %d lossless classes", p.Model, len(p.PFCPriorities), p.MaxLossless)
	case p.MTUMin < 64 || p.MTUMax > 16384 || p.MTUMin >= p.MTUMax || p.MTUMax < 9000:
		return fmt.Errorf("%s: MTU range %d–%d is not plausible", p.Model, p.MTUMin, p.MTUMax)
	case p.Units != "bytes" && p.Units != "kbytes" && p.Units != "cells":
		return fmt.Errorf("%s: units %q must be bytes, kbytes or cells", p.Model, p.Units)
	case len(p.Source) < 20:
		return fmt.Errorf("%s: source must say where the figures come from", p.Model)
	case p.Watchdog == nil:
		return fmt.Errorf("%s: watchdog is missing", p.Model)
	}
	if err := p.Watchdog.check(); err != nil {
		return fmt.Errorf("%s: %w", p.Model, err)
	}
	for _, f := range p.Unverified {
		if !slices.Contains([]string{"buffer_bytes", "cell_bytes", "max_lossless", "mtu_min", "mtu_max", "units"}, f) {
			return fmt.Errorf("%s: unverified field %q is not a figure of the entry", p.Model, f)
		}
	}
	seen := map[int]bool{}
	for _, pr := range p.PFCPriorities {
		if pr < 0 || pr > 7 || seen[pr] {
			return fmt.Errorf("%s: PFC priority %d repeated or outside 0–7", p.Model, pr)
		}
		seen[pr] = true
	}
	return nil
}
