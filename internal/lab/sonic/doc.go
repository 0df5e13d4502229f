// Package sonic is the lab's SONiC personality: the `admin@sonic:~$` bash
// shell with sudo, `show runningconfiguration all`, `config apply-patch
// [--dry-run]` (RFC 6902 JSON Patch over CONFIG_DB, checked by GCU's
// field-operation validators and by SONiC YANG, then sorted into GCU's
// changes and written change by change, key by key, turning a port admin
// down around changes of its buffer and QoS rows as GCU does: gcu.go;
// Device.Watch sees every write; Device.DropSessionAfter kills the
// command with its session after a chosen change, as a dropped SSH
// session or a killed client does: hangup.go), `config checkpoint`,
// `rollback`, `replace`, `save` and `load`, and heredoc uploads of patch files
// (reference/sonic.md §7, §8).
//
// The operator's QoS tools of sonic-utilities write CONFIG_DB as they do,
// with mod_entry and set_entry straight to redis (no YANG, no GCU):
// `ecnconfig -l | -p PROFILE -gmin … | -q 3,4 [on|off]` (tools.go),
// `pfc config priority|asymmetric`, `pfc show priority|asymmetric`,
// `pfcwd start|stop|interval|start_default|counter_poll|big_red_switch|
// pfc_stat_history|show config` (pfcwd.go), and `show pfc priority`, `show
// pfcwd config`, `show version` (version.go), and the `config ecn`,
// `config pfcwd …` and `config interface pfc …` wrappers, with python-tabulate's
// tables (tabulate.go). A command's output can be piped to `grep` and
// `head`.
//
// YANG validation runs in-process: the modules of shared/yang/sonic are
// embedded and parsed with goyang; types, patterns, ranges, enumerations,
// leafrefs, mandatory leaves and the must expressions of the QoS modules
// are checked, with libyang's messages. The device also implements
// [device.ConfigDB] for the gNMI target and [device.Checkpointer].
//
// It registers the kind "sonic" with [device.Register]. It never imports
// the renderers: its rules come from the reference and the YANG.
package sonic
