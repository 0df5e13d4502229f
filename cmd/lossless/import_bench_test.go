package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lossless-net/lossless/internal/importer"
	"github.com/lossless-net/lossless/internal/load"
	"github.com/lossless-net/lossless/vendors"
)

// BenchmarkImportCorpus imports the whole real-world corpus (every
// fixture of testdata/realworld, each saved config through its vendor's
// Saved and Import) into one intent, as `lossless import -from` does for
// a fleet of those switches, without the round-trip check.
func BenchmarkImportCorpus(b *testing.B) {
	invs, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "realworld", "*", "*", "inventory.hcl"))
	type fixture struct {
		src  importer.Source
		file []byte
		save func([]byte) ([]byte, error)
	}
	var fx []fixture
	var size int64
	for _, p := range invs {
		inv, diags := load.Inventory(p)
		if diags.HasErrors() || len(inv.Devices) != 1 {
			b.Fatalf("%s: %v", p, diags)
		}
		path := filepath.Join(filepath.Dir(p), "running.cfg")
		if _, err := os.Stat(path); err != nil {
			path = filepath.Join(filepath.Dir(p), "config_db.json")
		}
		file, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		size += int64(len(file))
		v, _ := vendors.Lookup(inv.Devices[0].Vendor)
		fx = append(fx, fixture{importer.Source{Device: inv.Devices[0], From: path}, file, v.Saved})
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		srcs := make([]importer.Source, len(fx))
		for i, f := range fx {
			run, err := f.save(f.file)
			if err != nil {
				b.Fatal(err)
			}
			srcs[i] = f.src
			srcs[i].Running, srcs[i].File = run, f.file
		}
		if r := importer.Import(srcs); len(r.Files[importer.File]) == 0 {
			b.Fatal("nothing written")
		}
	}
	b.ReportMetric(float64(len(fx)), "devices/op")
}
