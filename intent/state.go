package intent

import (
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/lossless-net/lossless/intent/headroom"
	"github.com/lossless-net/lossless/intent/platform"
	"github.com/lossless-net/lossless/internal/units"
)

// This file is the contract between intent and everything downstream
// (renderers, vendors, plan): the resolved, vendor-neutral desired state of
// one device. Every value is in a base unit; nothing here is a string that
// still needs parsing. Renderers read it and never write it.

// Device is the resolved desired state of one switch.
type Device struct {
	Name      string
	Vendor    string             // the vendor name as written in the inventory
	Platform  *platform.Platform // catalog entry selected by the inventory's platform
	Address   string
	Port      int    // management port (22 for SSH by default)
	Transport string // "ssh" or "gnmi"
	Roles     []string
	Tags      []string
	// Options are vendor-specific rendering choices written in the intent
	// (for example "eos.style" = "qos-profile"); shared code never reads
	// them, and a renderer rejects keys of its own prefix it does not know.
	Options map[string]string
	// Unmanaged is what plan does with objects of the families lossless
	// manages that the rendering does not contain: UnmanagedKeep (the
	// default) leaves them and lists them, UnmanagedPrune removes them.
	// An object referenced from outside the scope stays either way.
	Unmanaged string

	// QoS is the device-level QoS profile after device overrides. A port
	// whose QoS differs (a per-port override) carries its own in Port.QoS.
	QoS *QoS
	// Buffers is the device-level buffer profile after device overrides.
	Buffers *Buffers
	// Ports are the managed ports, in the order of their natural names
	// (Ethernet1/2 before Ethernet1/10).
	Ports []Port

	// Range is where the device is declared in the inventory.
	Range hcl.Range
}

// QoS is one resolved QoS profile.
type QoS struct {
	// Profile is the name of the qos_profile block ("roce"); renderers
	// derive the names of the objects they create from it.
	Profile string
	// Trust is what the switch classifies by: TrustDSCP (the default)
	// or TrustCoS (the 802.1p priority of the VLAN tag).
	Trust string
	// Classes are sorted by ID. IDs are unique, 0–7: the traffic class,
	// which is also the egress queue and the PFC priority.
	Classes []Class
	PFC     PFC
	// Names are the names of the profile-wide objects the renderers
	// create; an empty name leaves the renderer's default.
	Names Names
}

// Names are the names the intent gives the profile-wide objects of a
// rendering (a qos_profile's names block). Each vendor uses the ones its
// objects have, as written (case included); an empty name leaves the
// renderer's default, which no other class or setting changes.
type Names struct {
	// Classifier names what maps DSCP to traffic classes: NX-OS policy-map
	// type qos, Huawei CE diffserv domain, SONiC DSCP_TO_TC_MAP.
	Classifier string `json:"classifier,omitempty"`
	// Queuing names the NX-OS policy-map type queuing.
	Queuing string `json:"queuing,omitempty"`
	// NetworkQoS names the NX-OS policy-map type network-qos.
	NetworkQoS string `json:"network_qos,omitempty"`
	// PortProfile names the EOS qos profile (the qos-profile style).
	PortProfile string `json:"port_profile,omitempty"`
	// Maps names SONiC's TC_TO_QUEUE_MAP, TC_TO_PRIORITY_GROUP_MAP,
	// MAP_PFC_PRIORITY_TO_QUEUE and PFC_PRIORITY_TO_PRIORITY_GROUP_MAP.
	Maps string `json:"maps,omitempty"`
}

// ClassNames are the names the intent gives a class's own objects (a
// traffic_class's names block); an empty name leaves the renderer's
// default, derived from this class alone. Two classes may share a
// Scheduler or DropProfile only when what it holds is equal (LL038).
type ClassNames struct {
	// ClassMap names the NX-OS class-map type qos (default: the class).
	ClassMap string `json:"class_map,omitempty"`
	// Scheduler names the class's SONiC SCHEDULER.
	Scheduler string `json:"scheduler,omitempty"`
	// DropProfile names the class's ECN profile: SONiC WRED_PROFILE,
	// Huawei CE drop-profile.
	DropProfile string `json:"drop_profile,omitempty"`
}

// Class is one traffic class.
type Class struct {
	Name string // the traffic_class block label ("ROCEv2")
	ID   int    // 0–7: traffic class = egress queue = PFC priority
	// DSCP lists the code points mapped to this class, sorted, unique.
	// Empty for a class that only takes the default.
	DSCP []int
	// Default is true for the class that takes every DSCP no other class
	// claims (dscp = "default" in the intent). Exactly one class has it.
	Default bool
	// CoS lists the 802.1p priorities (PCP, 0–7) mapped to this class,
	// sorted, unique; DefaultCoS takes those no class claims (cos =
	// "default"). With TrustCoS they classify; with TrustDSCP they
	// classify frames without an IP header, where the vendor can.
	CoS        []int
	DefaultCoS bool
	// MatchAll says a packet belongs to the class only when it matches
	// every criterion given (NX-OS class-map match-all); false is
	// match-any, the default.
	MatchAll bool
	// Lossless puts the class's priority in PFC no-drop.
	Lossless bool
	// CNP marks the class that carries RoCE congestion notification
	// packets (strict priority, never lossless).
	CNP        bool
	Scheduling Scheduling
	// MTU is the class MTU in bytes; 0 leaves the vendor default.
	MTU int
	// ECN is the ECN/WRED marking on the class's queue; nil for none.
	ECN *ECN
	// Names are the names of the class's own objects.
	Names ClassNames

	Range hcl.Range
}

// SchedulingMode says how a class's queue is served.
type SchedulingMode int

// Scheduling modes. SchedulingUnset leaves the vendor's default in place.
const (
	SchedulingUnset SchedulingMode = iota
	SchedulingStrict
	SchedulingDWRR
)

// Scheduling is the egress scheduling of a class's queue.
type Scheduling struct {
	Mode SchedulingMode
	// Level is the strict-priority level, 1 the highest (Strict only).
	Level int
	// Bandwidth is the DWRR share in percent (DWRR only; 0 when Weight is
	// used instead).
	Bandwidth units.Percent
	// Weight is the DWRR weight (DWRR only; 0 when Bandwidth is used).
	Weight int
	// MinBandwidth is the share of the port guaranteed to the queue
	// whatever the others send (NX-OS bandwidth percent, EOS bandwidth
	// guaranteed percent), beside any mode; 0 for none.
	MinBandwidth units.Percent
	// Shape is the queue's maximum rate, beside any mode; 0 for none.
	Shape units.BitRate
}

// Threshold is an ECN threshold given as a size, as a time at line rate,
// or as a share of the queue's buffer limit; exactly one of the three is
// non-zero. A time converts to bytes only once the port speed is known:
// bytes = speed × time / 8. A share is the vendor's own (Huawei CE ecn
// low-limit/high-limit percent, FeatureECNPercent).
type Threshold struct {
	Bytes   units.Bytes
	Time    time.Duration
	Percent units.Percent
}

// ECN is the WRED/ECN marking profile of a queue.
type ECN struct {
	Min, Max Threshold
	// MaxProbability is the marking probability at Max, 0–100 percent
	// (0 where the vendor takes it: marking at Max only).
	MaxProbability units.Percent
	// DefaultProbability is true when the intent gives no
	// max_probability: the vendor's default stands (MaxProbability is 0).
	DefaultProbability bool
	// Weight is the WRED averaging weight; nil leaves the vendor default.
	Weight *int
	// Yellow and Red are the WRED of packets of those colours (drop
	// precedence: SONiC yellow_*/red_*, Huawei CE yellow/red): nil leaves
	// the vendor's default (no WRED on them); the thresholds above are
	// green's.
	Yellow, Red *ColorWRED
}

// ColorWRED is the WRED of one packet colour other than green.
type ColorWRED struct {
	Min, Max Threshold
	// MaxProbability is the marking (or drop) probability at Max, 0–100.
	MaxProbability units.Percent
	// Drop is true when WRED drops packets of the colour instead of
	// marking them ECN.
	Drop bool
}

// PFC holds the fabric-wide priority flow control settings of a profile.
// The PFC priorities themselves are the IDs of the lossless classes.
type PFC struct {
	// Mode is PFCOn (the default: PFC on the lossless priorities), PFCOff
	// (no PFC on the port although it has lossless classes) or PFCAuto
	// (negotiated with the peer by DCBX).
	Mode string
	// Watchdog is the PFC watchdog (Huawei: deadlock detection); nil for
	// off.
	Watchdog *Watchdog
}

// The trust modes and PFC modes.
const (
	TrustDSCP = "dscp"
	TrustCoS  = "cos"

	PFCOn   = "on"
	PFCOff  = "off"
	PFCAuto = "auto"
)

// Watchdog is the PFC watchdog / deadlock detection. A zero duration
// leaves the vendor's default.
type Watchdog struct {
	Detection   time.Duration
	Restoration time.Duration
	Polling     time.Duration
	// Action is what a stuck queue gets: "drop", "forward", "errdisable"
	// or "notify-only" (vendors support a subset).
	Action string
	// Priorities are the PFC priorities the watchdog watches, as a bit
	// mask (bit p for priority p); 0 watches every one (SONiC pfcwd on a
	// subset of pfc_enable). A mask keeps Watchdog comparable.
	Priorities uint8
}

// Watches reports whether the watchdog watches PFC priority p.
func (w *Watchdog) Watches(p int) bool {
	return w.Priorities == 0 || (p >= 0 && p < 8 && w.Priorities&(1<<p) != 0)
}

// LosslessPriorities returns the IDs of the lossless classes, ascending.
func (q *QoS) LosslessPriorities() []int {
	var p []int
	for _, c := range q.Classes {
		if c.Lossless {
			p = append(p, c.ID)
		}
	}
	return p
}

// Class returns the class with the given ID, or nil.
func (q *QoS) Class(id int) *Class {
	for i := range q.Classes {
		if q.Classes[i].ID == id {
			return &q.Classes[i]
		}
	}
	return nil
}

// DefaultClass returns the class that takes unmapped DSCPs.
func (q *QoS) DefaultClass() *Class {
	for i := range q.Classes {
		if q.Classes[i].Default {
			return &q.Classes[i]
		}
	}
	return nil
}

// Buffers is one resolved buffer profile.
type Buffers struct {
	Profile string // buffer_profile block label
	// Headroom is "auto" (computed per port) or explicit.
	Headroom HeadroomPolicy
	// LosslessPool and LossyPool are pool sizes in bytes; 0 leaves the
	// platform default.
	LosslessPool units.Bytes
	LossyPool    units.Bytes
	// HeadroomPool is the shared headroom pool size (Huawei family B's
	// mandatory `qos buffer headroom-pool`); 0 for none.
	HeadroomPool units.Bytes
	// Alpha is the dynamic-threshold exponent as the vendors write it
	// (SONiC dynamic_th, log2 of alpha); nil leaves the default.
	Alpha *int
}

// HeadroomPolicy says how lossless headroom is sized.
type HeadroomPolicy struct {
	Auto bool
	// Xoff and Xon are explicit values when Auto is false.
	Xoff, Xon units.Bytes
	// Size is the explicit reserved buffer of each lossless priority group
	// when Auto is false (SONiC BUFFER_PROFILE size); 0 leaves it to the
	// renderer (Xoff + Xon where the vendor needs one).
	Size units.Bytes
}

// Port is one managed port with its resolved settings.
type Port struct {
	Name  string
	Speed units.BitRate
	Cable units.Length
	// QoS is the port's profile: the device's, or its own after a per-port
	// override. Never nil.
	QoS *QoS
	// Headroom is the lossless headroom per lossless priority, computed or
	// explicit; empty when the port has no lossless class.
	Headroom []Headroom
	// Peer is "device:port" at the other end of a link, when known.
	Peer  string
	Range hcl.Range
}

// Headroom is one port's lossless headroom for one priority.
type Headroom struct {
	Priority int
	// Xoff is the headroom above the pause threshold that absorbs what
	// arrives after PAUSE is sent; Xon is the resume offset; Size is the
	// reserved (guaranteed) buffer. All rounded up to whole cells.
	Xoff, Xon, Size units.Bytes
	// Derivation explains each term of Xoff, in order, for `inspect`.
	Derivation []headroom.Term
}

// The values of unmanaged (assign and device override).
const (
	UnmanagedKeep  = "keep"
	UnmanagedPrune = "prune"
)
