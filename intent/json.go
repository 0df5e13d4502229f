package intent

import (
	"encoding/json"
	"time"

	"github.com/lossless-net/lossless/intent/headroom"
	"github.com/lossless-net/lossless/internal/units"
)

// DeviceJSON is the JSON form of a resolved Device, as `lossless inspect`
// prints it. Sizes are bytes, rates bits per second, lengths metres, and
// durations Go duration strings ("200ms"); names end in their unit.
type DeviceJSON struct {
	Name      string            `json:"name"`
	Vendor    string            `json:"vendor"`
	Platform  *PlatformJSON     `json:"platform"`
	Address   string            `json:"address"`
	Port      int               `json:"port,omitempty"`
	Transport string            `json:"transport,omitempty"`
	Roles     []string          `json:"roles,omitempty"`
	Tags      []string          `json:"tags,omitempty"`
	Options   map[string]string `json:"options,omitempty"`
	QoS       *QoSJSON          `json:"qos"`
	Buffers   *BuffersJSON      `json:"buffers"`
	Ports     []PortJSON        `json:"ports"`
	Declared  string            `json:"declared_at"`
}

// PlatformJSON is the catalog facts of the device's platform.
type PlatformJSON struct {
	Model       string      `json:"model"`
	ASIC        string      `json:"asic"`
	Family      string      `json:"family,omitempty"`
	BufferBytes units.Bytes `json:"buffer_bytes"`
	CellBytes   units.Bytes `json:"cell_bytes"`
}

// QoSJSON is a resolved QoS profile.
type QoSJSON struct {
	Profile            string      `json:"profile"`
	Trust              string      `json:"trust"`
	LosslessPriorities []int       `json:"lossless_priorities"`
	Classes            []ClassJSON `json:"classes"`
	// PFCMode is "off" or "auto"; omitted for "on", the default.
	PFCMode  string        `json:"pfc_mode,omitempty"`
	Watchdog *WatchdogJSON `json:"pfc_watchdog"`
	Names    *Names        `json:"names,omitempty"`
}

// ClassJSON is one traffic class.
type ClassJSON struct {
	Name       string         `json:"name"`
	ID         int            `json:"id"`
	DSCP       []int          `json:"dscp"`
	Default    bool           `json:"default,omitempty"`
	CoS        []int          `json:"cos,omitempty"`
	DefaultCoS bool           `json:"default_cos,omitempty"`
	MatchAll   bool           `json:"match_all,omitempty"`
	Lossless   bool           `json:"lossless"`
	CNP        bool           `json:"cnp,omitempty"`
	Scheduling SchedulingJSON `json:"scheduling"`
	MTUBytes   int            `json:"mtu_bytes,omitempty"`
	ECN        *ECNJSON       `json:"ecn,omitempty"`
	Names      *ClassNames    `json:"names,omitempty"`
	Declared   string         `json:"declared_at"`
}

// SchedulingJSON is a class's scheduling; Mode is "strict", "dwrr" or
// "default" (the vendor's).
type SchedulingJSON struct {
	Mode             string `json:"mode"`
	Level            int    `json:"level,omitempty"`
	BandwidthPercent int    `json:"bandwidth_percent,omitempty"`
	Weight           int    `json:"weight,omitempty"`
	// MinBandwidthPercent is the guaranteed share; ShapeBps the maximum
	// rate; each omitted when unset.
	MinBandwidthPercent int           `json:"min_bandwidth_percent,omitempty"`
	ShapeBps            units.BitRate `json:"shape_bps,omitempty"`
}

// ECNJSON is an ECN profile; each threshold is in bytes or as a time.
type ECNJSON struct {
	MinBytes units.Bytes `json:"min_threshold_bytes,omitempty"`
	MinTime  string      `json:"min_threshold_time,omitempty"`
	MaxBytes units.Bytes `json:"max_threshold_bytes,omitempty"`
	MaxTime  string      `json:"max_threshold_time,omitempty"`
	// MinPercent and MaxPercent are shares of the queue's buffer limit.
	MinPercent int `json:"min_threshold_percent,omitempty"`
	MaxPercent int `json:"max_threshold_percent,omitempty"`
	// MaxProbabilityPercent is null when the vendor's default stands.
	MaxProbabilityPercent *int `json:"max_probability_percent"`
	Weight                *int `json:"weight,omitempty"`
	// Yellow and Red are the other colours' WRED, omitted when unset.
	Yellow *ColorJSON `json:"yellow,omitempty"`
	Red    *ColorJSON `json:"red,omitempty"`
}

// ColorJSON is the WRED of one packet colour other than green.
type ColorJSON struct {
	MinBytes              units.Bytes `json:"min_threshold_bytes,omitempty"`
	MinTime               string      `json:"min_threshold_time,omitempty"`
	MaxBytes              units.Bytes `json:"max_threshold_bytes,omitempty"`
	MaxTime               string      `json:"max_threshold_time,omitempty"`
	MinPercent            int         `json:"min_threshold_percent,omitempty"`
	MaxPercent            int         `json:"max_threshold_percent,omitempty"`
	MaxProbabilityPercent int         `json:"max_probability_percent"`
	Drop                  bool        `json:"drop,omitempty"`
}

func colorJSON(c *ColorWRED) *ColorJSON {
	if c == nil {
		return nil
	}
	return &ColorJSON{MinBytes: c.Min.Bytes, MinTime: durText(c.Min.Time), MaxBytes: c.Max.Bytes, MaxTime: durText(c.Max.Time),
		MinPercent: int(c.Min.Percent), MaxPercent: int(c.Max.Percent), MaxProbabilityPercent: int(c.MaxProbability), Drop: c.Drop}
}

// WatchdogJSON is the PFC watchdog; an empty time is the vendor default.
type WatchdogJSON struct {
	Detection   string `json:"detection_time,omitempty"`
	Restoration string `json:"restoration_time,omitempty"`
	Polling     string `json:"polling_interval,omitempty"`
	Action      string `json:"action,omitempty"`
	// Priorities are the watched PFC priorities; omitted for all.
	Priorities []int `json:"priorities,omitempty"`
}

// BuffersJSON is a resolved buffer profile.
type BuffersJSON struct {
	Profile           string      `json:"profile,omitempty"`
	HeadroomAuto      bool        `json:"headroom_auto"`
	XoffBytes         units.Bytes `json:"xoff_bytes,omitempty"`
	XonBytes          units.Bytes `json:"xon_bytes,omitempty"`
	SizeBytes         units.Bytes `json:"size_bytes,omitempty"`
	LosslessPoolBytes units.Bytes `json:"lossless_pool_bytes,omitempty"`
	LossyPoolBytes    units.Bytes `json:"lossy_pool_bytes,omitempty"`
	HeadroomPoolBytes units.Bytes `json:"headroom_pool_bytes,omitempty"`
	Alpha             *int        `json:"alpha,omitempty"`
}

// PortJSON is one port; QoS is present only when a port override gives
// the port a profile of its own.
type PortJSON struct {
	Name        string         `json:"name"`
	SpeedBps    units.BitRate  `json:"speed_bps"`
	CableMetres float64        `json:"cable_m"`
	Peer        string         `json:"peer,omitempty"`
	QoS         *QoSJSON       `json:"qos,omitempty"`
	Headroom    []HeadroomJSON `json:"headroom,omitempty"`
}

// HeadroomJSON is one lossless priority's headroom and its derivation.
type HeadroomJSON struct {
	Priority   int             `json:"priority"`
	XoffBytes  units.Bytes     `json:"xoff_bytes"`
	XonBytes   units.Bytes     `json:"xon_bytes"`
	SizeBytes  units.Bytes     `json:"size_bytes"`
	Derivation []headroom.Term `json:"derivation"`
}

// JSON returns d's JSON form.
func (d *Device) JSON() *DeviceJSON {
	out := &DeviceJSON{
		Name: d.Name, Vendor: d.Vendor, Address: d.Address, Port: d.Port, Transport: d.Transport,
		Roles: d.Roles, Tags: d.Tags, Options: d.Options, QoS: qosJSON(d.QoS), Ports: []PortJSON{},
		Declared: d.Range.String(),
	}
	if len(out.Options) == 0 {
		out.Options = nil
	}
	if p := d.Platform; p != nil {
		out.Platform = &PlatformJSON{Model: p.Model, ASIC: p.ASIC, Family: p.Family, BufferBytes: p.Buffer, CellBytes: p.Cell}
	}
	if b := d.Buffers; b != nil {
		out.Buffers = &BuffersJSON{
			Profile: b.Profile, HeadroomAuto: b.Headroom.Auto, XoffBytes: b.Headroom.Xoff, XonBytes: b.Headroom.Xon, SizeBytes: b.Headroom.Size,
			LosslessPoolBytes: b.LosslessPool, LossyPoolBytes: b.LossyPool, HeadroomPoolBytes: b.HeadroomPool, Alpha: b.Alpha,
		}
	}
	for _, p := range d.Ports {
		pj := PortJSON{Name: p.Name, SpeedBps: p.Speed, CableMetres: p.Cable.Meters(), Peer: p.Peer}
		if p.QoS != nil && p.QoS != d.QoS {
			pj.QoS = qosJSON(p.QoS)
		}
		for _, h := range p.Headroom {
			pj.Headroom = append(pj.Headroom, HeadroomJSON{Priority: h.Priority, XoffBytes: h.Xoff, XonBytes: h.Xon, SizeBytes: h.Size, Derivation: h.Derivation})
		}
		out.Ports = append(out.Ports, pj)
	}
	return out
}

// MarshalIndent returns d's JSON form, indented, with a trailing newline.
func (d *Device) MarshalIndent() ([]byte, error) {
	b, err := json.MarshalIndent(d.JSON(), "", "  ")
	return append(b, '\n'), err
}

func qosJSON(q *QoS) *QoSJSON {
	if q == nil {
		return nil
	}
	out := &QoSJSON{Profile: q.Profile, Trust: q.Trust, LosslessPriorities: q.LosslessPriorities(), Classes: []ClassJSON{}}
	if out.LosslessPriorities == nil {
		out.LosslessPriorities = []int{}
	}
	for _, c := range q.Classes {
		cj := ClassJSON{Name: c.Name, ID: c.ID, DSCP: c.DSCP, Default: c.Default, CoS: c.CoS, DefaultCoS: c.DefaultCoS, MatchAll: c.MatchAll,
			Lossless: c.Lossless, CNP: c.CNP, MTUBytes: c.MTU, Declared: c.Range.String()}
		if c.Names != (ClassNames{}) {
			n := c.Names
			cj.Names = &n
		}
		if cj.DSCP == nil {
			cj.DSCP = []int{}
		}
		switch c.Scheduling.Mode {
		case SchedulingStrict:
			cj.Scheduling = SchedulingJSON{Mode: "strict", Level: c.Scheduling.Level}
		case SchedulingDWRR:
			cj.Scheduling = SchedulingJSON{Mode: "dwrr", BandwidthPercent: int(c.Scheduling.Bandwidth), Weight: c.Scheduling.Weight}
		default:
			cj.Scheduling = SchedulingJSON{Mode: "default"}
		}
		cj.Scheduling.MinBandwidthPercent = int(c.Scheduling.MinBandwidth)
		cj.Scheduling.ShapeBps = c.Scheduling.Shape
		if e := c.ECN; e != nil {
			cj.ECN = &ECNJSON{MinBytes: e.Min.Bytes, MinTime: durText(e.Min.Time), MaxBytes: e.Max.Bytes, MaxTime: durText(e.Max.Time),
				MinPercent: int(e.Min.Percent), MaxPercent: int(e.Max.Percent),
				Weight: e.Weight, Yellow: colorJSON(e.Yellow), Red: colorJSON(e.Red)}
			if !e.DefaultProbability {
				p := int(e.MaxProbability)
				cj.ECN.MaxProbabilityPercent = &p
			}
		}
		out.Classes = append(out.Classes, cj)
	}
	if w := q.PFC.Watchdog; w != nil {
		out.Watchdog = &WatchdogJSON{Detection: durText(w.Detection), Restoration: durText(w.Restoration), Polling: durText(w.Polling), Action: w.Action}
		for p := range 8 {
			if w.Priorities&(1<<p) != 0 {
				out.Watchdog.Priorities = append(out.Watchdog.Priorities, p)
			}
		}
	}
	if q.PFC.Mode != PFCOn {
		out.PFCMode = q.PFC.Mode
	}
	if q.Names != (Names{}) {
		n := q.Names
		out.Names = &n
	}
	return out
}

func durText(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return d.String()
}
