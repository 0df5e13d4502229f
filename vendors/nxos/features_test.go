package nxos

import (
	"strings"
	"testing"

	"github.com/lossless-net/lossless/vendors"
	"github.com/lossless-net/lossless/vendors/vendortest"
)

// TestApplyFeatures: on the lab, each change to a feature renderers/nxos
// renders (match type, CoS classification, bandwidth percent, PFC mode
// off and auto, the options send-tlv and no class-default) plans, applies, and plans empty again; so does going
// back to the canonical rendering.
func TestApplyFeatures(t *testing.T) {
	canon := canonicalText(t)
	steps := []struct {
		name string
		r    *strings.Replacer
	}{
		{"match all", strings.NewReplacer("class-map type qos match-any ROCEv2", "class-map type qos match-all ROCEv2")},
		{"trust cos", strings.NewReplacer("match dscp 24,26", "match cos 3", "match dscp 48", "match cos 7")},
		{"bandwidth percent beside remaining shares", strings.NewReplacer("    priority level 1", "    bandwidth percent 1",
			"c-out-8q-q-default\n    bandwidth remaining percent 50", "c-out-8q-q-default\n    bandwidth remaining percent 48")},
		{"a queue from a remaining share to bandwidth percent", strings.NewReplacer("c-out-8q-q3\n    bandwidth remaining percent 50", "c-out-8q-q3\n    bandwidth percent 10")},
		{"pfc mode off", strings.NewReplacer("priority-flow-control mode on", "priority-flow-control mode off")},
		{"pfc mode auto", strings.NewReplacer("  priority-flow-control mode on\n", "")},
		// The options renderers/nxos takes for the Azure Local forms.
		{"send-tlv", strings.NewReplacer("priority-flow-control mode on", "priority-flow-control mode on send-tlv")},
		{"no class-default", strings.NewReplacer("  class class-default\n    set qos-group 0\n", "")},
		{"all at once", strings.NewReplacer("class-map type qos match-any ROCEv2", "class-map type qos match-all ROCEv2",
			"match dscp 24,26", "match cos 3", "match dscp 48", "match cos 7", "    priority level 1", "    bandwidth percent 1",
			"priority-flow-control mode on", "priority-flow-control mode off")},
		{"back to the canonical rendering", strings.NewReplacer()},
	}
	ctx := t.Context()
	_, tgt := vendortest.StartLab(t, Vendor, LabSeed([]byte(canon)))
	for _, st := range steps {
		want := st.r.Replace(canon)
		if st.name != "back to the canonical rendering" && want == canon {
			t.Fatalf("%s: the replacement changes nothing", st.name)
		}
		desired := document(t, want)
		drv, ch := vendortest.Plan(t, ctx, Dial, tgt, desired)
		if ch.Empty() {
			t.Fatalf("%s: plan is empty", st.name)
		}
		if res := drv.Apply(ctx, ch, vendors.ApplyOptions{}); res.Err != nil || !res.Applied {
			t.Fatalf("%s: apply %q: %+v", st.name, ch.Commands, res)
		}
		_, again := vendortest.Plan(t, ctx, Dial, tgt, desired)
		vendortest.Converged(t, again)
	}
}
