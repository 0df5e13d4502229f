package rollout

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/plan"
)

// Size is a batch size: a device count, or a percentage of the devices
// of the rollout (rounded up, at least one device).
type Size struct {
	N       int
	Percent int
}

// ParseSize parses "N" or "P%".
func ParseSize(s string) (Size, error) {
	if p, ok := strings.CutSuffix(s, "%"); ok {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 100 {
			return Size{}, fmt.Errorf("parse batch %q: want a percentage from 1%% to 100%%", s)
		}
		return Size{Percent: n}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return Size{}, fmt.Errorf("parse batch %q: want a device count ≥ 1 or a percentage P%%", s)
	}
	return Size{N: n}, nil
}

// of returns the batch size for total devices; the zero Size is all of
// them.
func (s Size) of(total int) int {
	switch {
	case s.N > 0:
		return s.N
	case s.Percent > 0:
		return max(1, (total*s.Percent+99)/100)
	}
	return max(1, total)
}

// String returns the size as written.
func (s Size) String() string {
	if s.Percent > 0 {
		return strconv.Itoa(s.Percent) + "%"
	}
	return strconv.Itoa(s.N)
}

// ParseOrder checks an order list: each item is "role:R" or "tag:T".
func ParseOrder(items []string) error {
	for _, it := range items {
		k, v, ok := strings.Cut(it, ":")
		if !ok || v == "" || (k != "role" && k != "tag") {
			return fmt.Errorf("parse order %q: want role:NAME or tag:NAME", it)
		}
	}
	return nil
}

// Order sorts devices by the first order item they match (devices
// matching none come last), then by name.
func Order(devs []plan.Device, order []string) []plan.Device {
	rank := func(d plan.Device) int {
		for i, it := range order {
			k, v, _ := strings.Cut(it, ":")
			if (k == "role" && slices.Contains(d.Intent.Roles, v)) || (k == "tag" && slices.Contains(d.Intent.Tags, v)) {
				return i
			}
		}
		return len(order)
	}
	out := slices.Clone(devs)
	slices.SortStableFunc(out, func(a, b plan.Device) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a.Intent.Name, b.Intent.Name)
	})
	return out
}

// Split cuts ordered devices into batches: the first canary devices
// alone, then batches of size (counted on all the devices).
func Split(devs []plan.Device, canary int, size Size) [][]plan.Device {
	var out [][]plan.Device
	if canary > 0 {
		c := min(canary, len(devs))
		out = append(out, devs[:c])
		devs = devs[c:]
	}
	n := size.of(len(devs) + max(canary, 0))
	for len(devs) > 0 {
		c := min(n, len(devs))
		out = append(out, devs[:c])
		devs = devs[c:]
	}
	return out
}
