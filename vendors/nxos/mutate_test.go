package nxos

import (
	"flag"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lossless-net/lossless/inventory"
	render "github.com/lossless-net/lossless/renderers/nxos"
)

var mutations = flag.Int("nxos.mutations", 10000, "mutations TestImportMutations runs")

// TestImportMutations: configs mutated at random from the corpus, the
// golden renderings and the lab seed (lines dropped, repeated, swapped,
// a word replaced by a number or keyword) never make Import panic; what
// it returns renders; and when it lists nothing as unexpressed, the
// rendering diffs empty against the config: no line is dropped silently.
// Deterministic (a fixed seed); FuzzImport explores further.
//
// go test runs 10,000 mutations; -nxos.mutations=1000000 runs more by
// hand.
func TestImportMutations(t *testing.T) {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	canon := read("testdata/canonical.cfg")
	seeds := []string{canon, string(LabSeed([]byte(canon))), base}
	for _, g := range []string{"overrides/want/nxos1.cfg", "ai-fabric/want/leaf1.cfg", "two-lossless/want/nxos1.cfg", "lossy-roce/want/nxos1.cfg"} {
		seeds = append(seeds, read(filepath.Join("..", "..", "golden", g)))
	}
	files, err := filepath.Glob(filepath.Join(realWorld, "*", "running.cfg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		s, err := Saved([]byte(read(f)))
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, string(s))
	}
	r := rand.New(rand.NewSource(7))
	dev := &inventory.Device{Name: "leaf1", Vendor: Vendor}
	nums := []string{"0", "1", "3", "7", "8", "100", "101", "9216", "4000", "24", "50", "60", "15", "16", "64", "-1", "1099511627777", "kbytes", "mbytes", "ecn", "level", "match-all", "QOS_CLASSIFICATION", "QOS_EGRESS_PORT_x", "on", "off", "c-8q-nq3", "c-out-8q-q3"}
	for i := 0; i < *mutations; i++ {
		lines := strings.Split(seeds[r.Intn(len(seeds))], "\n")
		for m := 0; m < 1+r.Intn(4); m++ {
			j := r.Intn(len(lines))
			switch r.Intn(4) {
			case 0:
				lines = append(lines[:j], lines[j+1:]...)
			case 1:
				k := r.Intn(len(lines))
				lines = append(lines[:j], append([]string{lines[k]}, lines[j:]...)...)
			case 2:
				f := strings.Fields(lines[j])
				if len(f) > 0 {
					f[r.Intn(len(f))] = nums[r.Intn(len(nums))]
					ind := len(lines[j]) - len(strings.TrimLeft(lines[j], " "))
					lines[j] = strings.Repeat(" ", ind) + strings.Join(f, " ")
				}
			case 3:
				k := r.Intn(len(lines))
				lines[j], lines[k] = lines[k], lines[j]
			}
		}
		text := strings.Join(lines, "\n")
		im, err := Import(dev, []byte(text))
		if err != nil || im.QoS == nil {
			continue
		}
		doc, err := render.Render(fixtureIntent(dev, im))
		if err != nil {
			t.Fatalf("the import does not render: %v\n%s", err, text)
		}
		if len(im.Unexpressed) == 0 {
			ch, err := Diff("leaf1", []byte(text), doc)
			if err != nil {
				t.Fatal(err)
			}
			if !ch.Empty() {
				t.Fatalf("nothing unexpressed, but the rendering changes %q in:\n%s", ch.Commands, text)
			}
		}
	}
}
