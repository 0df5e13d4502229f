// Package inventory loads the devices lossless manages — vendor, platform,
// management address and transport, a credentials reference, roles and
// tags, ports with speed and cable length, and the links between ports —
// from an inventory HCL file or a containerlab topology (*.clab.yml).
//
// It checks what it can without the intent: names, vendors, platforms,
// addresses, port ranges, links and secrets. Every problem is an
// hcl.Diagnostic carrying a rule ID LL100–LL199 (see rules.go) and the
// source range of the value at fault. It reads the inventory file and
// nothing else: credentials hold the names of environment variables and
// files, never their content.
//
// Port names are written as ranges and expanded by [ExpandPorts]; see its
// documentation for the grammar.
package inventory
