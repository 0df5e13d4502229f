package headroom

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"time"

	"github.com/lossless-net/lossless/internal/units"
)

// The model is the one SONiC uses to size lossless headroom on NVIDIA
// Spectrum switches (sonic-swss cfgmgr/buffer_headroom_mellanox.lua; the
// design is SONiC doc/qos/dynamically-headroom-calculation.md), itself the
// IEEE 802.1Qbb delay model written in bytes:
//
//	delay = MTU                      the frame the peer is sending when PAUSE arrives
//	      + 2 × bytes on the cable   PAUSE travelling to the peer, data coming back
//	      + 2 × bytes in a gearbox   the same through an external gearbox PHY
//	      + MAC/PHY delay            bytes held in our egress pipeline and the PHYs
//	      + peer response            bytes the peer sends while it acts on PAUSE
//	Xoff  = MTU + delay × cell occupancy
//	Xon   = pipeline latency (doubled, less 1 KB, on 8-lane ports)
//	Size  = Xoff + Xon (+ one MTU on 8-lane ports)
//
// The first MTU of Xoff is the frame our port is still receiving when it
// decides to send PAUSE. Cell occupancy is the worst case of small frames
// each filling a whole buffer cell (see cellOccupancy). Every result is
// rounded up once, at the end, to whole cells (or Input.Granularity).

// Constants of the model. SONiC writes its ASIC delays in KB of 1024 bytes
// (the script multiplies them by 1024); they are kept exact here as
// fractions so 0.8 KB is 819.2 bytes, not 819.
const (
	// SpeedInFibre is the propagation speed the SONiC script uses:
	// 198,000,000 m/s, 2/3 of c in glass, ≈ 5.05 ns per metre.
	// Source: buffer_headroom_mellanox.lua, speed_of_light.
	SpeedInFibre = 198_000_000 // metres per second

	// MACPHYDelayKB is the default MAC/PHY delay: the bytes held in the
	// switch's egress pipeline and PHY once XOFF is generated, 0.8 KB.
	// Source: sonic-buildimage platform/mellanox/asic_table.j2,
	// mac_phy_delay "0.8" (every Spectrum generation).
	MACPHYDelayKB = 0.8

	// PeerResponseKB is the peer response used for speeds IEEE 802.3
	// gives no pause_quanta for (800G, for instance): 3.8 KB. Source:
	// SONiC asic_table.j2, peer_response_time "3.8"; the script falls back
	// to it the same way.
	PeerResponseKB = 3.8

	// PipelineLatencyKB is the default Xon, the ingress pipeline latency:
	// 19 KB. Source: SONiC asic_table.j2, pipeline_latency "19" for
	// Spectrum-1 to -5 (it was "18" before; the NVIDIA tables in this
	// package's tests carry xon 19456 = 19 KB).
	PipelineLatencyKB = 19

	// MinFrame is the smallest Ethernet frame, 64 bytes (IEEE 802.3).
	MinFrame units.Bytes = 64

	// DefaultSmallPacketPercent is the share of minimum-size frames the
	// cell-occupancy worst case assumes: SONiC's default
	// LOSSLESS_TRAFFIC_PATTERN small_packet_percentage "100".
	DefaultSmallPacketPercent units.Percent = 100

	// QuantumBits is one pause quantum: 512 bit times (IEEE 802.3 31B.2).
	QuantumBits = 512
)

// pauseQuanta is the most pause_quanta a MAC may still send after PAUSE
// arrives, per operating speed in Mb/s: IEEE 802.3 31B.3.7, as tabled in
// sonic-swss cfgmgr/buffer_headroom_mellanox.lua (pause_quanta_per_speed).
var pauseQuanta = map[units.BitRate]int{
	100 * units.Mbps: 1,
	1 * units.Gbps:   2,
	10 * units.Gbps:  67,
	25 * units.Gbps:  80,
	40 * units.Gbps:  118,
	50 * units.Gbps:  147,
	100 * units.Gbps: 394,
	200 * units.Gbps: 453,
	400 * units.Gbps: 905,
}

// IEEEPauseQuanta returns the response time IEEE 802.3 31B.3.7 allows a
// MAC at the given speed, in pause quanta, and false for speeds it does not
// list.
func IEEEPauseQuanta(speed units.BitRate) (int, bool) {
	q, ok := pauseQuanta[speed]
	return q, ok
}

// Input is what the headroom of one lossless priority on one port depends
// on. Speed, MTU and Cell are required; the zero value of every other field
// selects the documented default.
type Input struct {
	// Speed is the port's line rate.
	Speed units.BitRate
	// Cable is the cable length to the peer; 0 is a back-to-back link.
	Cable units.Length
	// MTU is the largest frame of the lossless class, in bytes.
	MTU units.Bytes
	// Cell is the ASIC's buffer cell size.
	Cell units.Bytes
	// PeerResponse is how long the peer may keep sending after PAUSE
	// reached it. 0 uses IEEE 802.3 31B.3.7's pause_quanta for the speed
	// (IEEEPauseQuanta), or 3.8 KB for speeds it does not list, as SONiC
	// does.
	PeerResponse time.Duration
	// PeerResponseBytes gives the peer response in bytes instead, as
	// SONiC's peer_response_time does; it wins over PeerResponse.
	PeerResponseBytes units.Bytes
	// MACPHYDelay overrides the 0.8 KB MAC/PHY delay when non-zero.
	MACPHYDelay units.Bytes
	// PipelineLatency overrides the 19 KB pipeline latency (Xon) when
	// non-zero.
	PipelineLatency units.Bytes
	// SmallPacketPercent overrides the 100 % small-frame share when
	// non-zero.
	SmallPacketPercent units.Percent
	// Gearbox is the one-way delay of an external gearbox PHY, 0 for none.
	Gearbox time.Duration
	// Lanes is the port's SerDes lane count when known. 8-lane ports
	// (400G on Spectrum-3, 800G on Spectrum-4) get SONiC's 8-lane
	// adjustment: Xon = 2 × pipeline latency − 1 KB, and one more MTU in
	// Size.
	Lanes int
	// Granularity is what the results are rounded up to; 0 means Cell.
	// SONiC's script rounds to 1 KB.
	Granularity units.Bytes
}

// Result is a computed headroom: Xoff, Xon and Size are multiples of the
// granularity (whole cells by default).
type Result struct {
	// Xoff is the headroom above the pause threshold: what still arrives
	// after PAUSE is sent.
	Xoff units.Bytes
	// Xon is the resume offset: the buffer that must drain below the pause
	// point before the port resumes the peer.
	Xon units.Bytes
	// Size is the reserved buffer of the priority group: Xoff + Xon, plus
	// one MTU on 8-lane ports.
	Size units.Bytes
	// Terms explain Xoff, then Xon and any Size extra. The Xoff terms
	// (each rounded up to a byte) and the final rounding term sum to Xoff.
	Terms []Term
}

// ErrBadInput is wrapped by every Compute error.
var ErrBadInput = errors.New("bad headroom input")

const (
	srcLua     = "sonic-swss cfgmgr/buffer_headroom_mellanox.lua"
	srcAsic    = "sonic-buildimage platform/mellanox/asic_table.j2"
	srcTraffic = "SONiC LOSSLESS_TRAFFIC_PATTERN small_packet_percentage"
)

// Limits keep the exact arithmetic within 128 bits; Compute rejects
// inputs beyond them (no switch comes near).
const (
	maxSpeed    = 100_000 * units.Gbps // 100 Tb/s
	maxCable    = 1000 * 1000 * units.Metre
	maxDelay    = time.Second
	maxMTU      = units.MB
	maxCell     = 64 * units.KB
	maxBytesArg = units.Bytes(1) << 40
)

// denom is the unit of the exact arithmetic: every byte count is held as a
// whole number of 1/denom bytes. It makes each term an integer: the cable
// both ways is 2 × L[m] × speed / (198e6 m/s × 8) = L[mm] × speed / denom;
// 0.8 KB and 3.8 KB are multiples of denom/5; a duration at line rate is
// speed × ns × 99 / denom.
const denom = 1000 * SpeedInFibre * 8 / 2 // 792e9

// Compute returns the headroom for one lossless priority on one port. It
// fails, without panicking, when Speed, MTU or Cell is not positive or a
// length, delay or share is out of range. The arithmetic is exact (128-bit
// integers over a common denominator), rounded up once at the end.
func Compute(in Input) (Result, error) {
	switch {
	case in.Speed <= 0 || in.Speed > maxSpeed:
		return Result{}, fmt.Errorf("compute headroom: speed %s: %w: must be positive and at most 100000G", in.Speed, ErrBadInput)
	case in.MTU <= 0 || in.MTU > maxMTU:
		return Result{}, fmt.Errorf("compute headroom: mtu %d: %w: must be 1 B to 1 MB", in.MTU, ErrBadInput)
	case in.Cell <= 0 || in.Cell > maxCell:
		return Result{}, fmt.Errorf("compute headroom: cell size %d: %w: must be 1 B to 64 KB", in.Cell, ErrBadInput)
	case in.Cable < 0 || in.Cable > maxCable:
		return Result{}, fmt.Errorf("compute headroom: cable %s: %w: must be 0 to 1000 km", in.Cable, ErrBadInput)
	case in.PeerResponse < 0 || in.Gearbox < 0 || in.PeerResponse > maxDelay || in.Gearbox > maxDelay:
		return Result{}, fmt.Errorf("compute headroom: %w: delays must be 0 to 1s", ErrBadInput)
	case in.PeerResponseBytes < 0 || in.MACPHYDelay < 0 || in.PipelineLatency < 0 || in.Granularity < 0 || in.Lanes < 0 ||
		in.PeerResponseBytes > maxBytesArg || in.MACPHYDelay > maxBytesArg || in.PipelineLatency > maxBytesArg || in.Granularity > maxBytesArg:
		return Result{}, fmt.Errorf("compute headroom: %w: sizes, lanes and granularity must be 0 to 1 TB", ErrBadInput)
	case in.SmallPacketPercent < 0 || in.SmallPacketPercent > 100:
		return Result{}, fmt.Errorf("compute headroom: small packet share %s: %w: must be 0–100%%", in.SmallPacketPercent, ErrBadInput)
	}
	gran := in.Granularity
	if gran == 0 {
		gran = in.Cell
	}
	small := in.SmallPacketPercent
	if small == 0 {
		small = DefaultSmallPacketPercent
	}
	speed := uint64(in.Speed)
	macphy, macphySrc := mul64(8*1024, denom/10), srcAsic+" mac_phy_delay 0.8 KB"
	if in.MACPHYDelay > 0 {
		macphy, macphySrc = mul64(uint64(in.MACPHYDelay), denom), "MAC/PHY delay given by the caller"
	}
	pipeline, pipelineSrc := units.Bytes(PipelineLatencyKB)*units.KB, srcAsic+" pipeline_latency 19 KB"
	if in.PipelineLatency > 0 {
		pipeline, pipelineSrc = in.PipelineLatency, "pipeline latency given by the caller"
	}
	var peer u128
	var peerSrc string
	switch q, ok := pauseQuanta[in.Speed]; {
	case in.PeerResponseBytes > 0:
		peer, peerSrc = mul64(uint64(in.PeerResponseBytes), denom), "peer response given by the caller"
	case in.PeerResponse > 0:
		peer = mul64(speed, uint64(in.PeerResponse.Nanoseconds())*(denom/(8*uint64(time.Second))))
		peerSrc = fmt.Sprintf("peer response %s at %s given by the caller", in.PeerResponse, in.Speed)
	case ok:
		peer = mul64(uint64(q)*QuantumBits/8, denom)
		peerSrc = fmt.Sprintf("IEEE 802.3 31B.3.7: %d pause_quanta at %s (%s)", q, in.Speed, srcLua)
	default:
		peer = mul64(38*1024, denom/10)
		peerSrc = fmt.Sprintf("%s peer_response_time 3.8 KB: IEEE 802.3 31B.3.7 lists no pause_quanta for %s", srcAsic, in.Speed)
	}
	mtu := mul64(uint64(in.MTU), denom)
	cable2 := mul64(uint64(in.Cable), speed) // L[mm] × speed / denom = bytes both ways
	gear2 := mul64(speed, uint64(in.Gearbox.Nanoseconds())*(2*denom/(8*uint64(time.Second))))
	occNum, occDen := cellOccupancy(in.Cell, small)
	div := denom * occDen

	var terms []Term
	add := func(name string, b units.Bytes, src string) {
		terms = append(terms, Term{Name: name, Bytes: b, Source: src})
	}
	scaled := func(x u128) units.Bytes { return units.Bytes(x.mul(occNum).ceilDiv(div)) }
	total := mtu.add(cable2).add(gear2).add(macphy).add(peer)
	occText := fmt.Sprintf("%.3f", float64(occNum)/float64(occDen))
	add("frame being received when PAUSE is decided (MTU)", in.MTU, srcLua)
	add("frame the peer is sending when PAUSE arrives (MTU × cell occupancy "+occText+")", scaled(mtu), srcLua)
	add(fmt.Sprintf("cable propagation both ways, %s at %d m/s (× cell occupancy)", in.Cable, SpeedInFibre), scaled(cable2), srcLua+" speed_of_light")
	if in.Gearbox > 0 {
		add("gearbox delay both ways (× cell occupancy)", scaled(gear2), srcLua+" gearbox_delay")
	}
	add("MAC/PHY delay (× cell occupancy)", scaled(macphy), macphySrc)
	add("peer PFC response (× cell occupancy)", scaled(peer), peerSrc)

	xoff := (in.MTU + scaled(total)).Ceil(gran)
	var sum units.Bytes
	for _, t := range terms {
		sum += t.Bytes
	}
	if r := xoff - sum; r != 0 {
		add(fmt.Sprintf("rounding up to whole %d-byte units", gran), r,
			fmt.Sprintf("cell occupancy %s from %s %d%% and %d-byte cells", occText, srcTraffic, small, in.Cell))
	}

	xonRaw := pipeline
	var extra units.Bytes
	if in.Lanes >= 8 {
		// SONiC's "Adjustment for 8-lane port".
		xonRaw = max(2*pipeline-units.KB, 0)
		pipelineSrc += ", doubled less 1 KB on an 8-lane port (" + srcLua + ")"
		extra = in.MTU.Ceil(gran)
	}
	xon := xonRaw.Ceil(gran)
	add("Xon: ingress pipeline latency", xon, pipelineSrc)
	if extra > 0 {
		add("size: one more MTU on an 8-lane port", extra, srcLua+" speed_overhead")
	}
	return Result{Xoff: xoff, Xon: xon, Size: xoff + xon + extra, Terms: terms}, nil
}

// cellOccupancy is the worst-case ratio of buffer used to bytes received,
// as num/den: a 64-byte frame still takes a whole cell. As in SONiC's
// script, a cell larger than two minimum frames costs cell/64 per small
// frame, a smaller one 2·cell/(1+cell); the small-frame share s weighs it
// against full frames: (100 − s + s × worst) / 100.
func cellOccupancy(cell units.Bytes, small units.Percent) (num, den uint64) {
	wn, wd := uint64(cell), uint64(MinFrame)
	if cell <= 2*MinFrame {
		wn, wd = 2*uint64(cell), 1+uint64(cell)
	}
	s := uint64(small)
	return (100-s)*wd + s*wn, 100 * wd
}

// u128 is an unsigned 128-bit integer, enough for every numerator Compute
// forms within its input limits (at most about 2^108).
type u128 struct{ hi, lo uint64 }

// mul64 returns a × b.
func mul64(a, b uint64) u128 {
	hi, lo := bits.Mul64(a, b)
	return u128{hi, lo}
}

// add returns x + y.
func (x u128) add(y u128) u128 {
	lo, c := bits.Add64(x.lo, y.lo, 0)
	hi, _ := bits.Add64(x.hi, y.hi, c)
	return u128{hi, lo}
}

// mul returns x × m; the input limits keep it below 2^128.
func (x u128) mul(m uint64) u128 {
	hi, lo := bits.Mul64(x.lo, m)
	return u128{x.hi*m + hi, lo}
}

// ceilDiv returns ⌈x / d⌉. The input limits keep x below d × 2^63; a
// quotient that would not fit saturates instead of panicking.
func (x u128) ceilDiv(d uint64) uint64 {
	if x.hi >= d {
		return math.MaxInt64
	}
	q, r := bits.Div64(x.hi, x.lo, d)
	if r != 0 {
		q++
	}
	return min(q, math.MaxInt64)
}
