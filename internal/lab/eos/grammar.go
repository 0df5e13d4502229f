package eos

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/lossless-net/lossless/internal/lab/grammar"
)

// Top-level ranks: the order of AVD's eos-intended-config.j2
// (python-avd/pyavd/_eos_cli_config_gen/j2templates, which AVD keeps "to
// match with EOS", eos.md §2.1), which a real cEOS running config follows
// too (scrapligo v1.4.3 test-fixtures/golden/functional-send-command-
// simple-arista_eos-standard-out.txt: no aaa root, username, transceiver,
// service routing, hostname, spanning-tree, management api, interfaces,
// ip routing, ip route). One-line commands of the same tens print as one
// group; "!" separates different tens and every stanza.
const (
	rankEnablePw    = 100
	rankAAARoot     = 101
	rankUsername    = 110
	rankDaemon      = 120
	rankVlanOrder   = 130
	rankTransceiver = 140
	rankSvcRouting  = 150
	rankLogging     = 160
	rankMMUProfile  = 170
	rankHostname    = 180
	rankDomain      = 181
	rankNameServer  = 182
	rankDNSDomain   = 183
	rankQoSProfile  = 190
	rankSTP         = 200
	rankVlan        = 210
	rankVRF         = 220
	rankMgmtAPI     = 230
	rankEthernet    = 241
	rankACL         = 250
	rankIPRouting   = 260
	rankPrefixList  = 270
	rankStaticRoute = 280
	rankNTP         = 290
	rankQoSMap      = 300
	rankECNAllow    = 310
	rankClassMap    = 320
	rankPolicyMap   = 321
	rankPFCAll      = 330
	rankWatchdog    = 331
	rankRouteMap    = 340
	rankRouterBFD   = 350
	rankRouterBGP   = 360
	rankMMUApply    = 370
)

// Interface child ranks (eos.md §2.1 interface child order; the lines
// before the QoS ones in AVD's order: dc1-spine1.cfg "description, no
// shutdown, mtu, no switchport, ip address", Management1 "no shutdown,
// vrf MGMT, ip address"; dc1-leaf2c.cfg Ethernet5 "switchport access
// vlan, switchport mode access, switchport, spanning-tree portfast",
// Ethernet1 "no shutdown, channel-group 1 mode active"; AVD's
// examples/single-dc-l3ls/intended/configs). The spanning-tree lines
// print after the PFC lines, as a live show running-config shows them
// ("mtu 9214, dcbx mode ieee, switchport trunk allowed vlan 711,
// switchport mode trunk, priority-flow-control on, priority-flow-control
// priority 3 no-drop, spanning-tree portfast edge": eos.md [T:azl]); the
// port lines of ROCm's Arista 7388 example ("load-interval 2, mtu 9214,
// speed 200g-4, error-correction encoding reed-solomon, ip address …,
// phy link training, service-profile …": ROCm/gpu-cluster-networking,
// eos.md [T:rocm]) print in that order.
const (
	ifDescr      = 10
	ifShutdown   = 20
	ifLoadIntv   = 25
	ifMTU        = 30
	ifSpeed      = 32
	ifFEC        = 34
	ifDCBX       = 40
	ifAccessVlan = 50
	ifNativeVlan = 60
	ifTrunkVlan  = 70
	ifSwMode     = 80
	ifSwitchport = 90
	ifChanGroup  = 100
	ifVRF        = 110
	ifIPAddr     = 120
	ifIPv6Addr   = 130
	ifPhyTrain   = 135
	ifVxlan      = 150
	ifSvcPolicy  = 200
	ifSvcProf    = 210
	ifTrust      = 220
	ifQoSCos     = 230
	ifQoSDSCP    = 240
	ifShape      = 250
	ifPFCOn      = 300
	ifPFCPrio    = 310
	ifPFCWD      = 320
	ifSTP        = 350
	ifTxQ        = 400
	ifUcTxQ      = 410
	ifMcTxQ      = 420
)

// QoS profile child ranks (eos.md §1b: trust, cos, dscp, shape,
// service-policy, tx-queues, then the PFC lines).
const (
	profTrust     = 1
	profQoSCos    = 2
	profQoSDSCP   = 3
	profShape     = 4
	profSvcPolicy = 5
	profTxQ       = 10
	profUcTxQ     = 11
	profMcTxQ     = 12
	profPFCOn     = 20
	profPFCPrio   = 21
	profPFCWD     = 22
)

// tx-queue child ranks (eos.md §1a: priority, bandwidth, shape, ecn
// count, ecn thresholds, drop).
const (
	txqPriority  = 1
	txqBandwidth = 2
	txqShape     = 3
	txqECNCount  = 4
	txqECN       = 5
	txqDrop      = 6
)

const (
	modeIf       = "config-if"
	modeProfile  = "config-qos-profile"
	modeTxQ      = "config-txq"
	modeClassMap = "config-cmap-qos"
	modePMap     = "config-pmap-qos"
	modePMapC    = "config-pmap-c-qos"
	modeMMU      = "config-mmu-profile"
	anyConfig    = "config*"
)

const eunits = "segments|bytes|kbytes|mbytes|milliseconds"

type e = grammar.Entry[*session]

// portEntries are the interface-level QoS lines, valid under interface
// and under qos profile (eos.md §3), each mode with its own display
// order.
func portEntries(mode string, r map[string]int) []e {
	return []e{
		{Modes: []string{mode}, Syntax: "qos trust <t:dscp|cos>", Key: "qos trust", Rank: r["trust"], NoLine: true, No: []string{"qos trust [<t:dscp|cos>]"}},
		{Modes: []string{mode}, Syntax: "qos cos <n:0-7>", Key: "qos cos", Rank: r["cos"], No: []string{"qos cos [<n:0-7>]"}},
		{Modes: []string{mode}, Syntax: "qos dscp <n:0-63>", Key: "qos dscp", Rank: r["dscp"], No: []string{"qos dscp [<n:0-63>]"}},
		{Modes: []string{mode}, Syntax: "shape rate <n:rate> <u:percent|kbps|pps>", Key: "shape rate", Rank: r["shape"], No: []string{"shape rate [<n:rate>] [<u:percent|kbps|pps>]"}},
		{Modes: []string{mode}, Syntax: "service-policy type qos input <name:word>", Key: "service-policy type qos input", Rank: r["policy"]},
		{Modes: []string{mode}, Syntax: "priority-flow-control on", Key: "priority-flow-control", Rank: r["pfc"], NoLine: true, No: []string{"priority-flow-control [on]"}},
		// Older EOS: priority-flow-control mode on, a legacy alias (eos.md §3 [I]).
		{Modes: []string{mode}, Syntax: "priority-flow-control mode on", Key: "priority-flow-control", Rank: r["pfc"], NoLine: true,
			No: []string{}, Text: func(grammar.Match) string { return "priority-flow-control on" }},
		{Modes: []string{mode}, Syntax: "priority-flow-control priority <n:0-7> <a:no-drop|drop>", Key: "priority-flow-control priority {n}",
			Rank: r["prio"], Natural: true, No: []string{"priority-flow-control priority <n:0-7> [<a:no-drop|drop>]"}},
		{Modes: []string{mode}, Syntax: "priority-flow-control pause watchdog", Rank: r["wd"]},
		{Modes: []string{mode}, Syntax: "priority-flow-control pause watchdog port action <a:drop|notify-only>", Key: "priority-flow-control pause watchdog port action", Rank: r["wd"],
			No: []string{"priority-flow-control pause watchdog port action [<a:drop|notify-only>]"}},
		{Modes: []string{mode}, Syntax: "priority-flow-control pause watchdog port timer timeout <t:timeout> polling-interval <p:poll> recovery-time <r:recover> [forced]",
			Key: "priority-flow-control pause watchdog port timer", Rank: r["wd"], No: []string{"priority-flow-control pause watchdog port timer"}},
		{Modes: []string{mode}, Syntax: "priority-flow-control pause watchdog port timer timeout <t:timeout> polling-interval auto recovery-time <r:recover> [forced]",
			Key: "priority-flow-control pause watchdog port timer", Rank: r["wd"], No: []string{}},
		{Modes: []string{mode}, Syntax: "tx-queue <q:0-7>", Key: "tx-queue {q}", Rank: r["txq"], Natural: true, Enter: modeTxQ, Label: txqLabel("txq")},
		{Modes: []string{mode}, Syntax: "uc-tx-queue <q:0-7>", Key: "uc-tx-queue {q}", Rank: r["uctxq"], Natural: true, Enter: modeTxQ, Label: txqLabel("uc-txq")},
		{Modes: []string{mode}, Syntax: "mc-tx-queue <q:0-7>", Key: "mc-tx-queue {q}", Rank: r["mctxq"], Natural: true, Enter: modeTxQ, Label: txqLabel("mc-txq")},
	}
}

func txqLabel(prefix string) func(grammar.Match, string) string {
	return func(m grammar.Match, _ string) string { return prefix + "-" + m.Args["q"] }
}

// entries is the EOS command table: eos.md §3 (syntax, modes, ranges,
// negation), §4 (prompts, errors) and §5 (sessions). Adding a command
// means adding a line here.
var entries = func() []e {
	t := []e{
		// Exec and anywhere.
		{Modes: []string{"exec"}, Syntax: "configure [terminal]", No: []string{}, Do: doConfigure},
		{Modes: []string{"exec"}, Syntax: "configure session", No: []string{}, Do: doSession},
		{Modes: []string{"exec"}, Syntax: "configure session <name:word>", No: []string{}, Do: doSession},
		{Modes: []string{"exec"}, Syntax: "configure session <name:word> commit", No: []string{}, Do: doSessionCommit},
		{Modes: []string{"exec"}, Syntax: "configure session <name:word> commit timer <t:hms>", No: []string{}, Do: doSessionCommit},
		{Modes: []string{"exec"}, Syntax: "configure session <name:word> abort", No: []string{}, Do: doSessionAbort},
		// The configure lock (lock.go).
		{Modes: []string{"exec"}, Syntax: "configure lock", No: []string{}, Do: doLock},
		{Modes: []string{"exec"}, Syntax: "configure unlock", No: []string{}, Do: doUnlock},
		{Modes: []string{"exec"}, Syntax: "enable", No: []string{}, Do: doNothing},
		{Modes: []string{"exec"}, Syntax: "disable", No: []string{}, Do: doDisable},
		{Modes: []string{anyConfig}, Syntax: "end", No: []string{}, Do: doEnd},
		{Modes: []string{"*"}, Syntax: "exit", No: []string{}, Do: doExit},
		{Modes: []string{"exec"}, Syntax: "terminal length <n:0-32767>", No: []string{}, Do: doNothing},
		{Modes: []string{"exec"}, Syntax: "terminal width <n:10-32767>", No: []string{}, Do: doNothing},
		{Modes: []string{"exec", anyConfig}, Syntax: "show running-config", No: []string{}, Do: doShowRun},
		{Modes: []string{"exec", anyConfig}, Syntax: "show running-config interfaces <if:ifs>", No: []string{}, Do: doShowRun, Check: checkIfs},
		{Modes: []string{"exec", anyConfig}, Syntax: "show running-config section <re:rest>", No: []string{}, Do: doShowRun},
		{Modes: []string{"exec", anyConfig}, Syntax: "show running-config | section <re:rest>", No: []string{}, Do: doShowRun},
		{Modes: []string{"exec"}, Syntax: "show session-config named <name:word> diffs", No: []string{}, Do: doDiffs},
		{Modes: []string{anyConfig}, Syntax: "show session-config diffs", No: []string{}, Do: doDiffs},
		{Modes: []string{anyConfig}, Syntax: "show session-config", No: []string{}, Do: doShowSession},
		{Modes: []string{"exec"}, Syntax: "show session-config named <name:word>", No: []string{}, Do: doShowSession},
		{Modes: []string{"exec", anyConfig}, Syntax: "show configuration sessions", No: []string{}, Do: doShowSessions},
		{Modes: []string{"exec", anyConfig}, Syntax: "show configuration sessions | json", No: []string{}, Do: doShowSessionsJSON},
		{Modes: []string{"exec", anyConfig}, Syntax: "show configuration sessions detail | json", No: []string{}, Do: doShowSessionsJSON},
		{Modes: []string{"exec"}, Syntax: "copy running-config startup-config", No: []string{}, Do: doWrite},
		// Checkpoints and replace (eos.md §5 [C:vane, C:napalm]).
		{Modes: []string{"exec"}, Syntax: "configure checkpoint save <name:word>", No: []string{}, Do: doSaveFile},
		{Modes: []string{"exec"}, Syntax: "copy running-config <file:flash>", No: []string{}, Do: doSaveFile},
		{Modes: []string{"exec"}, Syntax: "copy startup-config <file:flash>", No: []string{}, Do: doSaveFile},
		{Modes: []string{"exec"}, Syntax: "configure replace <cp:checkpoint> [skip-checkpoint]", No: []string{}, Do: doReplace},
		{Modes: []string{"exec"}, Syntax: "configure replace <file:flash>", No: []string{}, Do: doReplace},
		{Modes: []string{"exec"}, Syntax: "delete <cp:checkpoint>", No: []string{}, Do: doDeleteFile},
		{Modes: []string{"exec"}, Syntax: "delete <file:flash>", No: []string{}, Do: doDeleteFile},
		{Modes: []string{"exec", anyConfig}, Syntax: "show configuration checkpoints", No: []string{}, Do: doShowCheckpoints},
		{Modes: []string{"exec", anyConfig}, Syntax: "show priority-flow-control counters | json", No: []string{}, Do: doShowPFCCounters},
		{Modes: []string{"exec", anyConfig}, Syntax: "show priority-flow-control counters watchdog | json", No: []string{}, Do: doShowPFCWatchdog},
		{Modes: []string{"exec"}, Syntax: "write memory", No: []string{}, Do: doWrite},
		{Modes: []string{"exec", anyConfig}, Syntax: "show version", No: []string{}, Do: doShowVersion},
		// Inside a session (eos.md §5).
		{Modes: []string{"config"}, Syntax: "commit", No: []string{}, Do: doCommit, Check: inSession},
		{Modes: []string{"config"}, Syntax: "commit timer <t:hms>", No: []string{}, Do: doCommit, Check: inSession},
		{Modes: []string{"config"}, Syntax: "abort", No: []string{}, Do: doAbort, Check: inSession},
		{Modes: []string{"config"}, Syntax: "rollback clean-config", No: []string{}, Do: doCleanConfig, Check: inSession},
		{Modes: []string{"config"}, Syntax: "copy running-config session-config", No: []string{}, Do: doCopyToSession, Check: inSession},

		// Global config (eos.md §3).
		// The qos map lines in AVD's order (qos.j2; molecule
		// documentation/devices/qos.md: rewrite, cos, dscp, traffic-class
		// to dscp|cos|tx-queue, exp), each kind in natural order of its
		// text as AVD sorts them (eos.md §2.1 item 6, §3).
		{Modes: []string{"config"}, Syntax: "qos map dscp <d:0-63...> to traffic-class <tc:0-7> [drop-precedence <dp:0-2>]", Do: doQoSMap(rankQoSMap+2, false)},
		{Modes: []string{"config"}, Syntax: "qos map cos <c:0-7...> to traffic-class <tc:0-7>", Do: doQoSMap(rankQoSMap+1, false)},
		{Modes: []string{"config"}, Syntax: "qos map traffic-class <tc:0-7...> to tx-queue <q:0-7>", Do: doQoSMap(rankQoSMap+3, true)},
		{Modes: []string{"config"}, Syntax: "qos map traffic-class <tc:0-7...> to dscp <d:0-63>", Do: doQoSMap(rankQoSMap+3, true)},
		{Modes: []string{"config"}, Syntax: "qos map traffic-class <tc:0-7...> to cos <c:0-7>", Do: doQoSMap(rankQoSMap+3, true)},
		{Modes: []string{"config"}, Syntax: "qos map exp <x:0-7...> to traffic-class <tc:0-7>", Do: doQoSMap(rankQoSMap+4, true)},
		{Modes: []string{"config"}, Syntax: "qos rewrite dscp", Rank: rankQoSMap},
		{Modes: []string{"config"}, Syntax: "qos random-detect ecn allow non-ect [chip-based]", Key: "qos random-detect ecn allow non-ect", Rank: rankECNAllow},
		{Modes: []string{"config"}, Syntax: "priority-flow-control all off", Rank: rankPFCAll},
		{Modes: []string{"config"}, Syntax: "priority-flow-control pause watchdog default timeout <s:timeout>", Key: "pfc wd timeout", Rank: rankWatchdog,
			No: []string{"priority-flow-control pause watchdog default timeout [<s:timeout>]"}},
		{Modes: []string{"config"}, Syntax: "priority-flow-control pause watchdog default recovery-time <s:recover>", Key: "pfc wd recovery", Rank: rankWatchdog + 1,
			No: []string{"priority-flow-control pause watchdog default recovery-time [<s:recover>]"}},
		{Modes: []string{"config"}, Syntax: "priority-flow-control pause watchdog default polling-interval <s:poll>", Key: "pfc wd polling", Rank: rankWatchdog + 2,
			No: []string{"priority-flow-control pause watchdog default polling-interval [<s:poll>]"}},
		{Modes: []string{"config"}, Syntax: "priority-flow-control pause watchdog action <a:drop|errdisable|notify-only>", Key: "pfc wd action", Rank: rankWatchdog + 3,
			Default: "priority-flow-control pause watchdog action errdisable", No: []string{"priority-flow-control pause watchdog action [<a:drop|errdisable|notify-only>]"}},
		// no-drop is refused by the hardware (eos.md §3 [C:avd-6399]).
		{Modes: []string{"config"}, Syntax: "priority-flow-control pause watchdog action no-drop", No: []string{}, Check: unavailable},
		{Modes: []string{"config"}, Syntax: "priority-flow-control pause watchdog override action drop", Rank: rankWatchdog + 4},

		// Stanzas.
		{Modes: []string{"config"}, Syntax: "interface <if:ifs>", Rank: rankEthernet, Natural: true, Enter: modeIf, Expand: expandInterface, Keep: physical, Check: checkIfs,
			Label: func(m grammar.Match, _ string) string { return "if-" + shortIf(m.Args["if"]) }},
		{Modes: []string{"config"}, Syntax: "qos profile <name:word>", Key: "qos profile {name}", Rank: rankQoSProfile, Enter: modeProfile,
			Label: func(m grammar.Match, _ string) string { return "qos-profile-" + m.Args["name"] }, Check: checkProfileDelete},

		// QoS class-maps and policy-maps (eos.md §2.1 item 7, §3
		// service-policy), as AVD renders them (aristanetworks/avd
		// python-avd/pyavd/_eos_cli_config_gen/j2templates/eos/class-maps.j2,
		// policy-maps-qos.j2): `class-map type qos match-any NAME` with one
		// match line, `policy-map type quality-of-service NAME` with
		// `class NAME` blocks of set lines. Their mode names are the lab's
		// own: EOS's sub-mode prompts for them were not seen [I].
		{Modes: []string{"config"}, Syntax: "class-map type qos match-any <name:word>", Key: "class-map type qos match-any {name}", Rank: rankClassMap, Natural: true, Enter: modeClassMap},
		{Modes: []string{modeClassMap}, Syntax: "match dscp <d:word>", Key: "match"},
		{Modes: []string{modeClassMap}, Syntax: "match cos <c:word>", Key: "match"},
		{Modes: []string{modeClassMap}, Syntax: "match vlan <v:word>", Key: "match"},
		{Modes: []string{modeClassMap}, Syntax: "match ip access-group <acl:word>", Key: "match"},
		{Modes: []string{modeClassMap}, Syntax: "match ipv6 access-group <acl:word>", Key: "match"},
		{Modes: []string{"config"}, Syntax: "policy-map type quality-of-service <name:word>", Key: "policy-map type quality-of-service {name}", Rank: rankPolicyMap, Natural: true, Enter: modePMap},
		{Modes: []string{modePMap}, Syntax: "class <name:word>", Key: "class {name}", Enter: modePMapC},
		{Modes: []string{modePMapC}, Syntax: "set cos <n:0-7>", Key: "set cos", Rank: 1},
		{Modes: []string{modePMapC}, Syntax: "set dscp <n:0-63>", Key: "set dscp", Rank: 2},
		{Modes: []string{modePMapC}, Syntax: "set traffic-class <n:0-7>", Key: "set traffic-class", Rank: 3},
		{Modes: []string{modePMapC}, Syntax: "set drop-precedence <n:0-2>", Key: "set drop-precedence", Rank: 4},

		// MMU queue profiles (eos.md §3; AVD platform-trident.j2 and
		// platform-apply.j2): the profile stanza first in the running
		// config, its `… apply` line near the end (§2.1).
		{Modes: []string{"config"}, Syntax: "platform trident mmu queue profile <name:word>", Key: "mmu profile {name}", Rank: rankMMUProfile, Natural: true, Enter: modeMMU},
		{Modes: []string{"config"}, Syntax: "platform trident mmu queue profile <name:word> apply", Key: "mmu apply", Rank: rankMMUApply},
		{Modes: []string{modeMMU}, Syntax: "ingress threshold <f:word>", Key: "ingress threshold", Rank: 1},
		{Modes: []string{modeMMU}, Syntax: "ingress headroom [<u:bytes|cells>] <n:big>", Key: "ingress headroom", Rank: 2},
		// Egress lines by queue type (multicast first, as AVD's output
		// sorts them: molecule intended/configs/platform.cfg), queue,
		// then reserved before the others (platform.cfg: "reserved 0"
		// then "drop-precedence 1 drop-threshold 3/4" for one queue;
		// threshold before drop-precedence follows §3's list [I]). A
		// reserved size may be 0 (platform.cfg: "reserved cells 0").
		{Modes: []string{modeMMU}, Syntax: "egress <t:unicast|multicast> queue <q:0-7> reserved [<u:bytes|cells>] <n:reserved>", Key: "egress {t} queue {q} reserved", Do: doMMUEgress},
		{Modes: []string{modeMMU}, Syntax: "egress <t:unicast|multicast> queue <q:0-7> threshold <f:word>", Key: "egress {t} queue {q} threshold", Do: doMMUEgress},
		{Modes: []string{modeMMU}, Syntax: "egress <t:unicast|multicast> queue <q:0-7> drop-precedence <p:0-2> drop-threshold <f:word>", Key: "egress {t} queue {q} drop-precedence {p}", Do: doMMUEgress},

		// Interface only.
		{Modes: []string{modeIf}, Syntax: "description <text:rest>", Key: "description", Rank: ifDescr, No: []string{"description [<text:rest>]"}},
		{Modes: []string{modeIf}, Syntax: "mtu <n:68-9214>", Key: "mtu", Rank: ifMTU, No: []string{"mtu [<n:68-9214>]"}},
		{Modes: []string{modeIf}, Syntax: "dcbx mode ieee", Key: "dcbx mode", Rank: ifDCBX, No: []string{"dcbx mode [ieee]"}},
		// Port lines of ROCm's Arista 7388 example (the ranks' comment),
		// the values as typed [I: their full syntax is in no source read].
		{Modes: []string{modeIf}, Syntax: "load-interval <n:0-600>", Key: "load-interval", Rank: ifLoadIntv, No: []string{"load-interval [<n:0-600>]"}},
		{Modes: []string{modeIf}, Syntax: "speed <s:word>", Key: "speed", Rank: ifSpeed, No: []string{"speed [<s:word>]"}},
		{Modes: []string{modeIf}, Syntax: "error-correction encoding <e:word>", Key: "error-correction encoding", Rank: ifFEC, No: []string{"error-correction encoding [<e:word>]"}},
		{Modes: []string{modeIf}, Syntax: "phy link training", Key: "phy link training", Rank: ifPhyTrain, NoLine: true},
		{Modes: []string{modeIf}, Syntax: "service-profile <name:word>", Key: "service-profile", Rank: ifSvcProf, No: []string{"service-profile [<name:word>]"}},

		// tx-queue sub-mode.
		{Modes: []string{modeTxQ}, Syntax: "priority strict", Key: "priority", Rank: txqPriority, NoLine: true, No: []string{"priority [strict]"}},
		{Modes: []string{modeTxQ}, Syntax: "bandwidth percent <p:1-100>", Key: "bandwidth percent", Rank: txqBandwidth, No: []string{"bandwidth percent [<p:1-100>]"}},
		{Modes: []string{modeTxQ}, Syntax: "bandwidth guaranteed percent <p:1-100>", Key: "bandwidth guaranteed", Rank: txqBandwidth},
		// A guaranteed rate in kbps, which the PFC watchdog needs to watch
		// a queue on some platforms (eos.md §3 [T:blog36]: "bandwidth
		// guaranteed 100" is 100 kbps).
		{Modes: []string{modeTxQ}, Syntax: "bandwidth guaranteed <n:rate>", Key: "bandwidth guaranteed", Rank: txqBandwidth, No: []string{"bandwidth guaranteed"}},
		{Modes: []string{modeTxQ}, Syntax: "shape rate <n:rate> <u:percent|kbps|pps>", Key: "shape rate", Rank: txqShape, No: []string{"shape rate [<n:rate>] [<u:percent|kbps|pps>]"}},
		{Modes: []string{modeTxQ}, Syntax: "random-detect ecn count", Rank: txqECNCount},
		// A queue's latency bound, after its shape rate, as a real show
		// running-config prints it (rwa02.str15, EOS-4.34.2.1F: "shape
		// rate 15 percent", "latency maximum 4 milliseconds") [I: other
		// units].
		{Modes: []string{modeTxQ}, Syntax: "latency maximum <n:1-1000000> milliseconds", Key: "latency maximum", Rank: txqShape, No: []string{"latency maximum"}},
		{Modes: []string{modeTxQ}, Key: "random-detect ecn",
			Syntax: "random-detect ecn minimum-threshold <min:big> <u:" + eunits + "> maximum-threshold <max:big> <u2:" + eunits + "> [max-mark-probability <p:1-100>] [weight <w:0-15>]",
			Rank:   txqECN, No: []string{"random-detect ecn", "="}, Check: checkECN},
		{Modes: []string{modeTxQ}, Key: "random-detect drop",
			Syntax: "random-detect drop [drop-precedence <dp:0-2>] minimum-threshold <min:big> <u:" + eunits + "|microseconds> maximum-threshold <max:big> <u2:" + eunits + "|microseconds> drop-probability <x:1-100> [weight <w:0-15>]",
			Rank:   txqDrop, No: []string{"random-detect drop", "="}, Check: checkECN},
	}
	t = append(t, configEntries()...)
	t = append(t, portEntries(modeIf, map[string]int{"trust": ifTrust, "cos": ifQoSCos, "dscp": ifQoSDSCP, "shape": ifShape, "policy": ifSvcPolicy,
		"pfc": ifPFCOn, "prio": ifPFCPrio, "wd": ifPFCWD, "txq": ifTxQ, "uctxq": ifUcTxQ, "mctxq": ifMcTxQ})...)
	t = append(t, portEntries(modeProfile, map[string]int{"trust": profTrust, "cos": profQoSCos, "dscp": profQoSDSCP, "shape": profShape, "policy": profSvcPolicy,
		"pfc": profPFCOn, "prio": profPFCPrio, "wd": profPFCWD, "txq": profTxQ, "uctxq": profUcTxQ, "mctxq": profMcTxQ})...)
	return t
}()

var eosGrammar = grammar.New(entries, grammar.Options{Types: types, AllowDefault: true})

func expandInterface(m grammar.Match) ([]string, string) {
	ifs, err := expandIfs(m.Args["if"])
	if err != nil {
		return nil, errInvalid
	}
	var texts []string
	for _, i := range ifs {
		texts = append(texts, "interface "+i)
	}
	return texts, ""
}

// checkIfs refuses interfaces beyond the front-panel ports of the
// device's model with the error the grammar's interface type gives a port
// beyond every model's.
func checkIfs(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) string {
	if _, err := expandIfsMax(m.Args["if"], s.d.ports); err != nil {
		return errInvalid
	}
	return ""
}

func unavailable(*session, *grammar.State, grammar.Neg, grammar.Match) string { return errUnavailable }

func inSession(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) string {
	if s.cfg == nil {
		return errInvalid
	}
	return ""
}

// checkECN wants the same unit twice and min ≤ max (eos.md §3).
func checkECN(s *session, _ *grammar.State, neg grammar.Neg, m grammar.Match) string {
	if neg != grammar.NotNegated {
		return ""
	}
	if m.Args["u"] != m.Args["u2"] {
		return errInvalid
	}
	lo, _ := strconv.ParseInt(m.Args["min"], 10, 64)
	hi, _ := strconv.ParseInt(m.Args["max"], 10, 64)
	if lo > hi {
		return errInvalid
	}
	return ""
}

// checkProfileDelete refuses deleting a qos profile still applied by
// service-profile (eos.md §3.1). EOS's own text for it is in no source
// read (the reference gives none, and no public transcript was found), so
// the reply is the lab's after EOS's generic "% Error" prefix (§4) [I].
func checkProfileDelete(s *session, st *grammar.State, neg grammar.Neg, m grammar.Match) string {
	if neg == grammar.NotNegated {
		return ""
	}
	used := false
	st.Tree.Root.Walk(func(_ int, n *grammar.Node) {
		if n.Text == "service-profile "+m.Args["name"] {
			used = true
		}
	})
	if used {
		return "% Error: qos profile " + m.Args["name"] + " is in use"
	}
	return ""
}

// doQoSMap keeps one qos map line per target (a traffic class, with a
// drop precedence or not; a tx-queue, DSCP or CoS) holding every value
// mapped to it, as EOS shows the dscp map (eos.md §2.1 [I, shape from
// AVD]; AVD's molecule qos.md: "qos map dscp 18 20 22 … to traffic-class 4
// drop-precedence 2", "qos map traffic-class 2 4 5 to cos 7"). A value
// maps to one target of its map (the dscp map, the cos map, the exp map,
// and the traffic-class maps to tx-queue, to dscp and to cos), so it
// moves from its previous line; "no" removes the values from the map.
func doQoSMap(rank int, natural bool) func(*session, *grammar.State, grammar.Neg, grammar.Match) (string, bool) {
	return func(s *session, st *grammar.State, neg grammar.Neg, m grammar.Match) (string, bool) {
		root := st.Tree.Root
		from, vals, target := splitMap(m.Text())
		family := "qos map " + from + " to " + strings.Fields(target)[0]
		moved := map[int]bool{}
		for _, v := range vals {
			moved[v] = true
		}
		byTarget := map[string]map[int]bool{}
		var targets []string
		for _, n := range append([]*grammar.Node(nil), root.Children...) {
			f, vs, t := splitMap(n.Text)
			if f != from || "qos map "+f+" to "+strings.Fields(t)[0] != family || n.Key != "qos map "+f+" to "+t {
				continue
			}
			set := map[int]bool{}
			for _, v := range vs {
				if !moved[v] {
					set[v] = true
				}
			}
			byTarget[t] = set
			targets = append(targets, t)
		}
		if neg == grammar.NotNegated {
			if byTarget[target] == nil {
				byTarget[target] = map[int]bool{}
				targets = append(targets, target)
			}
			for v := range moved {
				byTarget[target][v] = true
			}
		}
		for _, t := range targets {
			set := byTarget[t]
			key := "qos map " + from + " to " + t
			if len(set) == 0 {
				root.Remove(key)
				continue
			}
			var vs []int
			for v := range set {
				vs = append(vs, v)
			}
			sort.Ints(vs)
			var w []string
			for _, v := range vs {
				w = append(w, strconv.Itoa(v))
			}
			st.Tree.Set(root, key, "qos map "+from+" "+strings.Join(w, " ")+" to "+t, rank, natural, "")
		}
		return "", false
	}
}

// splitMap cuts "qos map dscp 24 26 to traffic-class 3" into "dscp",
// [24 26] and "traffic-class 3".
func splitMap(text string) (from string, vals []int, target string) {
	f := strings.Fields(text)
	if len(f) < 6 || f[0] != "qos" || f[1] != "map" {
		return "", nil, "-"
	}
	i := 3
	for ; i < len(f) && f[i] != "to"; i++ {
		v, _ := strconv.Atoi(f[i])
		vals = append(vals, v)
	}
	if i+1 >= len(f) {
		return "", nil, "-"
	}
	return f[2], vals, strings.Join(f[i+1:], " ")
}

// mmuKinds orders an egress queue's lines in an MMU queue profile.
var mmuKinds = map[string]int{"reserved": 0, "threshold": 1, "drop-precedence": 2}

// doMMUEgress sets or removes an egress line of a platform trident mmu
// queue profile, ranked by queue type, queue and kind (the entries'
// comment).
func doMMUEgress(s *session, st *grammar.State, neg grammar.Neg, m grammar.Match) (string, bool) {
	w := m.Words // egress TYPE queue Q KIND …
	key := strings.Join(w[:5], " ")
	if w[4] == "drop-precedence" {
		key += " " + w[5]
	}
	q, _ := strconv.Atoi(w[3])
	rank := 10 + q*10 + mmuKinds[w[4]]
	if w[1] == "unicast" {
		rank += 100
	}
	for _, parent := range st.Frames[len(st.Frames)-1].Nodes {
		if neg != grammar.NotNegated {
			parent.Remove(key)
			continue
		}
		st.Tree.Set(parent, key, m.Text(), rank, true, "")
	}
	return "", false
}

func doNothing(*session, *grammar.State, grammar.Neg, grammar.Match) (string, bool) { return "", false }

func doDisable(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	s.user = true
	return "", false
}

// doConfigure enters config mode; configure terminal prints no banner
// (eos.md §1c). Its lines change the running config at once, so it is
// refused while another session holds the configure lock (lock.go).
func doConfigure(s *session, st *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	if msg := s.lockedOut(); msg != "" {
		return msg + "\n", false
	}
	s.cfg = nil
	st.Tree = s.d.tree
	st.Push(grammar.Frame{Mode: "config", Nodes: []*grammar.Node{st.Tree.Root}})
	return "", false
}

// doSession opens or re-enters a configuration session: a copy of the
// running config edited apart until commit (eos.md §5), whoever opened
// it (lock.go).
func doSession(s *session, st *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	d := s.d
	name := m.Args["name"]
	if name == "" {
		d.seq++
		name = fmt.Sprintf("session%d", d.seq)
	}
	c := d.sessions[name]
	if c == nil {
		var msg string
		if c, msg = s.openSession(name); c == nil {
			return msg + "\n", false
		}
	}
	s.cfg = c
	st.Tree = c.tree
	st.Push(grammar.Frame{Mode: "config", Nodes: []*grammar.Node{c.tree.Root}})
	return "", false
}

func (s *session) leave(st *grammar.State) {
	s.cfg = nil
	st.Frames = st.Frames[:1]
	st.Tree = s.d.tree
}

func doEnd(s *session, st *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	s.leave(st)
	return "", false
}

func doExit(s *session, st *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	if len(st.Frames) == 2 {
		s.leave(st)
		return "", false
	}
	if st.Pop() {
		return "", false
	}
	return "", true
}

func timerOf(m grammar.Match) time.Duration {
	secs, _ := parseHMS(m.Args["t"])
	return time.Duration(secs) * time.Second
}

// doCommit commits the session being edited, with or without a timer,
// and returns to exec (eos.md §1c [T:53bits]).
func doCommit(s *session, st *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	out := s.commit(s.cfg, timerOf(m))
	if out == "" {
		s.leave(st)
	}
	return out, false
}

func doAbort(s *session, st *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	s.d.endSession(s.cfg)
	s.leave(st)
	return "", false
}

func doCleanConfig(s *session, st *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	s.cfg.tree.Root = grammar.NewTree().Root
	st.Frames = st.Frames[:2]
	st.Frames[1].Nodes = []*grammar.Node{s.cfg.tree.Root}
	return "", false
}

func doCopyToSession(s *session, st *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	s.cfg.tree.Root = s.d.tree.Clone().Root
	st.Frames = st.Frames[:2]
	st.Frames[1].Nodes = []*grammar.Node{s.cfg.tree.Root}
	return "", false
}

// doSessionCommit is exec-mode "configure session NAME commit [timer T]":
// it confirms a timed commit of NAME, or commits the pending session NAME
// (eos.md §5).
func doSessionCommit(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	d, name := s.d, m.Args["name"]
	if !m.Has("t") && d.confirm(name) {
		return "", false
	}
	c := d.sessions[name]
	if c == nil {
		return errInvalid + "\n", false
	}
	return s.commit(c, timerOf(m)), false
}

// doSessionAbort rolls a timed commit back now (not while another
// session holds the configure lock: it changes the running config), or
// discards a pending session.
func doSessionAbort(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	d, name := s.d, m.Args["name"]
	if d.timer != nil && d.timer.name == name {
		if msg := s.lockedOut(); msg != "" {
			return msg + "\n", false
		}
		if d.timer.t != nil {
			d.timer.t.Stop()
		}
		d.expire(d.timer)
		return "", false
	}
	c, ok := d.sessions[name]
	if !ok {
		return errInvalid + "\n", false
	}
	d.endSession(c)
	return "", false
}

// doDiffs prints the session's changes against the running config
// (eos.md §1c: "--- system:/running-config", "+++ session:/NAME-session-config").
func doDiffs(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	c := s.cfg
	if name := m.Args["name"]; name != "" {
		c = s.d.sessions[name]
	}
	if c == nil {
		return errInvalid + "\n", false
	}
	return unifiedDiff("system:/running-config", "session:/"+c.name+"-session-config",
		s.d.showRun(s.d.tree), s.d.showRun(c.tree)), false
}

// doShowSessions lists the configuration sessions (eos.md §5: the text
// starts with the two "Maximum number" lines [T:53bits]; a row is name,
// state, user and terminal, "*" marking the CLI session's own, as in
// comocutor_contrib's EOS fixture, lock.go).
func doShowSessions(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	var b strings.Builder
	b.WriteString("Maximum number of completed sessions: 1\n")
	fmt.Fprintf(&b, "Maximum number of pending sessions: %d\n\n", maxPending)
	b.WriteString("  Name            State                  User    Terminal\n")
	b.WriteString("  --------------- ---------------------- ------- --------\n")
	if n := s.d.completed; n != "" {
		fmt.Fprintf(&b, "  %-15s %-22s\n", n, "completed")
	}
	if t := s.d.timer; t != nil {
		fmt.Fprintf(&b, "  %-15s %-22s\n", t.name, "pendingCommitTimer")
	}
	for _, n := range s.d.sessionNames() {
		mark := " "
		if s.cfg != nil && s.cfg.name == n {
			mark = "*"
		}
		c := s.d.sessions[n]
		fmt.Fprintf(&b, "%s %-15s %-22s %-7s %s\n", mark, n, "pending", c.user, c.tty)
	}
	return b.String(), false
}

// doWrite saves the running config; a FailCommit fault refuses it.
func doWrite(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	if s.faults.Load().FailCommit {
		return "% Error copying system:/running-config to flash:/startup-config\n", false
	}
	s.d.startup = s.d.tree.Clone()
	return "Copy completed successfully.\n", false
}

// doShowRun prints show running-config, whole or filtered.
func doShowRun(s *session, st *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	d := s.d
	t := d.tree
	switch {
	case m.Has("if"):
		ifs, _ := expandIfs(m.Args["if"])
		want := map[string]bool{}
		for _, i := range ifs {
			want["interface "+i] = true
		}
		return printTree(t, func(n *grammar.Node) bool { return want[n.Text] }), false
	case m.Has("re"):
		re, err := compileSection(m.Args["re"])
		if err != nil {
			return errInvalid + "\n", false
		}
		var b strings.Builder
		for _, n := range t.Root.Sorted() {
			one := grammar.Tree{Root: &grammar.Node{Children: []*grammar.Node{n}}}
			text := printTree(&one, nil)
			if re.MatchString(text) {
				b.WriteString(text)
			}
		}
		return b.String(), false
	}
	return d.showRun(t), false
}

// compileSection compiles a section filter; EOS takes a regular
// expression.
func compileSection(re string) (*regexp.Regexp, error) {
	return regexp.Compile(re)
}

// doShowSession prints a session's config as show running-config would
// print it after commit.
func doShowSession(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	c := s.cfg
	if name := m.Args["name"]; name != "" {
		c = s.d.sessions[name]
	}
	if c == nil {
		return errInvalid + "\n", false
	}
	return s.d.showRun(c.tree), false
}

// Errors of the file commands use EOS's generic "% Error" prefix
// (eos.md §4); the rest of their text is [I].

// fileKey names a saved config: "checkpoint:NAME" or "flash:NAME".
func fileKey(m grammar.Match) string {
	if m.Has("cp") {
		return "checkpoint:" + m.Args["cp"]
	}
	if m.Has("file") {
		return "flash:" + m.Args["file"]
	}
	return "checkpoint:" + m.Args["name"]
}

// doSaveFile saves the running (or startup) config as a checkpoint or a
// flash file.
func doSaveFile(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	d := s.d
	t := d.tree
	if strings.HasPrefix(m.Text(), "copy startup-config") {
		if d.startup == nil {
			return "% Error copying startup-config: file not found\n", false
		}
		t = d.startup
	}
	d.files[fileKey(m)] = t.Clone()
	return "", false
}

// doReplace makes a checkpoint or flash file the running config: a full
// replace, byte for byte (eos.md §5).
func doReplace(s *session, st *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	d := s.d
	t, ok := d.files[fileKey(m)]
	if !ok {
		return "% Error: " + fileKey(m) + " not found\n", false
	}
	if msg := s.lockedOut(); msg != "" {
		return msg + "\n", false
	}
	if s.faults.Load().FailCommit {
		return errCommit + "\n", false
	}
	d.tree = t.Clone()
	st.Tree = d.tree
	return "", false
}

func doDeleteFile(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	k := fileKey(m)
	if _, ok := s.d.files[k]; !ok {
		return "% Error: " + k + " not found\n", false
	}
	delete(s.d.files, k)
	return "", false
}

// doShowCheckpoints lists the saved checkpoints by name, one a line [I:
// the reference gives no layout].
func doShowCheckpoints(s *session, _ *grammar.State, _ grammar.Neg, _ grammar.Match) (string, bool) {
	var names []string
	for k := range s.d.files {
		if n, ok := strings.CutPrefix(k, "checkpoint:"); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + "\n")
	}
	return b.String(), false
}

// physical reports a front-panel port's stanza: it always exists, and no
// interface only resets it.
func physical(text string) bool { return strings.HasPrefix(text, "interface Ethernet") }
