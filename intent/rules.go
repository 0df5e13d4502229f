package intent

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent/bounded"
	"github.com/lossless-net/lossless/internal/diag"
)

// Rule IDs of the intent's diagnostics. They are stable: tools and users
// match on them, so a rule keeps its ID for good and a retired ID is never
// reused. The inventory owns LL100–LL199.
const (
	// Loading the module.
	RuleMissingUnit      diag.Rule = "LL001" // a bare number where a unit is needed
	RuleBadQuantity      diag.Rule = "LL002" // a size, rate, duration or percentage that does not parse
	RuleDuplicateBlock   diag.Rule = "LL003" // two blocks of one kind with one name
	RuleBadValue         diag.Rule = "LL004" // a value of the wrong type or outside its allowed set
	RuleVariable         diag.Rule = "LL005" // a variable without value, undeclared, or failing its validation
	RuleLocalCycle       diag.Rule = "LL006" // locals that refer to each other in a cycle
	RuleUnknownReference diag.Rule = "LL007" // a reference to a profile or port group that does not exist
	RuleMissingAttribute diag.Rule = "LL008" // a required attribute is absent
	RuleBadName          diag.Rule = "LL009" // an object name that is empty, too long or has a character outside A–Z a–z 0–9 _ - . :

	// Traffic classes and DSCP.
	RuleClassIDRange     diag.Rule = "LL010" // class id outside 0–7
	RuleDuplicateClassID diag.Rule = "LL011" // two classes with one id
	RuleDuplicateDSCP    diag.Rule = "LL012" // one DSCP in two classes
	RuleDSCPRange        diag.Rule = "LL013" // DSCP outside 0–63
	RuleDefaultClass     diag.Rule = "LL014" // no class, or more than one, takes the default DSCPs
	RuleTooManyLossless  diag.Rule = "LL015" // more lossless classes than the platform supports
	RulePFCWithoutClass  diag.Rule = "LL016" // a PFC priority with no lossless class
	RuleClassWithoutPFC  diag.Rule = "LL017" // a lossless class whose priority is not in the PFC priorities
	RulePFCPriorityPlat  diag.Rule = "LL018" // a PFC priority the platform cannot pause
	RuleUnsupportedTrust diag.Rule = "LL019" // a trust mode other than dscp or cos, or dscp values under trust = "cos"

	// Classification by CoS (802.1p).
	RuleCoSRange     diag.Rule = "LL025" // a CoS value outside 0–7
	RuleDuplicateCoS diag.Rule = "LL026" // one CoS value in two classes
	RuleDefaultCoS   diag.Rule = "LL027" // trust = "cos" with no class, or more than one, taking the default CoS values

	// ECN/WRED.
	RuleECNMinAboveMax   diag.Rule = "LL020" // ECN min threshold above max
	RuleECNAboveCapacity diag.Rule = "LL021" // ECN threshold above the queue or pool capacity
	RuleECNProbability   diag.Rule = "LL022" // marking probability outside 1–100
	RuleECNAboveXoff     diag.Rule = "LL023" // warning: ECN min at or above the PFC xoff threshold

	// Scheduling, CNP and MTU.
	RuleBandwidthSum  diag.Rule = "LL030" // bandwidth shares of weighted classes above 100 % (error) or below (warning)
	RuleLosslessCNP   diag.Rule = "LL031" // the CNP class is lossless
	RuleCNPNotStrict  diag.Rule = "LL032" // the CNP class is not strict priority
	RuleLosslessMTU   diag.Rule = "LL033" // a lossless MTU below the RoCE MTU
	RuleMTUPlatform   diag.Rule = "LL034" // an MTU outside the platform's range
	RuleSchedulingMix diag.Rule = "LL035" // strict and DWRR, or bandwidth and weight, on one class
	RuleCNPCount      diag.Rule = "LL036" // more than one CNP class
	RuleSharedName    diag.Rule = "LL038" // two classes share a class_map, or a scheduler or drop_profile name with different settings

	// Buffers and headroom.
	RuleHeadroomOverflow diag.Rule = "LL040" // lossless headroom of a device above the platform buffer
	RuleHeadroomXonXoff  diag.Rule = "LL041" // explicit xon above xoff
	RulePoolOverflow     diag.Rule = "LL042" // pools larger than the platform buffer
	RuleHeadroomCompute  diag.Rule = "LL043" // headroom cannot be computed for a port

	// Links.
	RuleLinkTrust    diag.Rule = "LL050" // link ends disagree on trust mode
	RuleLinkDSCPMap  diag.Rule = "LL051" // link ends disagree on the DSCP→TC map (the CoS→TC map when both trust CoS)
	RuleLinkLossless diag.Rule = "LL052" // link ends disagree on lossless priorities
	RuleLinkMTU      diag.Rule = "LL053" // link ends disagree on a lossless class MTU

	// PFC watchdog.
	RuleWatchdogRange  diag.Rule = "LL060" // watchdog time outside the vendor's range
	RuleWatchdogAction diag.Rule = "LL061" // watchdog action the vendor does not support

	// Assignment.
	RuleNoDeviceMatched    diag.Rule = "LL070" // warning: an assign block selects no device
	RuleAssignedTwice      diag.Rule = "LL071" // a device selected by two assign blocks
	RulePortNotInInventory diag.Rule = "LL072" // an assigned port the device does not have
	RuleBadPortPattern     diag.Rule = "LL073" // a port name or range that does not parse
	RuleOverrideUnmatched  diag.Rule = "LL074" // a device or port override that matches nothing assigned
	RulePortSpeed          diag.Rule = "LL075" // a port without the speed its headroom or thresholds need
	RuleUnassignedDevice   diag.Rule = "LL076" // warning: an inventory device no assign block selects

	// Rollout.
	RuleRolloutGate     diag.Rule = "LL080" // a rollout gate limit outside its range
	RuleRolloutAuditLog diag.Rule = "LL081" // a rollout audit_log that names no file

	// Bounded input, for the intent's files, its -var-file files and -var
	// values and the inventory alike; package bounded checks them and
	// says how each limit is counted.
	RuleFileSize = bounded.RuleFileSize // LL090: a file, or the files of one load together, larger than bounded.MaxFileSize (16 MiB)
	RuleNesting  = bounded.RuleNesting  // LL091: source or a value nested deeper than bounded.MaxNesting (128) levels
	RuleElements = bounded.RuleElements // LL092: a list, object, block, argument list, file or value of more than bounded.MaxElements (100,000) items, strings over bounded.MaxValueBytes, a number beyond 1e±331
	RuleBudget   = bounded.RuleBudget   // LL093: a load that reads more than bounded.MaxItems (1,000,000) items, or builds more than bounded.MaxBuilt (250,000) values or bounded.MaxBuiltBytes (64 MiB) of strings
)

// newDiag builds a diagnostic carrying rule in Extra.
func newDiag(sev hcl.DiagnosticSeverity, rule diag.Rule, summary, detail string, subject *hcl.Range, ctx *hcl.Range) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: sev, Summary: summary, Detail: detail, Extra: rule}
	if subject != nil {
		r := *subject
		d.Subject = &r
	}
	if ctx != nil {
		r := *ctx
		d.Context = &r
	}
	return d
}

func errorf(rule diag.Rule, summary string, subject, ctx *hcl.Range, detail string) *hcl.Diagnostic {
	return newDiag(hcl.DiagError, rule, summary, detail, subject, ctx)
}

func warnf(rule diag.Rule, summary string, subject, ctx *hcl.Range, detail string) *hcl.Diagnostic {
	return newDiag(hcl.DiagWarning, rule, summary, detail, subject, ctx)
}
