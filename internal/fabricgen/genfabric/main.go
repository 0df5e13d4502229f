// Command genfabric writes a generated fabric (package fabricgen) to a
// directory as intent.hcl and inventory.hcl, for timing the CLI on large
// fabrics:
//
//	go run ./internal/fabricgen/genfabric -devices 10000 -ports 64 -o /tmp/fabric
//	/usr/bin/time -v lossless validate /tmp/fabric
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lossless-net/lossless/internal/fabricgen"
	_ "github.com/lossless-net/lossless/vendors/all" // the vendors to generate
)

func main() {
	devices := flag.Int("devices", 10000, "number of devices")
	ports := flag.Int("ports", 64, "ports per device")
	out := flag.String("o", "", "output `DIR` (created if missing)")
	flag.Parse()
	if *out == "" || *devices < 1 || *ports < 1 {
		fmt.Fprintln(os.Stderr, "usage: genfabric [-devices N] [-ports N] -o DIR")
		os.Exit(1)
	}
	intent, inventory := fabricgen.Fabric(*devices, *ports)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "genfabric:", err)
		os.Exit(1)
	}
	for name, b := range map[string][]byte{"intent.hcl": intent, "inventory.hcl": inventory} {
		if err := os.WriteFile(filepath.Join(*out, name), b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "genfabric:", err)
			os.Exit(1)
		}
	}
}
