package plan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Save writes p as indented JSON to path (mode 0600: a plan shows the
// network's config). It holds no credentials.
func Save(path string, p *Plan) error {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("save plan %s: %w", path, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("save plan: %w", err)
	}
	return nil
}

// Read reads a plan saved by Save. A plan of another format version, or
// one that is not a plan, is an error.
func Read(r io.Reader) (*Plan, error) {
	var p Plan
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("read plan: %w", err)
	}
	if p.FormatVersion != FormatVersion {
		return nil, fmt.Errorf("read plan: format version %q, want %q", p.FormatVersion, FormatVersion)
	}
	for i := range p.Devices {
		d := &p.Devices[i]
		if d.Device == "" {
			return nil, fmt.Errorf("read plan: device %d has no name", i+1)
		}
		if d.Error != "" {
			d.Err = errors.New(d.Error)
		}
		if d.Error == "" && (d.Change == nil || d.Change.Desired == nil || d.Fingerprint == "") {
			return nil, fmt.Errorf("read plan: device %s has no change, desired config or fingerprint", d.Device)
		}
	}
	return &p, nil
}

// ReadFile reads the plan file at path.
func ReadFile(path string) (*Plan, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read plan: %w", err)
	}
	defer f.Close()
	p, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}
