package units

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// Bytes is a buffer size in bytes. KB is 1024 bytes (the vendors' "kbytes").
type Bytes int64

// Size multiples. KB is 1024 B, as NX-OS and EOS "kbytes" and Huawei's
// kbytes are (reference/sonic.md §4 fixes the same meaning).
const (
	B  Bytes = 1
	KB Bytes = 1024
	MB Bytes = 1024 * KB
	GB Bytes = 1024 * MB
)

// BitRate is a line rate in bits per second.
type BitRate int64

// Common line rates.
const (
	Gbps BitRate = 1_000_000_000
	Mbps BitRate = 1_000_000
)

// Length is a cable length in millimetres.
type Length int64

// Metre is one metre as a Length.
const Metre Length = 1000

// Percent is a whole percentage, 0 to 100 for probabilities and bandwidth
// shares.
type Percent int

// ErrNoUnit is returned (wrapped) when a quantity that needs a unit has none.
var ErrNoUnit = errors.New("missing unit")

// ParseBytes parses a size: a non-negative number followed by B, KB, MB or
// GB ("150KB", "1.5MB", "9216B"). Cells need the platform's cell size and are
// parsed by ParseBytesOrCells. The result must be a whole number of bytes.
func ParseBytes(s string) (Bytes, error) {
	v, unit, err := split(s)
	if err != nil {
		return 0, err
	}
	var mul Bytes
	switch strings.ToUpper(unit) {
	case "B":
		mul = B
	case "KB":
		mul = KB
	case "MB":
		mul = MB
	case "GB":
		mul = GB
	case "":
		return 0, fmt.Errorf("size %q: %w: write it as %sB, %sKB or %sMB", s, ErrNoUnit, v.RatString(), v.RatString(), v.RatString())
	default:
		return 0, fmt.Errorf("size %q: unknown unit %q: use B, KB (1024 B), MB or cells", s, unit)
	}
	n, err := whole(v, int64(mul))
	if err != nil {
		return 0, fmt.Errorf("size %q: %v", s, err)
	}
	return Bytes(n), nil
}

// ParseBytesOrCells parses a size that may also be given in cells ("480cells"),
// converted with the given cell size. A zero cell size makes cells an error.
func ParseBytesOrCells(s string, cell Bytes) (Bytes, error) {
	v, unit, err := split(s)
	if err != nil {
		return 0, err
	}
	if strings.EqualFold(unit, "cells") || strings.EqualFold(unit, "cell") {
		if cell <= 0 {
			return 0, fmt.Errorf("size %q: cells need the platform's cell size, which is unknown here: give the size in B or KB", s)
		}
		n, err := whole(v, int64(cell))
		if err != nil {
			return 0, fmt.Errorf("size %q: %v", s, err)
		}
		return Bytes(n), nil
	}
	return ParseBytes(s)
}

// ParseBitRate parses a line rate: a number followed by G, Gbps, M or Mbps
// ("100G", "400G", "25Gbps").
func ParseBitRate(s string) (BitRate, error) {
	v, unit, err := split(s)
	if err != nil {
		return 0, err
	}
	var mul BitRate
	switch strings.ToUpper(unit) {
	case "G", "GBPS", "GB/S":
		mul = Gbps
	case "M", "MBPS", "MB/S":
		mul = Mbps
	case "":
		return 0, fmt.Errorf("rate %q: %w: write it as %sG", s, ErrNoUnit, v.RatString())
	default:
		return 0, fmt.Errorf("rate %q: unknown unit %q: use G or M (for example \"100G\")", s, unit)
	}
	n, err := whole(v, int64(mul))
	if err != nil {
		return 0, fmt.Errorf("rate %q: %v", s, err)
	}
	return BitRate(n), nil
}

// ParseLength parses a cable length in metres ("5m", "2.5m", "300m").
func ParseLength(s string) (Length, error) {
	v, unit, err := split(s)
	if err != nil {
		return 0, err
	}
	switch strings.ToLower(unit) {
	case "m":
	case "":
		return 0, fmt.Errorf("length %q: %w: write it as %sm", s, ErrNoUnit, v.RatString())
	default:
		return 0, fmt.Errorf("length %q: unknown unit %q: use m (metres)", s, unit)
	}
	n, err := whole(v, int64(Metre))
	if err != nil {
		return 0, fmt.Errorf("length %q: %v", s, err)
	}
	return Length(n), nil
}

// ParseDuration parses a duration with unit us, ms or s ("20us", "200ms").
func ParseDuration(s string) (time.Duration, error) {
	v, unit, err := split(s)
	if err != nil {
		return 0, err
	}
	var mul time.Duration
	switch strings.ToLower(unit) {
	case "ns":
		mul = time.Nanosecond
	case "us", "µs":
		mul = time.Microsecond
	case "ms":
		mul = time.Millisecond
	case "s":
		mul = time.Second
	case "":
		return 0, fmt.Errorf("duration %q: %w: write it as %sms or %sus", s, ErrNoUnit, v.RatString(), v.RatString())
	default:
		return 0, fmt.Errorf("duration %q: unknown unit %q: use us, ms or s", s, unit)
	}
	n, err := whole(v, int64(mul))
	if err != nil {
		return 0, fmt.Errorf("duration %q: %v", s, err)
	}
	return time.Duration(n), nil
}

// ParsePercent parses a whole percentage with a % sign ("50%").
func ParsePercent(s string) (Percent, error) {
	v, unit, err := split(s)
	if err != nil {
		return 0, err
	}
	switch unit {
	case "%":
	case "":
		return 0, fmt.Errorf("percentage %q: %w: write it as %s%%", s, ErrNoUnit, v.RatString())
	default:
		return 0, fmt.Errorf("percentage %q: unknown unit %q: use %%", s, unit)
	}
	n, err := whole(v, 1)
	if err != nil {
		return 0, fmt.Errorf("percentage %q: %v", s, err)
	}
	return Percent(n), nil
}

// split separates the leading decimal number from its unit suffix.
func split(s string) (*big.Rat, string, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	if i == 0 {
		return nil, "", fmt.Errorf("%q is not a number with a unit", s)
	}
	num := t[:i]
	if strings.Count(num, ".") > 1 || strings.HasSuffix(num, ".") || strings.HasPrefix(num, ".") {
		return nil, "", fmt.Errorf("%q is not a number with a unit", s)
	}
	v, ok := new(big.Rat).SetString(num)
	if !ok {
		return nil, "", fmt.Errorf("%q is not a number with a unit", s)
	}
	return v, strings.TrimSpace(t[i:]), nil
}

// whole returns v*mul when it is a whole number that fits an int64.
func whole(v *big.Rat, mul int64) (int64, error) {
	p := new(big.Rat).Mul(v, new(big.Rat).SetInt64(mul))
	if !p.IsInt() {
		return 0, errors.New("not a whole number of the base unit")
	}
	n := p.Num()
	if !n.IsInt64() {
		return 0, errors.New("too large")
	}
	return n.Int64(), nil
}

// String prints b in the largest unit that divides it exactly ("150KB").
func (b Bytes) String() string {
	switch {
	case b != 0 && b%GB == 0:
		return strconv.FormatInt(int64(b/GB), 10) + "GB"
	case b != 0 && b%MB == 0:
		return strconv.FormatInt(int64(b/MB), 10) + "MB"
	case b != 0 && b%KB == 0:
		return strconv.FormatInt(int64(b/KB), 10) + "KB"
	}
	return strconv.FormatInt(int64(b), 10) + "B"
}

// Cells returns b as a whole number of cells of the given size, or an error
// when b is not a multiple of cell. Use CeilCells to round up on purpose.
func (b Bytes) Cells(cell Bytes) (int64, error) {
	if cell <= 0 {
		return 0, fmt.Errorf("cell size must be positive, got %d", cell)
	}
	if b%cell != 0 {
		return 0, fmt.Errorf("%s is not a whole number of %d-byte cells", b, cell)
	}
	return int64(b / cell), nil
}

// CeilCells returns the number of cells of the given size needed to hold b,
// rounding up; the caller reports the rounding.
func (b Bytes) CeilCells(cell Bytes) int64 {
	if cell <= 0 {
		return 0
	}
	return int64((b + cell - 1) / cell)
}

// Ceil rounds b up to a multiple of unit.
func (b Bytes) Ceil(unit Bytes) Bytes {
	if unit <= 0 {
		return b
	}
	return Bytes(b.CeilCells(unit)) * unit
}

// String prints r in G or M ("100G").
func (r BitRate) String() string {
	if r != 0 && r%Gbps == 0 {
		return strconv.FormatInt(int64(r/Gbps), 10) + "G"
	}
	if r != 0 && r%Mbps == 0 {
		return strconv.FormatInt(int64(r/Mbps), 10) + "M"
	}
	return strconv.FormatInt(int64(r), 10) + "bps"
}

// BytesIn returns how many bytes r carries in d, rounded up.
func (r BitRate) BytesIn(d time.Duration) Bytes {
	bits := new(big.Int).Mul(big.NewInt(int64(r)), big.NewInt(int64(d)))
	den := big.NewInt(8 * int64(time.Second))
	q, m := new(big.Int).QuoRem(bits, den, new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return Bytes(math.MaxInt64)
	}
	return Bytes(q.Int64())
}

// String prints l in metres ("5m", "2.5m").
func (l Length) String() string {
	return strconv.FormatFloat(float64(l)/float64(Metre), 'f', -1, 64) + "m"
}

// Meters returns l in metres.
func (l Length) Meters() float64 { return float64(l) / float64(Metre) }

// String prints p with its sign ("50%").
func (p Percent) String() string { return strconv.Itoa(int(p)) + "%" }
