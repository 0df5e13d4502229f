// Package intent decodes, checks and resolves the HCL intent into a desired
// state per device. It reads the intent files and nothing else: the devices
// come from package inventory, and vendor syntax belongs to the renderers.
//
// Load reads a directory of *.hcl files as one module (variables, locals,
// go-cty stdlib functions, qos_profile, buffer_profile, port_group and
// assign blocks) into a Fabric. Resolve joins a Fabric with an inventory
// into one Device (state.go) per assigned device, every value in a base
// unit and every lossless port's headroom computed, and runs the semantic
// checks. Problems are hcl.Diagnostics whose Extra carries a diag.Rule
// (LL001–LL099, listed in rules.go).
package intent
