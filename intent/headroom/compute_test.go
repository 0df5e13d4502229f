package headroom

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/lossless-net/lossless/internal/units"
)

// Published figures: the lossless headroom tables NVIDIA (Mellanox) shipped
// for SONiC, in sonic-net/sonic-utilities scripts/mellanox_buffer_migrator.py,
// mellanox_default_parameter["version_1_0_4"]["headrooms"], "default"
// tables: profile size in bytes per speed and cable length, with xon 19456.
// size = xoff + xon, and xoff is rounded up to whole KB.
//
// The tables do not state the ASIC's fixed delays (MTU, MAC/PHY delay and
// peer response) that produced them. One set reproduces every row of both
// tables exactly: MTU 1500 and MAC/PHY + peer response = 12210 bytes (any
// value from 12200 to 12220 does). With that one constant shared by both
// ASIC generations, the 33 rows check what the model claims on its own:
// cable propagation both ways at 198,000,000 m/s, its scaling with speed,
// and the cell-occupancy factor of 96-byte (Spectrum-1: 2·96/97) and
// 144-byte (Spectrum-2: 144/64) cells.
//
// Tolerance: none. Both sides round xoff up to a whole KB, so the figures
// must match byte for byte.
var mellanoxTables = []struct {
	name string
	cell units.Bytes
	rows map[[2]int]units.Bytes // {Gb/s, metres} → size
}{
	{"Spectrum-1 (spc1_headroom)", 96, map[[2]int]units.Bytes{
		{10, 5}: 49152, {25, 5}: 49152, {40, 5}: 49152, {50, 5}: 49152, {100, 5}: 50176,
		{10, 40}: 49152, {25, 40}: 51200, {40, 40}: 52224, {50, 40}: 53248, {100, 40}: 58368,
		{10, 300}: 56320, {25, 300}: 67584, {40, 300}: 78848, {50, 300}: 86016, {100, 300}: 123904,
	}},
	{"Spectrum-2 (spc2_headroom)", 144, map[[2]int]units.Bytes{
		{10, 5}: 52224, {25, 5}: 52224, {40, 5}: 53248, {50, 5}: 53248, {100, 5}: 53248, {200, 5}: 55296,
		{10, 40}: 53248, {25, 40}: 55296, {40, 40}: 57344, {50, 40}: 58368, {100, 40}: 63488, {200, 40}: 74752,
		{10, 300}: 60416, {25, 300}: 73728, {40, 300}: 86016, {50, 300}: 95232, {100, 300}: 137216, {200, 300}: 223232,
	}},
}

func TestComputeMatchesMellanoxTables(t *testing.T) {
	for _, tab := range mellanoxTables {
		for key, want := range tab.rows {
			in := Input{
				Speed:             units.BitRate(key[0]) * units.Gbps,
				Cable:             units.Length(key[1]) * units.Metre,
				MTU:               1500,
				Cell:              tab.cell,
				MACPHYDelay:       819,   // 0.8 KB, asic_table.j2
				PeerResponseBytes: 11391, // 12210 − 819: see the comment above
				PipelineLatency:   19456,
				Granularity:       units.KB,
			}
			got, err := Compute(in)
			if err != nil {
				t.Fatal(err)
			}
			if got.Size != want || got.Xon != 19456 {
				t.Errorf("%s %dG %dm: size %d xon %d, published size %d xon 19456", tab.name, key[0], key[1], got.Size, got.Xon, want)
			}
		}
	}
}

// TestComputeWorkedExample follows today's SONiC script by hand for a
// 100G port, 5 m cable, MTU 9100 (SONiC's default), on Spectrum-2
// (144-byte cells): peer response = 394 quanta × 64 B = 25216 B (IEEE
// 802.3 31B.3.7), cable both ways = 2 × 5 × 1e11 / 1.98e8 / 8 = 631.31 B,
// MAC/PHY 819.2 B, occupancy 144/64 = 2.25:
// xoff = 9100 + 2.25 × (9100 + 631.31 + 819.2 + 25216) = 89574.65,
// 623 cells = 89712 B; xon = 19 KB = 19456 B → 136 cells = 19584 B.
func TestComputeWorkedExample(t *testing.T) {
	got, err := Compute(Input{Speed: 100 * units.Gbps, Cable: 5 * units.Metre, MTU: 9100, Cell: 144})
	if err != nil {
		t.Fatal(err)
	}
	if got.Xoff != 89712 || got.Xon != 19584 || got.Size != 89712+19584 {
		t.Errorf("got xoff %d xon %d size %d, want 89712 19584 109296", got.Xoff, got.Xon, got.Size)
	}
	var sum units.Bytes
	for _, term := range got.Terms {
		if term.Source == "" || term.Name == "" {
			t.Errorf("term %+v has no name or source", term)
		}
		if strings.HasPrefix(term.Name, "Xon") || strings.HasPrefix(term.Name, "size") {
			continue
		}
		sum += term.Bytes
	}
	if sum != got.Xoff {
		t.Errorf("xoff terms sum to %d, xoff is %d: %+v", sum, got.Xoff, got.Terms)
	}
	peer := got.Terms[len(got.Terms)-3] // peer response, rounding, Xon
	if !strings.Contains(peer.Source, "394 pause_quanta") {
		t.Errorf("peer response source %q does not cite the IEEE quanta", peer.Source)
	}
}

// TestComputeDefaultsAndOptions checks the rules a user relies on beyond
// the formula: unlisted speeds fall back to SONiC's 3.8 KB, 8-lane ports
// get the 8-lane adjustment, and every result is whole cells.
func TestComputeDefaultsAndOptions(t *testing.T) {
	r800, err := Compute(Input{Speed: 800 * units.Gbps, Cable: 3 * units.Metre, MTU: 9216, Cell: 192})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r800.Terms[4].Source, "3.8 KB") {
		t.Errorf("800G peer response: %+v, want the 3.8 KB fallback", r800.Terms[4])
	}
	lanes8, _ := Compute(Input{Speed: 800 * units.Gbps, Cable: 3 * units.Metre, MTU: 9216, Cell: 192, Lanes: 8})
	// Xon = 2 × 19 KB − 1 KB = 37888 B = 197.33 cells of 192 → 198 cells = 38016 B; size adds one MTU (48 cells).
	if lanes8.Xon != 38016 || lanes8.Size != lanes8.Xoff+38016+9216 || lanes8.Xoff != r800.Xoff {
		t.Errorf("8-lane: xoff %d xon %d size %d", lanes8.Xoff, lanes8.Xon, lanes8.Size)
	}
	for _, speed := range []units.BitRate{10, 25, 40, 50, 100, 200, 400, 800} {
		prev := units.Bytes(0)
		for _, m := range []units.Length{0, 1, 3, 5, 40, 300, 2000} {
			r, err := Compute(Input{Speed: speed * units.Gbps, Cable: m * units.Metre, MTU: 9216, Cell: 254})
			if err != nil {
				t.Fatal(err)
			}
			if r.Xoff%254 != 0 || r.Xon%254 != 0 || r.Size%254 != 0 {
				t.Errorf("%dG %dm: not whole cells: %+v", speed, m, r)
			}
			if r.Xoff < prev {
				t.Errorf("%dG: xoff shrinks from %d to %d at %dm", speed, prev, r.Xoff, m)
			}
			prev = r.Xoff
		}
	}
	// PeerResponse 2 µs at 100G is 25000 B; × occupancy 2·96/97 = 49484.5 → 49485.
	custom, _ := Compute(Input{Speed: 100 * units.Gbps, MTU: 1500, Cell: 96, PeerResponse: 2 * time.Microsecond})
	if p := custom.Terms[4]; p.Bytes != 49485 || !strings.Contains(p.Source, "2µs") {
		t.Errorf("peer response from PeerResponse: %+v, want 49485 B", p)
	}
}

func TestComputeRejectsBadInput(t *testing.T) {
	ok := Input{Speed: 100 * units.Gbps, Cable: units.Metre, MTU: 9216, Cell: 208}
	for _, tt := range []struct {
		name string
		mod  func(*Input)
	}{
		{"zero speed", func(in *Input) { in.Speed = 0 }},
		{"zero mtu", func(in *Input) { in.MTU = 0 }},
		{"zero cell", func(in *Input) { in.Cell = 0 }},
		{"negative cable", func(in *Input) { in.Cable = -1 }},
		{"negative peer", func(in *Input) { in.PeerResponse = -time.Nanosecond }},
		{"share above 100", func(in *Input) { in.SmallPacketPercent = 101 }},
	} {
		in := ok
		tt.mod(&in)
		if _, err := Compute(in); !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: err %v, want ErrBadInput", tt.name, err)
		}
	}
	if _, err := Compute(ok); err != nil {
		t.Errorf("valid input: %v", err)
	}
}

func BenchmarkCompute(b *testing.B) {
	in := Input{Speed: 400 * units.Gbps, Cable: 30 * units.Metre, MTU: 9216, Cell: 254}
	for b.Loop() {
		if _, err := Compute(in); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleCompute() {
	r, _ := Compute(Input{Speed: 100 * units.Gbps, Cable: 5 * units.Metre, MTU: 9100, Cell: 144})
	fmt.Println(r.Xoff, r.Xon, r.Size)
	// Output: 89712B 19584B 109296B
}

// TestComputeMatchesRationalReference checks the 128-bit integer
// arithmetic against the exact math/big implementation it replaced, over
// a grid of speeds, cables, MTUs, cells and options, term by term.
func TestComputeMatchesRationalReference(t *testing.T) {
	n := 0
	for _, speed := range []units.BitRate{units.Gbps, 10 * units.Gbps, 25 * units.Gbps, 100 * units.Gbps, 200 * units.Gbps, 400 * units.Gbps, 800 * units.Gbps, 1600 * units.Gbps, 2500 * units.Mbps} {
		for _, cable := range []units.Length{0, 1, 500, 2500, 5 * units.Metre, 40 * units.Metre, 300 * units.Metre, 2000 * units.Metre, 100000 * units.Metre} {
			for _, mtu := range []units.Bytes{1500, 4200, 9100, 9216} {
				for _, cell := range []units.Bytes{80, 96, 128, 144, 192, 208, 254, 256, 320, 416} {
					for _, opt := range []Input{{}, {SmallPacketPercent: 37}, {Lanes: 8}, {PeerResponse: 1337 * time.Nanosecond, Gearbox: 250 * time.Nanosecond}, {MACPHYDelay: 1000, PeerResponseBytes: 7777, PipelineLatency: 20000, Granularity: 1024}} {
						in := opt
						in.Speed, in.Cable, in.MTU, in.Cell = speed, cable, mtu, cell
						got, err1 := Compute(in)
						want, err2 := referenceCompute(in)
						if err1 != nil || err2 != nil {
							t.Fatalf("%+v: %v / %v", in, err1, err2)
						}
						if got.Xoff != want.Xoff || got.Xon != want.Xon || got.Size != want.Size || len(got.Terms) != len(want.Terms) {
							t.Fatalf("%+v: got %d/%d/%d, reference %d/%d/%d", in, got.Xoff, got.Xon, got.Size, want.Xoff, want.Xon, want.Size)
						}
						for i := range got.Terms {
							if got.Terms[i].Bytes != want.Terms[i].Bytes {
								t.Fatalf("%+v: term %q %d, reference %d", in, got.Terms[i].Name, got.Terms[i].Bytes, want.Terms[i].Bytes)
							}
						}
						n++
					}
				}
			}
		}
	}
	t.Logf("%d inputs match", n)
}

func FuzzCompute(f *testing.F) {
	f.Add(int64(100e9), int64(5000), int64(9100), int64(144), int64(0), int64(0), 0)
	f.Fuzz(func(t *testing.T, speed, cable, mtu, cell, peerNs, gearNs int64, lanes int) {
		in := Input{Speed: units.BitRate(speed), Cable: units.Length(cable), MTU: units.Bytes(mtu), Cell: units.Bytes(cell),
			PeerResponse: time.Duration(peerNs), Gearbox: time.Duration(gearNs), Lanes: lanes}
		got, err := Compute(in)
		if err != nil {
			return
		}
		want, err := referenceCompute(in)
		if err != nil || got.Xoff != want.Xoff || got.Xon != want.Xon || got.Size != want.Size {
			t.Fatalf("%+v: got %+v, reference %+v (%v)", in, got, want, err)
		}
	})
}
