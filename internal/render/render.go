// Package render turns resolved devices into files: it looks each device's
// renderer up in the vendor registry, renders it in the chosen format and
// names the file (<device>.cfg, or .json for JSON documents). It renders
// in parallel with a bound, and can stream renderings to a directory
// without keeping them in memory. It knows no vendor: import vendors/all
// (or single vendor packages) to fill the registry; package load loads
// the devices.
package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/lossless-net/lossless/intent"
	"github.com/lossless-net/lossless/internal/config"
	"github.com/lossless-net/lossless/vendors"
)

// Output formats.
const (
	// Native is the device's own configuration: CLI text or CONFIG_DB JSON.
	Native = "native"
	// YANG is the sonic-yang instance JSON of vendors that have one
	// (vendors.Vendor.Formats["yang"]).
	YANG = "yang"
)

// File is one device's rendering.
type File struct {
	Device string
	// Name is the file name: "<device>.cfg" for CLI text, "<device>.json"
	// for JSON (CONFIG_DB, sonic-yang).
	Name string
	// Data is the rendering; nil once ToDir has written it.
	Data []byte
	// Warnings are the renderer's rounding and defaulting notes.
	Warnings []config.Warning
	// Disruptive lists the parts the device cannot change in place.
	Disruptive []string
}

// One renders device d in format (Native or YANG).
func One(d *intent.Device, format string) (File, error) {
	r, ok := vendors.Lookup(d.Vendor)
	if !ok {
		return File{}, fmt.Errorf("render %s: no renderer for vendor %q (registered: %s)", d.Name, d.Vendor, strings.Join(vendors.Names(), ", "))
	}
	switch format {
	case Native, "":
		doc, err := r.Render(d)
		if err != nil {
			return File{}, err
		}
		ext := ".cfg"
		if doc.Format == config.ConfigDB {
			ext = ".json"
		}
		return File{Device: d.Name, Name: d.Name + ext, Data: doc.Text, Warnings: doc.Warnings, Disruptive: doc.Disruptive}, nil
	default:
		f, ok := r.Formats[format]
		if !ok {
			return File{}, fmt.Errorf("render %s: vendor %q has no %q format", d.Name, d.Vendor, format)
		}
		data, err := f(d)
		if err != nil {
			return File{}, err
		}
		return File{Device: d.Name, Name: d.Name + ".json", Data: data}, nil
	}
}

// All renders every device, at most parallel at a time (0: one per CPU),
// and returns the files in the order of devs. The error joins every
// device's error, in the order of devs; the files of the devices that
// rendered are returned too.
func All(devs []*intent.Device, format string, parallel int) ([]File, error) {
	files := make([]File, len(devs))
	errs := make([]error, len(devs))
	var g errgroup.Group
	g.SetLimit(limit(parallel))
	for i, d := range devs {
		g.Go(func() error {
			files[i], errs[i] = One(d, format)
			return nil
		})
	}
	_ = g.Wait() // the goroutines report through errs
	var ok []File
	for i := range files {
		if errs[i] == nil {
			ok = append(ok, files[i])
		}
	}
	return ok, errors.Join(errs...)
}

// Map returns files as file name → data, the form golden.Compare takes.
func Map(files []File) map[string][]byte {
	m := make(map[string][]byte, len(files))
	for _, f := range files {
		m[f.Name] = f.Data
	}
	return m
}

// ToDir renders every device and writes it to dir (created if needed) as
// soon as it is rendered, at most parallel at a time, so memory holds only
// the renderings in flight. It returns the files without their Data, in the
// order of devs, and joins every device's error. A cancelled ctx stops
// devices that have not started.
func ToDir(ctx context.Context, devs []*intent.Device, format, dir string, parallel int) ([]File, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("render to %s: %w", dir, err)
	}
	files := make([]File, len(devs))
	errs := make([]error, len(devs))
	var g errgroup.Group
	g.SetLimit(limit(parallel))
	for i, d := range devs {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				errs[i] = fmt.Errorf("render %s: %w", d.Name, err)
				return nil
			}
			f, err := One(d, format)
			if err != nil {
				errs[i] = err
				return nil
			}
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
				errs[i] = fmt.Errorf("render %s: %w", d.Name, err)
				return nil
			}
			f.Data = nil
			files[i] = f
			return nil
		})
	}
	_ = g.Wait()
	var ok []File
	for i := range files {
		if errs[i] == nil {
			ok = append(ok, files[i])
		}
	}
	return ok, errors.Join(errs...)
}

func limit(parallel int) int {
	if parallel <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return parallel
}
