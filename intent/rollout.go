package intent

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// MaxGateRate is the largest per-second limit a rollout gate accepts, the
// order of what one port can carry: a limit far above it could never trip.
// A PFC frame is a 64-byte MAC Control frame (IEEE 802.3-2022 Annex 31D;
// addresses 12, type 0x8808 2, opcode 0x0101 2, enable vector 2, eight
// quanta 16, padding 26, FCS 4, as Altera's 10G MAC guide, appendix A.4,
// draws it), 84 bytes on the wire with preamble and inter-frame gap, so an
// 800 Gb/s port carries at most 800e9 / (84 × 8) ≈ 1.19e9 per second.
const MaxGateRate = 1e9

// MaxGateWatchdog is the largest PFC watchdog event limit a rollout gate
// accepts (the usual limit is 0).
const MaxGateWatchdog = 1 << 31

// Rollout is the intent's rollout block: the fabric's defaults for a
// staged apply. Each value is nil or "" when the intent leaves it out, and
// an apply flag given on the command line wins over it.
type Rollout struct {
	// AuditLog is the audit log path as written; a relative path is
	// relative to the intent directory (AuditPath joins it).
	AuditLog      string
	AuditLogRange hcl.Range
	// Gate is the gate block; nil when there is none.
	Gate      *RolloutGate
	DeclRange hcl.Range
}

// RolloutGate is the gate block of a rollout block: health gates run
// between batches, with these limits. A nil limit takes apply's default.
type RolloutGate struct {
	// MaxPause is the most PFC pause frames (sent plus received) per
	// second per port, greater than 0 and at most MaxGateRate.
	MaxPause *float64
	// MaxDrops is the most queue/no-buffer drops per second per port,
	// greater than 0 and at most MaxGateRate.
	MaxDrops *float64
	// MaxWatchdog is the most PFC watchdog events per port during a
	// batch, 0 to MaxGateWatchdog.
	MaxWatchdog *uint64
	DeclRange   hcl.Range
}

// AuditPath returns the audit log path with a relative path joined to the
// intent directory dir; "" when the intent sets none.
func (r *Rollout) AuditPath(dir string) string {
	if r == nil || r.AuditLog == "" {
		return ""
	}
	if filepath.IsAbs(r.AuditLog) {
		return filepath.Clean(r.AuditLog)
	}
	return filepath.Join(dir, r.AuditLog)
}

var rolloutGateSchema = &schema{attrs: []string{"max_pause", "max_drops", "max_watchdog"}}

// rolloutSchema is the body of the top-level rollout block.
var rolloutSchema = &schema{
	attrs:  []string{"audit_log"},
	blocks: map[string]blockSchema{"gate": {body: rolloutGateSchema}},
}

// decodeRollouts decodes the rollout blocks of a module: at most one.
func decodeRollouts(blocks []*hcl.Block, ctx *hcl.EvalContext) (*Rollout, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	var out *Rollout
	for _, b := range blocks {
		if out != nil {
			diags = append(diags, errorf(RuleDuplicateBlock, "Duplicate rollout block", &b.DefRange, &b.DefRange,
				fmt.Sprintf("The intent already has a rollout block at %s, and a fabric has one. Merge the two or remove one.", out.DeclRange)))
			continue
		}
		body, d := readBody(b.Body, rolloutSchema, ctx)
		diags = append(diags, d...)
		ro, d := decodeRollout(body, b.DefRange)
		diags = append(diags, d...)
		out = ro
	}
	return out, diags
}

func decodeRollout(body *Body, decl hcl.Range) (*Rollout, hcl.Diagnostics) {
	r := &reader{body: body, ctx: &decl}
	ro := &Rollout{DeclRange: decl}
	if s, a := r.str("audit_log"); a != nil {
		switch {
		case strings.TrimSpace(s) == "":
			r.fail(RuleRolloutAuditLog, "Invalid audit_log", a,
				"audit_log is the file apply appends its audit lines to: a path such as \"audit/lossless.jsonl\", relative to the intent directory. Remove it for no audit log.")
		case strings.HasSuffix(s, "/") || strings.HasSuffix(s, string(filepath.Separator)) || filepath.Base(filepath.Clean(s)) == "." || filepath.Base(filepath.Clean(s)) == "..":
			r.fail(RuleRolloutAuditLog, "Invalid audit_log", a,
				fmt.Sprintf("audit_log %q names a directory; it must name a file, such as %q.", s, filepath.Join(s, "lossless.jsonl")))
		default:
			ro.AuditLog, ro.AuditLogRange = s, a.Range
		}
	}
	for _, gb := range body.Blocks {
		if gb.Type == "gate" {
			ro.Gate = decodeRolloutGate(r, gb)
		}
	}
	return ro, r.diags
}

func decodeRolloutGate(parent *reader, b *Block) *RolloutGate {
	r := &reader{body: b.Body, ctx: &b.DefRange}
	defer func() { parent.diags = append(parent.diags, r.diags...) }()
	g := &RolloutGate{DeclRange: b.DefRange}
	rate := func(name, what string) *float64 {
		a := r.attr(name)
		if a == nil {
			return nil
		}
		v, ok := number(a.Value)
		if !ok || v <= 0 || v > MaxGateRate {
			r.fail(RuleRolloutGate, "Invalid "+name, a,
				fmt.Sprintf("%s is the most %s per second per port that a batch may cause: a number greater than 0 and at most %.0f. Remove it for apply's default; for none at all write a tiny rate such as 0.001, as 0 would mean no limit.", name, what, float64(MaxGateRate)))
			return nil
		}
		return &v
	}
	g.MaxPause = rate("max_pause", "PFC pause frames (sent plus received)")
	g.MaxDrops = rate("max_drops", "queue/no-buffer drops")
	if a := r.attr("max_watchdog"); a != nil {
		v, ok := number(a.Value)
		if !ok || v < 0 || v > MaxGateWatchdog || v != float64(uint64(v)) {
			r.fail(RuleRolloutGate, "Invalid max_watchdog", a,
				fmt.Sprintf("max_watchdog is the most PFC watchdog events per port during a batch: a whole number from 0 (the usual limit) to %d.", uint64(MaxGateWatchdog)))
		} else {
			n := uint64(v)
			g.MaxWatchdog = &n
		}
	}
	return g
}

// number converts v to a finite float64.
func number(v cty.Value) (float64, bool) {
	nv, err := convert.Convert(v, cty.Number)
	if err != nil || nv.IsNull() {
		return 0, false
	}
	bf := nv.AsBigFloat()
	if bf.IsInf() {
		return 0, false
	}
	f, _ := bf.Float64()
	return f, true
}
