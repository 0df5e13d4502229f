package eos

import (
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/lab/grammar"
)

// The non-QoS configuration of a data-centre switch, at the depth needed
// to keep each line's place and print it back, not to emulate what it
// does. The commands, their modes and their order come from AVD's
// eos_cli_config_gen output (aristanetworks/avd: the templates under
// python-avd/pyavd/_eos_cli_config_gen/j2templates/eos and the intended
// configs of examples/single-dc-l3ls and molecule/eos_cli_config_gen),
// and from the real cEOS running config scrapligo records
// (test-fixtures/golden/functional-send-command-simple-arista_eos-
// standard-out.txt). Where a command takes free text its first keywords
// are checked and the rest is kept as typed; a line whose keywords are
// not here is refused with "% Invalid input", as EOS refuses it. The
// sub-mode prompt labels are [I]: no source shows them.

const (
	modeDaemon     = "config-daemon"
	modeVlan       = "config-vlan"
	modeVRF        = "config-vrf"
	modeMgmtAPI    = "config-mgmt-api-http-cmds"
	modeMgmtAPIVRF = "config-mgmt-api-http-cmds-vrf"
	modeGNMI       = "config-mgmt-api-gnmi"
	modeNetconf    = "config-mgmt-api-netconf"
	modeTransport  = "config-mgmt-api-transport"
	modeACL        = "config-acl"
	modePrefixList = "config-ip-pfx"
	modeRouteMap   = "config-route-map"
	modeBFD        = "config-router-bfd"
	modeBGP        = "config-router-bgp"
	modeBGPAF      = "config-router-bgp-af"
)

// vlanList is a Type for a VLAN list ("11", "11-12,21-22"), kept as
// typed: VLANs 1-4094.
func vlanList(tok string) (string, *grammar.Error) {
	for _, part := range strings.Split(tok, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		for _, n := range []string{lo, hi} {
			if !isRange && n == hi {
				continue
			}
			if _, err := grammar.IntRange(1, 4094)(n); err != nil {
				return "", &grammar.Error{Kind: grammar.Invalid}
			}
		}
	}
	return tok, nil
}

// label names a stanza in prompts after one of its arguments.
func label(prefix, arg string) func(grammar.Match, string) string {
	return func(m grammar.Match, _ string) string {
		if arg == "" {
			return prefix
		}
		return prefix + "-" + m.Args[arg]
	}
}

// shutdownIn is the shutdown line of a mode: "no shutdown" is a line of
// its own (AVD prints it for interfaces, daemons and management APIs).
func shutdownIn(mode string, rank int) e {
	return e{Modes: []string{mode}, Syntax: "shutdown", Key: "shutdown", Rank: rank, NoLine: true}
}

func configEntries() []e {
	return []e{
		// Management and system lines.
		{Modes: []string{"config"}, Syntax: "enable password <p:rest>", Key: "enable password", Rank: rankEnablePw, NoLine: true, No: []string{"enable password"}},
		{Modes: []string{"config"}, Syntax: "aaa root <p:rest>", Key: "aaa root", Rank: rankAAARoot, NoLine: true, No: []string{"aaa root"}},
		// username NAME privilege 15 role network-admin nopassword|secret … (dc1-spine1.cfg)
		{Modes: []string{"config"}, Syntax: "username <name:word> <rest:rest>", Key: "username {name}", Rank: rankUsername, Natural: true,
			No: []string{"username <name:word>", "username <name:word> <rest:rest>"}},
		{Modes: []string{"config"}, Syntax: "daemon <name:word>", Key: "daemon {name}", Rank: rankDaemon, Natural: true, Enter: modeDaemon, Label: label("daemon", "name")},
		{Modes: []string{modeDaemon}, Syntax: "exec <cmd:rest>", Key: "exec", Rank: 1, No: []string{"exec", "exec <cmd:rest>"}},
		shutdownIn(modeDaemon, 2),
		{Modes: []string{"config"}, Syntax: "vlan internal order <o:ascending|descending> range <a:1-4094> <b:1-4094>", Key: "vlan internal order", Rank: rankVlanOrder},
		{Modes: []string{"config"}, Syntax: "transceiver qsfp default-mode <m:word>", Key: "transceiver qsfp default-mode", Rank: rankTransceiver},
		{Modes: []string{"config"}, Syntax: "service routing protocols model <m:multi-agent|ribd>", Key: "service routing protocols model", Rank: rankSvcRouting},
		// logging, in the order of AVD's molecule logging.cfg (console,
		// buffered, trap, vrf source-interface, vrf host; monitor,
		// format and the default-VRF forms placed by analogy [I]).
		{Modes: []string{"config"}, Syntax: "logging console <rest:rest>", Key: "logging console", Rank: rankLogging, No: []string{"logging console", "="}},
		{Modes: []string{"config"}, Syntax: "logging buffered <rest:rest>", Key: "logging buffered", Rank: rankLogging + 1, No: []string{"logging buffered", "="}},
		{Modes: []string{"config"}, Syntax: "logging trap <rest:rest>", Key: "logging trap", Rank: rankLogging + 2, No: []string{"logging trap", "="}},
		{Modes: []string{"config"}, Syntax: "logging monitor <rest:rest>", Key: "logging monitor", Rank: rankLogging + 3, No: []string{"logging monitor", "="}},
		{Modes: []string{"config"}, Syntax: "logging format <rest:rest>", Rank: rankLogging + 4},
		{Modes: []string{"config"}, Syntax: "logging source-interface <i:ifs>", Key: "logging source-interface", Rank: rankLogging + 5, No: []string{"logging source-interface", "="}},
		{Modes: []string{"config"}, Syntax: "logging vrf <v:word> source-interface <i:ifs>", Key: "logging vrf {v} source-interface", Rank: rankLogging + 5},
		{Modes: []string{"config"}, Syntax: "logging host <rest:rest>", Rank: rankLogging + 6},
		{Modes: []string{"config"}, Syntax: "logging vrf <v:word> host <rest:rest>", Rank: rankLogging + 6},
		// The hostname line is the device's name (showRun prints it); a
		// typed one is taken and not stored [I: the lab keeps its
		// inventory name].
		{Modes: []string{"config"}, Syntax: "hostname <h:word>", No: []string{}, Do: doNothing},
		{Modes: []string{"config"}, Syntax: "ip domain lookup vrf <v:word> source-interface <i:ifs>", Key: "ip domain lookup vrf {v}", Rank: rankDomain},
		{Modes: []string{"config"}, Syntax: "ip domain lookup source-interface <i:ifs>", Key: "ip domain lookup", Rank: rankDomain},
		{Modes: []string{"config"}, Syntax: "ip name-server vrf <v:word> <a:word>", Rank: rankNameServer},
		{Modes: []string{"config"}, Syntax: "ip name-server <a:word>", Rank: rankNameServer},
		{Modes: []string{"config"}, Syntax: "dns domain <d:word>", Key: "dns domain", Rank: rankDNSDomain},
		{Modes: []string{"config"}, Syntax: "spanning-tree mode <m:mstp|rstp|rapid-pvst|none>", Key: "spanning-tree mode", Rank: rankSTP},
		{Modes: []string{"config"}, Syntax: "spanning-tree mst <i:0-4094> priority <p:0-61440>", Key: "spanning-tree mst {i} priority", Rank: rankSTP + 1, Natural: true},

		// VLANs and VRFs (dc1-leaf2c.cfg "vlan 11" / "name VRF10_VLAN11";
		// dc1-spine1.cfg "vrf instance MGMT").
		{Modes: []string{"config"}, Syntax: "vlan <v:vlans>", Key: "vlan {v}", Rank: rankVlan, Natural: true, Enter: modeVlan, Label: label("vlan", "v")},
		{Modes: []string{modeVlan}, Syntax: "name <n:word>", Key: "name", Rank: 1, No: []string{"name", "="}},
		{Modes: []string{modeVlan}, Syntax: "trunk group <g:word>", Rank: 2, Natural: true},
		{Modes: []string{"config"}, Syntax: "vrf instance <name:word>", Key: "vrf instance {name}", Rank: rankVRF, Natural: true, Enter: modeVRF, Label: label("vrf", "name")},
		{Modes: []string{modeVRF}, Syntax: "description <text:rest>", Key: "description", Rank: 1, No: []string{"description", "="}},

		// management api http-commands (dc1-spine1.cfg).
		{Modes: []string{"config"}, Syntax: "management api http-commands", Rank: rankMgmtAPI, Enter: modeMgmtAPI, Label: label("mgmt-api-http-cmds", "")},
		{Modes: []string{modeMgmtAPI}, Syntax: "protocol <p:http|https> [port <n:1-65535>]", Key: "protocol {p}", Rank: 1},
		shutdownIn(modeMgmtAPI, 2),
		{Modes: []string{modeMgmtAPI}, Syntax: "vrf <v:word>", Key: "vrf {v}", Rank: 3, Natural: true, Enter: modeMgmtAPIVRF, Label: label("vrf", "v")},
		shutdownIn(modeMgmtAPIVRF, 1),
		// management api gnmi / netconf with their transports (cEOS's
		// running config in scrapligo's recording: "transport grpc
		// default", "transport ssh default", no "!" before them).
		{Modes: []string{"config"}, Syntax: "management api gnmi", Rank: rankMgmtAPI + 1, Enter: modeGNMI, Label: label("mgmt-api-gnmi", "")},
		{Modes: []string{modeGNMI}, Syntax: "transport grpc <name:word>", Key: "transport grpc {name}", Rank: 1, Natural: true, Enter: modeTransport, Label: label("transport", "name")},
		{Modes: []string{"config"}, Syntax: "management api netconf", Rank: rankMgmtAPI + 2, Enter: modeNetconf, Label: label("mgmt-api-netconf", "")},
		{Modes: []string{modeNetconf}, Syntax: "transport ssh <name:word>", Key: "transport ssh {name}", Rank: 1, Natural: true, Enter: modeTransport, Label: label("transport", "name")},
		{Modes: []string{modeTransport}, Syntax: "vrf <v:word>", Key: "vrf", Rank: 1, No: []string{"vrf", "="}},
		{Modes: []string{modeTransport}, Syntax: "port <n:1-65535>", Key: "port", Rank: 2, No: []string{"port", "="}},

		// Interface L2/L3 lines.
		shutdownIn(modeIf, ifShutdown),
		{Modes: []string{modeIf}, Syntax: "switchport", Key: "switchport", Rank: ifSwitchport, NoLine: true},
		{Modes: []string{modeIf}, Syntax: "switchport mode <m:access|trunk|dot1q-tunnel|routed>", Key: "switchport mode", Rank: ifSwMode, No: []string{"switchport mode", "="}},
		{Modes: []string{modeIf}, Syntax: "switchport access vlan <v:1-4094>", Key: "switchport access vlan", Rank: ifAccessVlan, No: []string{"switchport access vlan", "="}},
		{Modes: []string{modeIf}, Syntax: "switchport trunk native vlan <v:word>", Key: "switchport trunk native vlan", Rank: ifNativeVlan, No: []string{"switchport trunk native vlan", "="}},
		{Modes: []string{modeIf}, Syntax: "switchport trunk allowed vlan <v:vlans>", Key: "switchport trunk allowed vlan", Rank: ifTrunkVlan, No: []string{"switchport trunk allowed vlan", "="}},
		{Modes: []string{modeIf}, Syntax: "channel-group <n:1-2000> mode <m:active|passive|on>", Key: "channel-group", Rank: ifChanGroup, No: []string{"channel-group", "="}},
		{Modes: []string{modeIf}, Syntax: "vrf <v:word>", Key: "vrf", Rank: ifVRF, No: []string{"vrf", "="}},
		{Modes: []string{modeIf}, Syntax: "ip address <a:word>", Key: "ip address", Rank: ifIPAddr, No: []string{"ip address", "="}},
		{Modes: []string{modeIf}, Syntax: "ipv6 address <a:word>", Rank: ifIPv6Addr, Natural: true},
		// An SVI's anycast gateway and a Vxlan1's lines, in the order of
		// AVD's vlan-interfaces.j2 and vxlan-interface.j2 [I: from
		// AVD's templates, not seen on a switch].
		{Modes: []string{modeIf}, Syntax: "ip address virtual <a:word>", Key: "ip address virtual", Rank: ifIPAddr, No: []string{"ip address virtual", "="}},
		{Modes: []string{modeIf}, Syntax: "vxlan source-interface <i:ifs>", Key: "vxlan source-interface", Rank: ifVxlan, No: []string{"vxlan source-interface", "="}},
		{Modes: []string{modeIf}, Syntax: "vxlan udp-port <n:1-65535>", Key: "vxlan udp-port", Rank: ifVxlan + 1, No: []string{"vxlan udp-port", "="}},
		{Modes: []string{modeIf}, Syntax: "vxlan vlan <v:vlans> vni <n:word>", Key: "vxlan vlan {v} vni", Rank: ifVxlan + 2, Natural: true, No: []string{"vxlan vlan <v:vlans> vni", "="}},
		{Modes: []string{modeIf}, Syntax: "vxlan vrf <v:word> vni <n:word>", Key: "vxlan vrf {v} vni", Rank: ifVxlan + 3, Natural: true, No: []string{"vxlan vrf <v:word> vni", "="}},
		{Modes: []string{modeIf}, Syntax: "spanning-tree portfast", Key: "spanning-tree portfast", Rank: ifSTP, NoLine: true},
		// An edge port, as a live show running-config prints it (eos.md [T:azl]).
		{Modes: []string{modeIf}, Syntax: "spanning-tree portfast edge", Key: "spanning-tree portfast", Rank: ifSTP},
		{Modes: []string{modeIf}, Syntax: "spanning-tree bpduguard <x:enable|disable>", Key: "spanning-tree bpduguard", Rank: ifSTP + 1, No: []string{"spanning-tree bpduguard", "="}},

		// ACLs, routing policy and static routes.
		{Modes: []string{"config"}, Syntax: "ip access-list <name:word>", Key: "ip access-list {name}", Rank: rankACL, Natural: true, Enter: modeACL, Label: label("acl", "name")},
		{Modes: []string{modeACL}, Syntax: "counters per-entry", Rank: 0},
		{Modes: []string{modeACL}, Syntax: "<seq:1-4294967295> <a:permit|deny|remark> <rest:rest>", Key: "{seq}", Rank: 1, Natural: true, No: []string{"<seq:1-4294967295>", "="}},
		// A rule typed without a sequence number gets the last one plus
		// 10 (AVD's molecule ip-access-lists.cfg renders such rules; EOS
		// numbers them so) [I: the step].
		{Modes: []string{modeACL}, Syntax: "<a:permit|deny|remark> <rest:rest>", No: []string{}, Do: doACLRule},
		{Modes: []string{"config"}, Syntax: "ip routing", Key: "ip routing", Rank: rankIPRouting, NoLine: true},
		{Modes: []string{"config"}, Syntax: "ip routing vrf <v:word>", Key: "ip routing vrf {v}", Rank: rankIPRouting + 1, Natural: true, NoLine: true},
		{Modes: []string{"config"}, Syntax: "ip prefix-list <name:word>", Key: "ip prefix-list {name}", Rank: rankPrefixList, Natural: true, Enter: modePrefixList, Label: label("ip-pfx", "")},
		{Modes: []string{modePrefixList}, Syntax: "seq <n:1-65535> <a:permit|deny> <p:word> [<rest:rest>]", Key: "seq {n}", Rank: 1, Natural: true, No: []string{"seq <n:1-65535>", "="}},
		{Modes: []string{"config"}, Syntax: "ip route vrf <v:word> <p:word> <rest:rest>", Rank: rankStaticRoute},
		{Modes: []string{"config"}, Syntax: "ip route <p:word> <rest:rest>", Rank: rankStaticRoute},
		{Modes: []string{"config"}, Syntax: "ntp local-interface vrf <v:word> <i:ifs>", Key: "ntp local-interface", Rank: rankNTP},
		{Modes: []string{"config"}, Syntax: "ntp local-interface <i:ifs>", Key: "ntp local-interface", Rank: rankNTP},
		{Modes: []string{"config"}, Syntax: "ntp server vrf <v:word> <h:word> [<rest:rest>]", Key: "ntp server {v} {h}", Rank: rankNTP + 1, No: []string{"ntp server vrf <v:word> <h:word>", "="}},
		{Modes: []string{"config"}, Syntax: "ntp server <h:word> [<rest:rest>]", Key: "ntp server  {h}", Rank: rankNTP + 1, No: []string{"ntp server <h:word>", "="}},
		{Modes: []string{"config"}, Syntax: "route-map <name:word> <a:permit|deny> <seq:1-65535>", Key: "route-map {name} {seq}", Rank: rankRouteMap, Natural: true, Enter: modeRouteMap,
			Label: label("route-map", "name")},
		{Modes: []string{modeRouteMap}, Syntax: "description <text:rest>", Key: "description", Rank: 1, No: []string{"description", "="}},
		{Modes: []string{modeRouteMap}, Syntax: "match <rest:rest>", Rank: 2},
		{Modes: []string{modeRouteMap}, Syntax: "set <rest:rest>", Rank: 4},

		// Routing protocols (dc1-spine1.cfg router bfd, router bgp).
		{Modes: []string{"config"}, Syntax: "router bfd", Rank: rankRouterBFD, Enter: modeBFD, Label: label("router-bfd", "")},
		{Modes: []string{modeBFD}, Syntax: "interval <rest:rest>", Key: "interval", Rank: 1, No: []string{"interval", "="}},
		{Modes: []string{modeBFD}, Syntax: "multihop interval <rest:rest>", Key: "multihop interval", Rank: 2, No: []string{"multihop interval", "="}},
		{Modes: []string{"config"}, Syntax: "router bgp <asn:word>", Key: "router bgp", Rank: rankRouterBGP, Enter: modeBGP, Label: label("router-bgp", "")},
		{Modes: []string{modeBGP}, Syntax: "router-id <id:word>", Key: "router-id", Rank: 1, No: []string{"router-id", "="}},
		{Modes: []string{modeBGP}, Syntax: "bgp default ipv4-unicast", Key: "bgp default ipv4-unicast", Rank: 2, NoLine: true},
		{Modes: []string{modeBGP}, Syntax: "bgp <rest:rest>", Rank: 2},
		{Modes: []string{modeBGP}, Syntax: "distance bgp <rest:rest>", Key: "distance bgp", Rank: 3, No: []string{"distance bgp", "="}},
		{Modes: []string{modeBGP}, Syntax: "maximum-paths <rest:rest>", Key: "maximum-paths", Rank: 3, No: []string{"maximum-paths", "="}},
		{Modes: []string{modeBGP, modeBGPAF}, Syntax: "neighbor <n:word> activate", Key: "neighbor {n} activate", Rank: 4, NoLine: true},
		{Modes: []string{modeBGP, modeBGPAF}, Syntax: "neighbor <n:word> <attr:word> [<rest:rest>]", Key: "neighbor {n} {attr}", Rank: 4,
			No: []string{"neighbor <n:word> <attr:word> [<rest:rest>]"}},
		{Modes: []string{modeBGP, modeBGPAF}, Syntax: "redistribute <what:word> [<rest:rest>]", Key: "redistribute {what}", Rank: 5, No: []string{"redistribute <what:word> [<rest:rest>]"}},
		{Modes: []string{modeBGPAF}, Syntax: "network <rest:rest>", Rank: 5},
		{Modes: []string{modeBGP}, Syntax: "address-family <af:ipv4|ipv6|evpn>", Key: "address-family {af}", Rank: 6, Enter: modeBGPAF, Label: label("af", "")},
	}
}

// doACLRule adds a rule typed without a sequence number after the last
// one, numbered 10 more.
func doACLRule(s *session, st *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	for _, acl := range st.Frames[len(st.Frames)-1].Nodes {
		var last int64
		for _, c := range acl.Children {
			if n, err := strconv.ParseInt(c.Key, 10, 64); err == nil && n > last {
				last = n
			}
		}
		if last+10 > 4294967295 {
			return errInvalid + "\n", false
		}
		seq := strconv.FormatInt(last+10, 10)
		st.Tree.Set(acl, seq, seq+" "+m.Text(), 1, true, "")
	}
	return "", false
}
