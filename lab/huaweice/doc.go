// Package huaweice is the lab's Huawei CloudEngine personality: the
// `<HUAWEI>` / `[~HUAWEI]` / `[*HUAWEI]` CLI with its views, a data-driven
// grammar for the DCB/PFC, deadlock, buffer, DiffServ, drop-profile and
// interface QoS commands (reference/huawei-ce.md §2), the two-stage
// candidate with commit, commit trial and rollback (§4), display
// current-configuration with its filters (§5) and the error strings of §3.3.
//
// It registers the kind "huawei-ce" with [device.Register]. It knows nothing
// of SSH: the lab server feeds typed lines to a [device.Session]. The grammar
// comes from the reference, never from what a renderer emits.
package huaweice
