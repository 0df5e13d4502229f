// Package huaweice is the lab's Huawei CloudEngine personality: the
// `<HUAWEI>` / `[~HUAWEI]` / `[*HUAWEI]` CLI with its views and Y/N
// questions, a data-driven grammar (one table of entries per view, with
// argument ranges per chip family A or B) for the DCB/PFC, deadlock,
// buffer, DiffServ, drop-profile and interface QoS commands of
// reference/huawei-ce.md §2, the port-group bulk form, `undo` negation, the
// per-session candidate with commit, commit trial (also persistent),
// conflicts between sessions and rollback configuration (§4), the
// session's configuration lock `configuration exclusive` with its 30 s idle
// timeout, released when the session drops (lock.go, from the V300R023
// command reference), timers a test can run out at once (WithAfterFunc,
// (*Device).SetAfterFunc), display
// current-configuration with its filters (§5), which leaves out lines equal
// to a default the reference's tables give (§1.1; the V300R023 command
// reference: "does not display parameters that use default settings") and
// marks them "~" with include-default, and the error strings of §3.3 with
// their caret line.
//
// Beside the QoS grammar it takes the common non-QoS configuration of a
// data-centre switch (wholeconfig.go, issue 14: interface L2/L3 lines,
// logical interfaces, vlan batch, VPN instances, aaa, bgp, prefix lists,
// route policies, ACLs, ntp, info-center, telnet/stelnet/ssh), at the depth
// needed to keep a line's place and print it back, from public CE configs
// cited there; a line it does not know is refused with the CLI's error. Its
// normalisation of a whole running config is written down there: the
// header lines are the lab's own, sections print in the lab's rank order,
// runs of spaces in free text become one, VLAN lists print sorted with runs
// as "A to B", a group-member range prints port by port, and interfaces
// with nothing configured are not printed unless they are logical ones the
// config created. Every fixture of the real-world corpus
// (testdata/realworld/huaweice) prints back equal modulo the rules
// written down at normaliseCorpus (corpus_test.go), each with its source.
//
// It registers the kind "huawei-ce" with [device.Register]. It knows nothing
// of SSH: the lab server feeds typed lines to a [device.Session] and pages
// long output through [device.Pager]. The grammar comes from the
// reference, never from what a renderer emits. Texts the reference does
// not give (a failed commit, a conflict) are marked [I] where they are
// defined.
package huaweice
