package nxos

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/lossless-net/lossless/internal/lab/grammar"
)

// The configuration of a data-centre switch outside QoS: features,
// management lines, VLANs, VRFs, prefix-lists, route-maps, ACLs, the
// L2/L3 settings of interfaces and BGP, at the depth needed to keep each
// line's place in show running-config and print it back; nothing here is
// emulated beyond that. Syntax and modes are from public sources:
//   - [leaf93] a Nexus 9000v 9.3(10) show running-config
//     (github.com/Phil27034/DCND, Lab-6-EVPN-Overlay-L3/leaf-1.md): the
//     order vdc, features, management lines (no password strength-check,
//     username, ip domain-lookup, copp profile, snmp-server, rmon), vlan,
//     vrf context, interfaces (Vlan, nve, Ethernet, mgmt0, loopback),
//     line console, line vty, boot, router bgp; the blank lines between
//     those blocks; "vlan 1,100,200,300" then each VLAN with settings;
//     router bgp with address-family and neighbor blocks.
//   - [n9kv92] scrapligo v1.4.3's recording of a Nexus 9000v 9.2(4)
//     (driver/network/test-fixtures/golden/functional-send-command-simple-cisco_nxos-standard-out.txt):
//     feature lines, "username NAME password 5 HASH  role ROLE" (two
//     spaces before role), interface mgmt0 with vrf member and ip address.
//   - [spine92] a Nexus 9000v 9.2(2) spine
//     (github.com/Jon-Wang1/VXLAN_MP_MS, 01_DC01/02_Spines/02_Pod02_Spines/001_DC1_Pod02_Spine01.md):
//     route-map before vrf context with no blank line between; line
//     console right after the last interface; router bgp with template
//     peer and neighbor address-family lines (send-community [extended],
//     route-map NAME out).
//   - [n9k703] a Nexus 9000 7.0(3) show running-config found by the
//     search tool ("ip access-list test / 10 permit ip any any dscp
//     af12" after ip domain-lookup and before copp profile; "vlan 1",
//     a blank line, then "ip prefix-list NAME seq N permit PREFIX" and
//     route-map stanzas).
//   - [bf] batfish's NX-OS grammar (github.com/batfish/batfish,
//     projects/batfish/src/main/antlr4/org/batfish/vendor/cisco_nxos/grammar):
//     which lines each mode takes.
//   - [if10x] Cisco Nexus 9000 NX-OS Interfaces Configuration Guide:
//     switchport mode access|trunk, switchport access vlan,
//     switchport trunk native|allowed vlan, spanning-tree port type
//     edge [trunk], no cdp enable, ip address A/LEN, no shutdown.
//
// [I] where no source read gives it: the place of ntp and logging lines
// (ntp with the management lines, logging after router bgp) and of
// ip access-list among the management lines; inside a block the lab
// keeps the order lines were typed in, which is NX-OS's own order for a
// config pasted from show running-config.

// Top-level ranks of the non-QoS blocks, around the QoS ranks of
// grammar.go ([leaf93] order).
const (
	rankVDC     = 1
	rankFeature = 2
	rankMgmt    = 3
	rankVLAN    = 32
	rankRouting = 34
	rankTail    = 50
)

// Interface child ranks outside QoS: L2 lines after description, L3
// lines after the QoS ones, shutdown last ([leaf93], [spine92]).
const (
	rankIfL2   = 2
	rankIfL3   = 30
	rankIfShut = 40
)

// joinedRanks are the blocks whose stanzas follow each other with no
// blank line ([leaf93]: vlan stanzas, vrf contexts; [spine92]: the tail).
var joinedRanks = map[int]bool{rankVDC: true, rankFeature: true, rankMgmt: true, rankVLAN: true, rankRouting: true, rankTail: true}

// features are the feature names of the sources ([leaf93], [n9kv92],
// [spine92], and the Nexus 9000 configuration guides for lacp, lldp,
// vpc, bfd, ospf, pim, hsrp, tacacs+).
const features = "bgp|bfd|bash-shell|dhcp|grpc|hsrp|interface-vlan|lacp|lldp|netconf|ngoam|nxapi|ospf|pim|ptp|scp-server|sftp-server|tacacs+|telnet|udld|vn-segment-vlan-based|vpc"

// wholeEntries are the non-QoS lines; all but the ACL ones are refused
// in a configuration session (session.go [sm105]: only ACL and QoS).
var wholeEntries = []e{
	// Top level.
	{Modes: []string{"config"}, Syntax: "hostname <name:word>", No: []string{}, Do: doHostname, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "vdc <name:word> id <n:1-8>", Key: "vdc", Rank: rankVDC, Enter: "config-vdc", No: []string{}, Check: notInSession},
	{Modes: []string{"config-vdc"}, Syntax: "limit-resource <what:word> minimum <lo:0-4294967295> maximum <hi:0-4294967295>", Key: "limit-resource {what}", Check: notInSession},
	{Modes: []string{"config"}, Syntax: "feature <f:" + features + ">", Rank: rankFeature, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "feature nv overlay", Rank: rankFeature, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "feature fabric forwarding", Rank: rankFeature, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "nv overlay evpn", Rank: rankFeature, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "password strength-check", Rank: rankMgmt, NoLine: true, Default: "password strength-check", Check: notInSession},
	{Modes: []string{"config"}, Syntax: "username <u:word> <k:password|role|passphrase|sshkey> <v:rest>", Key: "username {u} {k}", Rank: rankMgmt,
		No: []string{"username <u:word> <k:password|role|passphrase|sshkey> [<v:rest>]"}, Text: usernameText, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "ip domain-lookup", Rank: rankMgmt, NoLine: true, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "ip domain-name <n:word>", Key: "ip domain-name", Rank: rankMgmt, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "ip name-server <v:rest>", Key: "ip name-server", Rank: rankMgmt, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "copp profile <p:strict|moderate|lenient|dense>", Key: "copp profile", Rank: rankMgmt, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "snmp-server <v:rest>", Rank: rankMgmt, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "rmon event <n:1-65535> <v:rest>", Key: "rmon event {n}", Rank: rankMgmt, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "ntp server <ip:ip> [<v:rest>]", Key: "ntp server {ip}", Rank: rankMgmt, No: []string{"ntp server <ip:ip> [<v:rest>]"}, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "ntp source-interface <if:ifs>", Key: "ntp source-interface", Rank: rankMgmt, Check: notInSession},
	// ip access-list NAME: entries numbered by 10 when typed without a
	// number ([n9k703]); allowed in a configuration session [sm105].
	{Modes: []string{"config"}, Syntax: "ip access-list <name:word>", Key: "ip access-list {name}", Rank: rankMgmt, Enter: "config-acl"},
	{Modes: []string{"config-acl"}, Syntax: "<seq:seq> <a:permit|deny> <v:rest>", Key: "{seq}", Natural: true, Text: aceText, No: []string{"<seq:seq> [<a:permit|deny>] [<v:rest>]"}},
	{Modes: []string{"config-acl"}, Syntax: "<a:permit|deny> <v:rest>", Key: "{seq}", Natural: true, Text: aceText, Check: nextACE, No: []string{}},
	{Modes: []string{"config-acl"}, Syntax: "<seq:seq> remark <v:rest>", Key: "{seq}", Natural: true, Text: remarkText},
	{Modes: []string{"config-acl"}, Syntax: "remark <v:rest>", Key: "{seq}", Natural: true, Text: remarkText, Check: nextACE, No: []string{}},
	{Modes: []string{"config-acl"}, Syntax: "statistics per-entry", Rank: -1},

	// vlan N[,M-P]: one stanza per VLAN ([leaf93]).
	{Modes: []string{"config"}, Syntax: "vlan <v:vlans>", Rank: rankVLAN, Natural: true, Enter: "config-vlan", EnterMulti: "config-vlan",
		Expand: expandVLANs, Check: notInSession},
	{Modes: []string{"config-vlan"}, Syntax: "name <n:word>", Key: "name", No: []string{"name [<n:word>]"}, Check: notInSession},
	{Modes: []string{"config-vlan"}, Syntax: "vn-segment <n:1-16777214>", Key: "vn-segment", No: []string{"vn-segment [<n:1-16777214>]"}, Check: notInSession},

	// Routing policy and VRFs ([n9k703], [spine92], [leaf93]).
	{Modes: []string{"config"}, Syntax: "ip prefix-list <name:word> seq <seq:seq> <a:permit|deny> <p:prefix> [<v:rest>]", Key: "ip prefix-list {name} seq {seq}", Rank: rankRouting,
		No: []string{"ip prefix-list <name:word> seq <seq:seq> [<a:permit|deny>] [<p:prefix>] [<v:rest>]"}, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "ip prefix-list <name:word> <a:permit|deny> <p:prefix> [<v:rest>]", Key: "ip prefix-list {name} seq {seq}", Rank: rankRouting,
		Text: prefixListText, Check: nextPrefixSeq, No: []string{}},
	{Modes: []string{"config"}, Syntax: "ip prefix-list <name:word> description <v:rest>", Key: "ip prefix-list {name} description", Rank: rankRouting, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "route-map <name:word> [<a:permit|deny>] [<seq:0-65535>]", Key: "route-map {name} {seq}", Rank: rankRouting,
		Enter: "config-route-map", Text: routeMapText, Check: routeMapDefaults},
	{Modes: []string{"config-route-map"}, Syntax: "match <v:rest>", Check: notInSession},
	{Modes: []string{"config-route-map"}, Syntax: "set <v:rest>", Check: notInSession},
	{Modes: []string{"config-route-map"}, Syntax: "description <v:rest>", Key: "description", Rank: -1, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "vrf context <name:word>", Key: "vrf context {name}", Rank: rankRouting, Enter: "config-vrf", Check: notInSession},
	{Modes: []string{"config-vrf"}, Syntax: "ip route <v:rest>", Check: notInSession},
	{Modes: []string{"config-vrf"}, Syntax: "vni <n:1-16777214>", Key: "vni", Rank: -2, Check: notInSession},
	{Modes: []string{"config-vrf"}, Syntax: "rd <v:word>", Key: "rd", Rank: -1, Check: notInSession},
	{Modes: []string{"config-vrf"}, Syntax: "address-family ipv4 unicast", Rank: 1, Enter: "config-vrf-af-ipv4", Check: notInSession},
	{Modes: []string{"config-vrf"}, Syntax: "address-family ipv6 unicast", Rank: 1, Enter: "config-vrf-af-ipv6", Check: notInSession},
	{Modes: []string{"config-vrf-af-ipv4", "config-vrf-af-ipv6"}, Syntax: "route-target <k:import|export|both> <v:rest>", Check: notInSession},

	// Interfaces ([if10x], [leaf93], [spine92]).
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "switchport", Rank: rankIfL2, NoLine: true, Check: notInSession},
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "switchport mode <m:access|trunk|fex-fabric|dot1q-tunnel>", Key: "switchport mode", Rank: rankIfL2,
		No: []string{"switchport mode [<m:access|trunk|fex-fabric|dot1q-tunnel>]"}, Check: notInSession},
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "switchport access vlan <v:1-4094>", Key: "switchport access vlan", Rank: rankIfL2,
		No: []string{"switchport access vlan [<v:1-4094>]"}, Check: notInSession},
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "switchport trunk native vlan <v:1-4094>", Key: "switchport trunk native vlan", Rank: rankIfL2,
		No: []string{"switchport trunk native vlan [<v:1-4094>]"}, Check: notInSession},
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "switchport trunk allowed vlan <v:allowed>", Key: "switchport trunk allowed vlan", Rank: rankIfL2,
		No: []string{"switchport trunk allowed vlan [<v:allowed>]"}, Check: notInSession},
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "spanning-tree port type <t:edge|network|normal> [trunk]", Key: "spanning-tree port type", Rank: rankIfL2,
		No: []string{"spanning-tree port type [<t:edge|network|normal>] [trunk]"}, Check: notInSession},
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "spanning-tree bpduguard <v:enable|disable>", Key: "spanning-tree bpduguard", Rank: rankIfL2,
		No: []string{"spanning-tree bpduguard [<v:enable|disable>]"}, Check: notInSession},
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "spanning-tree bpdufilter <v:enable|disable>", Key: "spanning-tree bpdufilter", Rank: rankIfL2,
		No: []string{"spanning-tree bpdufilter [<v:enable|disable>]"}, Check: notInSession},
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "channel-group <n:1-4096> [mode <m:active|passive|on>]", Key: "channel-group", Rank: rankIfL3,
		No: []string{"channel-group [<n:1-4096>] [mode <m:active|passive|on>]"}, Check: notInSession},
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "vrf member <name:word>", Key: "vrf member", Rank: rankIfL3,
		No: []string{"vrf member [<name:word>]"}, Check: notInSession},
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "ip address <a:addr>", Key: "ip address", Rank: rankIfL3,
		No: []string{"ip address [<a:addr>]"}, Check: notInSession},
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "ip address <a:addr> secondary", Key: "ip address {a} secondary", Rank: rankIfL3, Check: notInSession},
	// [no] logging event port link-status: both forms are shown in
	// running configs (Microsoft's Azure Local ToR references,
	// github.com/Azure/AzureLocal-Supportability
	// TSG/Networking/Top-Of-Rack-Switch/Reference-TOR-QOS-Policy-Configuration.md:
	// "no logging event port link-status" on a storage port, and
	// Reference-TOR-Disaggregated-Switched-Storage.md: "logging event port
	// link-status" on a compute port), so neither is a hidden default.
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "logging event port link-status", Key: "logging event port link-status", Rank: rankIfL3,
		NoLine: true, Check: notInSession},
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "cdp enable", Key: "cdp enable", Rank: rankIfL3, NoLine: true, Default: "cdp enable", Check: notInSession},
	{Modes: []string{"config-if", "config-if-range"}, Syntax: "shutdown", Key: "shutdown", Rank: rankIfShut, NoLine: true, Check: notInSession},

	// The tail: line, boot, router bgp, logging ([leaf93], [spine92]).
	{Modes: []string{"config"}, Syntax: "line <l:console|vty>", Key: "line {l}", Rank: rankTail, Enter: "config-line", No: []string{}, Check: notInSession},
	{Modes: []string{"config-line"}, Syntax: "exec-timeout <n:0-525600>", Key: "exec-timeout", No: []string{"exec-timeout [<n:0-525600>]"}, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "boot nxos <f:word> [<sup:sup-1|sup-2>]", Key: "boot nxos {sup}", Rank: rankTail, Check: notInSession},
	{Modes: []string{"config"}, Syntax: "router bgp <as:asn>", Key: "router bgp", Rank: rankTail, Enter: "config-router", Check: notInSession},
	{Modes: []string{"config"}, Syntax: "logging <v:rest>", Rank: rankTail, Check: notInSession},
}

// BGP ([leaf93], [spine92], [bf] CiscoNxos_bgp.g4; prompts from the
// Nexus 9000 Unicast Routing Configuration Guide, "Configuring Basic
// BGP": config-router, config-router-af, config-router-neighbor,
// config-router-neighbor-af, config-router-vrf).
var bgpEntries = []e{
	{Modes: []string{"config-router", "config-router-vrf"}, Syntax: "router-id <id:ip>", Key: "router-id", Rank: -3, No: []string{"router-id [<id:ip>]"}, Check: notInSession},
	{Modes: []string{"config-router", "config-router-vrf"}, Syntax: "log-neighbor-changes", Rank: -2, Check: notInSession},
	{Modes: []string{"config-router", "config-router-vrf"}, Syntax: "bestpath <v:rest>", Rank: -2, Check: notInSession},
	{Modes: []string{"config-router"}, Syntax: "address-family <af:ipv4|ipv6|l2vpn> <saf:unicast|evpn>", Key: "address-family {af} {saf}", Rank: -1,
		Enter: "config-router-af", Check: notInSession},
	{Modes: []string{"config-router-vrf"}, Syntax: "address-family <af:ipv4|ipv6> unicast", Key: "address-family {af} unicast", Rank: -1,
		Enter: "config-router-vrf-af", Check: notInSession},
	{Modes: []string{"config-router-af", "config-router-vrf-af"}, Syntax: "network <p:prefix> [<v:rest>]", Key: "network {p}", Check: notInSession},
	{Modes: []string{"config-router-af", "config-router-vrf-af"}, Syntax: "maximum-paths [ibgp] <n:1-64>", Check: notInSession},
	{Modes: []string{"config-router-af", "config-router-vrf-af"}, Syntax: "redistribute <v:rest>", Check: notInSession},
	{Modes: []string{"config-router-af"}, Syntax: "retain route-target all", Check: notInSession},
	{Modes: []string{"config-router"}, Syntax: "template peer <name:word>", Key: "template peer {name}", Enter: "config-router-neighbor", Check: notInSession},
	{Modes: []string{"config-router"}, Syntax: "neighbor <ip:peer>", Key: "neighbor {ip}", Natural: true, Rank: 1, Enter: "config-router-neighbor", Check: notInSession},
	{Modes: []string{"config-router-vrf"}, Syntax: "neighbor <ip:peer>", Key: "neighbor {ip}", Natural: true, Rank: 1, Enter: "config-router-vrf-neighbor", Check: notInSession},
	{Modes: []string{"config-router"}, Syntax: "vrf <name:word>", Key: "vrf {name}", Rank: 2, Enter: "config-router-vrf", Check: notInSession},
	{Modes: []string{"config-router-neighbor", "config-router-vrf-neighbor"}, Syntax: "inherit peer <name:word>", Key: "inherit peer", Rank: -2, Check: notInSession},
	{Modes: []string{"config-router-neighbor", "config-router-vrf-neighbor"}, Syntax: "remote-as <as:asn>", Key: "remote-as", Rank: -1, No: []string{"remote-as [<as:asn>]"}, Check: notInSession},
	{Modes: []string{"config-router-neighbor", "config-router-vrf-neighbor"}, Syntax: "description <v:rest>", Key: "description", Rank: -1, No: []string{"description [<v:rest>]"}, Check: notInSession},
	{Modes: []string{"config-router-neighbor", "config-router-vrf-neighbor"}, Syntax: "update-source <if:ifs>", Key: "update-source", No: []string{"update-source [<if:ifs>]"}, Check: notInSession},
	{Modes: []string{"config-router-neighbor", "config-router-vrf-neighbor"}, Syntax: "ebgp-multihop <n:2-255>", Key: "ebgp-multihop", No: []string{"ebgp-multihop [<n:2-255>]"}, Check: notInSession},
	{Modes: []string{"config-router-neighbor", "config-router-vrf-neighbor"}, Syntax: "password <v:rest>", Key: "password", No: []string{"password [<v:rest>]"}, Check: notInSession},
	{Modes: []string{"config-router-neighbor", "config-router-vrf-neighbor"}, Syntax: "bfd", Check: notInSession},
	{Modes: []string{"config-router-neighbor", "config-router-vrf-neighbor"}, Syntax: "shutdown", Check: notInSession},
	{Modes: []string{"config-router-neighbor"}, Syntax: "address-family <af:ipv4|ipv6|l2vpn> <saf:unicast|evpn>", Key: "address-family {af} {saf}", Rank: 1,
		Enter: "config-router-neighbor-af", Check: notInSession},
	{Modes: []string{"config-router-vrf-neighbor"}, Syntax: "address-family <af:ipv4|ipv6> unicast", Key: "address-family {af} unicast", Rank: 1,
		Enter: "config-router-vrf-neighbor-af", Check: notInSession},
	{Modes: []string{"config-router-neighbor-af", "config-router-vrf-neighbor-af"}, Syntax: "send-community [extended]", Check: notInSession},
	{Modes: []string{"config-router-neighbor-af", "config-router-vrf-neighbor-af"}, Syntax: "route-map <name:word> <dir:in|out>", Key: "route-map {dir}", Check: notInSession},
	{Modes: []string{"config-router-neighbor-af", "config-router-vrf-neighbor-af"}, Syntax: "prefix-list <name:word> <dir:in|out>", Key: "prefix-list {dir}", Check: notInSession},
	{Modes: []string{"config-router-neighbor-af", "config-router-vrf-neighbor-af"}, Syntax: "<k:next-hop-self|route-reflector-client|soft-reconfiguration|allowas-in|rewrite-evpn-rt-asn|as-override> [<v:rest>]", Key: "{k}", Check: notInSession},
	{Modes: []string{"config-router-neighbor-af", "config-router-vrf-neighbor-af"}, Syntax: "maximum-prefix <v:rest>", Key: "maximum-prefix", Check: notInSession},
}

// allEntries is the whole command table: QoS (grammar.go), then the
// rest of a switch's config.
func allEntries() []e {
	all := append([]e(nil), entries...)
	all = append(all, wholeEntries...)
	return append(all, bgpEntries...)
}

// allTypes are the argument types of both tables.
func allTypes() map[string]grammar.Type {
	all := map[string]grammar.Type{}
	for k, v := range types {
		all[k] = v
	}
	for k, v := range wholeTypes {
		all[k] = v
	}
	return all
}

// wholeTypes are the argument types of this file.
var wholeTypes = map[string]grammar.Type{
	"vlans":   vlanList,
	"allowed": allowedVLANs,
	"seq":     grammar.IntRange(1, 4294967295),
	"ip":      ipAddr,
	"peer":    peerAddr,
	"prefix":  prefixType,
	"addr":    ifAddr,
	"asn":     asnType,
}

// doHostname renames the switch: the prompt and show running-config
// follow.
func doHostname(s *session, _ *grammar.State, _ grammar.Neg, m grammar.Match) (string, bool) {
	s.d.host = m.Args["name"]
	return "", false
}

// usernameText prints a username line as NX-OS does: two spaces before
// role ([n9kv92], [leaf93]) and after passphrase ([n9kv92]: "username
// boxen passphrase  lifetime 99999 warntime 14 gracetime 3").
func usernameText(m grammar.Match) string {
	t := m.Text()
	switch m.Args["k"] {
	case "password":
		t = strings.Replace(t, " role ", "  role ", 1)
	case "passphrase":
		t = strings.Replace(t, " passphrase ", " passphrase  ", 1)
	}
	return t
}

// aceText and remarkText print an ACL entry with its number.
func aceText(m grammar.Match) string {
	return m.Args["seq"] + " " + m.Args["a"] + " " + m.Args["v"]
}

func remarkText(m grammar.Match) string { return m.Args["seq"] + " remark " + m.Args["v"] }

// nextACE numbers an ACL entry typed without a number: 10 past the
// highest ([n9k703]: the first is 10).
func nextACE(_ *session, st *grammar.State, _ grammar.Neg, m grammar.Match) string {
	hi := 0
	for _, p := range st.Frames[len(st.Frames)-1].Nodes {
		for _, c := range p.Children {
			if n, err := strconv.Atoi(c.Key); err == nil && n > hi {
				hi = n
			}
		}
	}
	m.Args["seq"] = strconv.Itoa(hi/10*10 + 10)
	return ""
}

// prefixListText prints a prefix-list entry with its number.
func prefixListText(m grammar.Match) string {
	t := "ip prefix-list " + m.Args["name"] + " seq " + m.Args["seq"] + " " + m.Args["a"] + " " + m.Args["p"]
	if v := m.Args["v"]; v != "" {
		t += " " + v
	}
	return t
}

// nextPrefixSeq numbers a prefix-list entry typed without seq: 5 past
// the list's highest [I: NX-OS's documented default increment of 5,
// Nexus 9000 Unicast Routing Guide, "Configuring IP Prefix Lists"].
func nextPrefixSeq(s *session, st *grammar.State, _ grammar.Neg, m grammar.Match) string {
	if msg := notInSession(s, st, grammar.NotNegated, m); msg != "" {
		return msg
	}
	prefix := "ip prefix-list " + m.Args["name"] + " seq "
	hi := 0
	for _, c := range st.Tree.Root.Children {
		if v, ok := strings.CutPrefix(c.Key, prefix); ok {
			if n, err := strconv.Atoi(v); err == nil && n > hi {
				hi = n
			}
		}
	}
	m.Args["seq"] = strconv.Itoa(hi/5*5 + 5)
	return ""
}

// routeMapDefaults fills a route-map's defaults, permit and 10 ([bf]
// CiscoNxos_route_map.g4; Nexus 9000 Unicast Routing Guide).
func routeMapDefaults(s *session, st *grammar.State, neg grammar.Neg, m grammar.Match) string {
	if msg := notInSession(s, st, neg, m); msg != "" {
		return msg
	}
	if m.Args["a"] == "" {
		m.Args["a"] = "permit"
	}
	if m.Args["seq"] == "" {
		m.Args["seq"] = "10"
	}
	return ""
}

func routeMapText(m grammar.Match) string {
	return "route-map " + m.Args["name"] + " " + m.Args["a"] + " " + m.Args["seq"]
}

// vlanList is the Type of a VLAN list ("1,100,200-210"), 1-4094.
func vlanList(tok string) (string, *grammar.Error) {
	ids, err := vlanIDs(tok)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, id := range ids {
		parts = append(parts, strconv.Itoa(id))
	}
	return strings.Join(parts, ","), nil
}

// vlanIDs expands a VLAN list.
func vlanIDs(tok string) ([]int, *grammar.Error) {
	var ids []int
	for _, part := range strings.Split(tok, ",") {
		a, b, ok := listPart(part)
		if !ok {
			return nil, &grammar.Error{Kind: grammar.Invalid}
		}
		if a < 1 || b > 4094 || b < a {
			return nil, &grammar.Error{Kind: grammar.OutOfRange, Lo: 1, Hi: 4094}
		}
		for v := a; v <= b; v++ {
			ids = append(ids, v)
		}
	}
	return ids, nil
}

// allowedVLANs is the Type of switchport trunk allowed vlan: a VLAN list
// kept as typed, or none or all [if10x].
func allowedVLANs(tok string) (string, *grammar.Error) {
	if t := strings.ToLower(tok); t == "none" || t == "all" {
		return t, nil
	}
	if _, err := vlanIDs(tok); err != nil {
		return "", err
	}
	return tok, nil
}

func expandVLANs(m grammar.Match) ([]string, string) {
	var texts []string
	for _, v := range strings.Split(m.Args["v"], ",") {
		texts = append(texts, "vlan "+v)
	}
	return texts, ""
}

// vlanSummary is the line NX-OS prints before the VLAN stanzas: every
// VLAN, runs joined ("vlan 1,100,200,300" [leaf93]; runs as "10-12").
func vlanSummary(nodes []*grammar.Node) string {
	var ids []int
	for _, n := range nodes {
		if id, err := strconv.Atoi(strings.TrimPrefix(n.Text, "vlan ")); err == nil {
			ids = append(ids, id)
		}
	}
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		p := strconv.Itoa(ids[i])
		if j > i {
			p += "-" + strconv.Itoa(ids[j])
		}
		parts = append(parts, p)
		i = j + 1
	}
	return "vlan " + strings.Join(parts, ",")
}

func ipAddr(tok string) (string, *grammar.Error) {
	a, err := netip.ParseAddr(tok)
	if err != nil || !a.Is4() {
		return "", &grammar.Error{Kind: grammar.Invalid}
	}
	return a.String(), nil
}

// peerAddr is a BGP neighbor: an address, or a prefix for dynamic peers.
func peerAddr(tok string) (string, *grammar.Error) {
	if a, err := netip.ParseAddr(tok); err == nil {
		return a.String(), nil
	}
	return prefixType(tok)
}

// prefixType is an A.B.C.D/LEN (or IPv6) network.
func prefixType(tok string) (string, *grammar.Error) {
	p, err := netip.ParsePrefix(tok)
	if err != nil {
		return "", &grammar.Error{Kind: grammar.Invalid}
	}
	return p.String(), nil
}

// ifAddr is an interface address A.B.C.D/LEN, host bits kept.
func ifAddr(tok string) (string, *grammar.Error) {
	p, err := netip.ParsePrefix(tok)
	if err != nil || !p.Addr().Is4() {
		return "", &grammar.Error{Kind: grammar.Invalid}
	}
	return p.String(), nil
}

// asnType is a BGP AS number, plain (1-4294967295) or dotted (1.10).
func asnType(tok string) (string, *grammar.Error) {
	hi, lo, dotted := strings.Cut(tok, ".")
	if !dotted {
		n, err := strconv.ParseUint(tok, 10, 32)
		if err != nil || n == 0 {
			return "", &grammar.Error{Kind: grammar.Invalid}
		}
		return tok, nil
	}
	for _, v := range []string{hi, lo} {
		if _, err := strconv.ParseUint(v, 10, 16); err != nil {
			return "", &grammar.Error{Kind: grammar.Invalid}
		}
	}
	return tok, nil
}
