package headroom

import (
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/lossless-net/lossless/units"
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

// kb returns v KB as an exact number of bytes.
func kb(v float64) *big.Rat {
	r := new(big.Rat).SetFloat64(v)
	// 0.8 as a float64 is not exactly 4/5; SONiC's figures have one
	// decimal, so snap to tenths.
	tenths := new(big.Rat).Mul(r, big.NewRat(10, 1))
	f, _ := tenths.Float64()
	n := int64(f + 0.5)
	return big.NewRat(n*1024, 10)
}

// Compute returns the headroom for one lossless priority on one port. It
// fails, without panicking, when Speed, MTU or Cell is not positive or a
// length, delay or share is out of range.
func Compute(in Input) (Result, error) {
	switch {
	case in.Speed <= 0:
		return Result{}, fmt.Errorf("compute headroom: speed %s: %w: must be positive", in.Speed, ErrBadInput)
	case in.MTU <= 0:
		return Result{}, fmt.Errorf("compute headroom: mtu %d: %w: must be positive", in.MTU, ErrBadInput)
	case in.Cell <= 0:
		return Result{}, fmt.Errorf("compute headroom: cell size %d: %w: must be positive", in.Cell, ErrBadInput)
	case in.Cable < 0:
		return Result{}, fmt.Errorf("compute headroom: cable %s: %w: must not be negative", in.Cable, ErrBadInput)
	case in.PeerResponse < 0 || in.PeerResponseBytes < 0 || in.Gearbox < 0 || in.MACPHYDelay < 0 || in.PipelineLatency < 0 || in.Granularity < 0 || in.Lanes < 0:
		return Result{}, fmt.Errorf("compute headroom: %w: delays, lanes and granularity must not be negative", ErrBadInput)
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
	macphy, macphySrc := kb(MACPHYDelayKB), srcAsic+" mac_phy_delay 0.8 KB"
	if in.MACPHYDelay > 0 {
		macphy, macphySrc = big.NewRat(int64(in.MACPHYDelay), 1), "MAC/PHY delay given by the caller"
	}
	pipeline, pipelineSrc := kb(PipelineLatencyKB), srcAsic+" pipeline_latency 19 KB"
	if in.PipelineLatency > 0 {
		pipeline, pipelineSrc = big.NewRat(int64(in.PipelineLatency), 1), "pipeline latency given by the caller"
	}
	speed := big.NewRat(int64(in.Speed), 1)
	var peer *big.Rat
	var peerSrc string
	switch q, ok := pauseQuanta[in.Speed]; {
	case in.PeerResponseBytes > 0:
		peer, peerSrc = big.NewRat(int64(in.PeerResponseBytes), 1), "peer response given by the caller"
	case in.PeerResponse > 0:
		peer = new(big.Rat).Mul(speed, big.NewRat(int64(in.PeerResponse), int64(time.Second)*8))
		peerSrc = fmt.Sprintf("peer response %s at %s given by the caller", in.PeerResponse, in.Speed)
	case ok:
		peer = big.NewRat(int64(q)*QuantumBits, 8)
		peerSrc = fmt.Sprintf("IEEE 802.3 31B.3.7: %d pause_quanta at %s (%s)", q, in.Speed, srcLua)
	default:
		peer = kb(PeerResponseKB)
		peerSrc = fmt.Sprintf("%s peer_response_time 3.8 KB: IEEE 802.3 31B.3.7 lists no pause_quanta for %s", srcAsic, in.Speed)
	}

	// Exact arithmetic; one rounding at the end.
	mtu := big.NewRat(int64(in.MTU), 1)
	cable2 := new(big.Rat).Mul(big.NewRat(2*int64(in.Cable), int64(units.Metre)), speed)
	cable2.Quo(cable2, big.NewRat(SpeedInFibre*8, 1))
	gear2 := new(big.Rat).Mul(speed, big.NewRat(2*int64(in.Gearbox), int64(time.Second)*8))
	occ := cellOccupancy(in.Cell, small)

	var terms []Term
	add := func(name string, b units.Bytes, src string) {
		terms = append(terms, Term{Name: name, Bytes: b, Source: src})
	}
	scaled := func(r *big.Rat) units.Bytes { return ceilRat(new(big.Rat).Mul(r, occ)) }
	xoffExact := new(big.Rat).Set(mtu)
	for _, p := range []*big.Rat{mtu, cable2, gear2, macphy, peer} {
		xoffExact.Add(xoffExact, new(big.Rat).Mul(p, occ))
	}
	occText := occ.FloatString(3)
	add("frame being received when PAUSE is decided (MTU)", in.MTU, srcLua)
	add("frame the peer is sending when PAUSE arrives (MTU × cell occupancy "+occText+")", scaled(mtu), srcLua)
	add(fmt.Sprintf("cable propagation both ways, %s at %d m/s (× cell occupancy)", in.Cable, SpeedInFibre), scaled(cable2), srcLua+" speed_of_light")
	if in.Gearbox > 0 {
		add("gearbox delay both ways (× cell occupancy)", scaled(gear2), srcLua+" gearbox_delay")
	}
	add("MAC/PHY delay (× cell occupancy)", scaled(macphy), macphySrc)
	add("peer PFC response (× cell occupancy)", scaled(peer), peerSrc)

	xoff := ceilRat(xoffExact).Ceil(gran)
	var sum units.Bytes
	for _, t := range terms {
		sum += t.Bytes
	}
	if r := xoff - sum; r != 0 {
		add(fmt.Sprintf("rounding up to whole %d-byte units", gran), r,
			fmt.Sprintf("cell occupancy %s from %s %d%% and %d-byte cells", occText, srcTraffic, small, in.Cell))
	}

	xonExact := pipeline
	var extra units.Bytes
	if in.Lanes >= 8 {
		// SONiC's "Adjustment for 8-lane port".
		xonExact = new(big.Rat).Sub(new(big.Rat).Mul(pipeline, big.NewRat(2, 1)), big.NewRat(1024, 1))
		pipelineSrc += ", doubled less 1 KB on an 8-lane port (" + srcLua + ")"
		extra = in.MTU.Ceil(gran)
	}
	xon := ceilRat(xonExact).Ceil(gran)
	add("Xon: ingress pipeline latency", xon, pipelineSrc)
	if extra > 0 {
		add("size: one more MTU on an 8-lane port", extra, srcLua+" speed_overhead")
	}
	return Result{Xoff: xoff, Xon: xon, Size: xoff + xon + extra, Terms: terms}, nil
}

// cellOccupancy is the worst-case ratio of buffer used to bytes received:
// a 64-byte frame still takes a whole cell. As in SONiC's script, a cell
// larger than two minimum frames costs cell/64 per small frame, a smaller
// one 2·cell/(1+cell); the small-frame share weighs it against full frames:
// (100 − s + s × worst) / 100.
func cellOccupancy(cell units.Bytes, small units.Percent) *big.Rat {
	var worst *big.Rat
	if cell > 2*MinFrame {
		worst = big.NewRat(int64(cell), int64(MinFrame))
	} else {
		worst = big.NewRat(2*int64(cell), 1+int64(cell))
	}
	occ := new(big.Rat).Mul(worst, big.NewRat(int64(small), 1))
	occ.Add(occ, big.NewRat(100-int64(small), 1))
	return occ.Quo(occ, big.NewRat(100, 1))
}

// ceilRat rounds a non-negative rational up to whole bytes.
func ceilRat(r *big.Rat) units.Bytes {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return units.Bytes(q.Int64())
}
