package headroom

import (
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/lossless-net/lossless/units"
)

// The model is the one SONiC uses to size lossless headroom on NVIDIA
// Spectrum switches (sonic-swss cfgmgr/buffer_headroom_mellanox.lua, the
// "dynamic buffer calculation" design in SONiC/doc/qos/
// dynamically-headroom-calculation.md), itself the IEEE 802.1Qbb Annex O
// delay model written in bytes:
//
//	delay = MTU                      the frame the peer is sending when PAUSE arrives
//	      + 2 × bytes on the cable   PAUSE travelling to the peer, then data coming back
//	      + MAC/PHY delay            bytes held in our egress pipeline and the PHYs
//	      + peer response time       bytes the peer sends while it decodes PAUSE
//	Xoff  = MTU + delay × cell occupancy, rounded up to whole cells
//	Xon   = pipeline latency, rounded up to whole cells
//	Size  = Xoff + Xon (+ one MTU at 400G and above, as SONiC does)
//
// The first MTU of Xoff is the frame our own port is still receiving when it
// decides to send PAUSE. Cell occupancy is the worst case of small frames
// filling a whole cell each (see cellOccupancy).

// Constants of the model. Where SONiC states a figure in "KB" it means 1024
// bytes (the lua script multiplies by 1024).
const (
	// SpeedInFibre is the propagation speed the SONiC script uses,
	// 198,000,000 m/s (≈ 5.05 ns per metre, about 2/3 of c in glass).
	// Source: sonic-swss cfgmgr/buffer_headroom_mellanox.lua, speed_of_light.
	SpeedInFibre = 198_000_000 // metres per second

	// DefaultMACPHYDelay is the bytes held in the switch's egress pipeline
	// and PHY once XOFF is generated: 0.8 KB. Source: SONiC
	// device/mellanox asic_table.j2 (mac_phy_delay "0.8", every Spectrum).
	DefaultMACPHYDelay units.Bytes = 819 // 0.8 × 1024, truncated as the lua's math on 0.8*1024=819.2 rounds up at the end

	// DefaultPeerResponse is the bytes the peer may send after PAUSE reaches
	// it: 3.8 KB. Source: SONiC device/mellanox asic_table.j2
	// (peer_response_time "3.8"). It is what IEEE 802.3 Annex 31B allows a
	// 100G MAC to take (see PeerResponseFromQuanta).
	DefaultPeerResponse units.Bytes = 3891 // 3.8 × 1024 = 3891.2

	// DefaultPipelineLatency is Xon: the bytes in the ingress pipeline that
	// must drain before resuming, 18 KB. Source: SONiC device/mellanox
	// asic_table.j2 (pipeline_latency "18"). SONiC doubles it at 400G.
	DefaultPipelineLatency units.Bytes = 18 * units.KB

	// MinFrame is the smallest Ethernet frame, 64 bytes (IEEE 802.3).
	MinFrame units.Bytes = 64

	// DefaultSmallPacketPercent is the share of small frames assumed in
	// the cell-occupancy worst case: 100 %, SONiC's default
	// (LOSSLESS_TRAFFIC_PATTERN small_packet_percentage "100").
	DefaultSmallPacketPercent units.Percent = 100

	// QuantumBits is one PFC pause quantum: 512 bit times (IEEE 802.1Qbb
	// §36.1.3.2, as 802.3 Annex 31B).
	QuantumBits = 512
)

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
	// Cell is the ASIC's buffer cell; every result is a whole number of
	// cells.
	Cell units.Bytes
	// PeerResponse is how long the peer may keep sending after PAUSE
	// reached it; 0 uses DefaultPeerResponse (bytes, independent of
	// speed, as SONiC does). Use PeerResponseFromQuanta to express it in
	// pause quanta.
	PeerResponse time.Duration
	// MACPHYDelay overrides DefaultMACPHYDelay when non-zero.
	MACPHYDelay units.Bytes
	// PipelineLatency overrides DefaultPipelineLatency (Xon) when non-zero.
	PipelineLatency units.Bytes
	// SmallPacketPercent overrides DefaultSmallPacketPercent when non-zero.
	SmallPacketPercent units.Percent
	// Gearbox is the one-way delay of an external gearbox PHY, 0 for none;
	// it counts both ways like the cable (SONiC gearbox_delay).
	Gearbox time.Duration
}

// Result is a computed headroom. All sizes are whole cells of Input.Cell.
type Result struct {
	// Xoff is the headroom above the pause threshold: what still arrives
	// after PAUSE is sent.
	Xoff units.Bytes
	// Xon is the resume offset: the buffer that must drain below the pause
	// point before the port resumes the peer.
	Xon units.Bytes
	// Size is the reserved buffer for the priority group: Xoff + Xon, plus
	// one MTU at 400G and above.
	Size units.Bytes
	// Terms explain Xoff, Xon and Size in order; the Xoff terms (before
	// cell rounding) are first and sum, with the rounding term, to Xoff.
	Terms []Term
}

// PeerResponseFromQuanta converts a response time given in pause quanta at
// the given line rate into a duration (1 quantum = 512 bit times).
func PeerResponseFromQuanta(quanta int, speed units.BitRate) time.Duration {
	if speed <= 0 || quanta <= 0 {
		return 0
	}
	ns := new(big.Int).Mul(big.NewInt(int64(quanta)*QuantumBits), big.NewInt(int64(time.Second)))
	ns.Quo(ns, big.NewInt(int64(speed)))
	return time.Duration(ns.Int64())
}

// Errors returned (wrapped) by Compute.
var (
	ErrBadInput = errors.New("headroom: bad input")
)

const (
	srcLua     = "sonic-swss cfgmgr/buffer_headroom_mellanox.lua"
	srcAsic    = "SONiC device/mellanox asic_table.j2"
	srcTraffic = "SONiC LOSSLESS_TRAFFIC_PATTERN default"
)

// Compute returns the headroom for one lossless priority. It fails, without
// panicking, when Speed, MTU or Cell is not positive or a length or delay is
// negative.
func Compute(in Input) (Result, error) {
	switch {
	case in.Speed <= 0:
		return Result{}, fmt.Errorf("compute headroom: speed %d: %w: must be positive", in.Speed, ErrBadInput)
	case in.MTU <= 0:
		return Result{}, fmt.Errorf("compute headroom: mtu %d: %w: must be positive", in.MTU, ErrBadInput)
	case in.Cell <= 0:
		return Result{}, fmt.Errorf("compute headroom: cell size %d: %w: must be positive", in.Cell, ErrBadInput)
	case in.Cable < 0:
		return Result{}, fmt.Errorf("compute headroom: cable %s: %w: must not be negative", in.Cable, ErrBadInput)
	case in.PeerResponse < 0 || in.Gearbox < 0 || in.MACPHYDelay < 0 || in.PipelineLatency < 0:
		return Result{}, fmt.Errorf("compute headroom: %w: delays must not be negative", ErrBadInput)
	case in.SmallPacketPercent < 0 || in.SmallPacketPercent > 100:
		return Result{}, fmt.Errorf("compute headroom: small packet share %s: %w: must be 0–100%%", in.SmallPacketPercent, ErrBadInput)
	}
	macphy := in.MACPHYDelay
	if macphy == 0 {
		macphy = DefaultMACPHYDelay
	}
	xonBase := in.PipelineLatency
	if xonBase == 0 {
		xonBase = DefaultPipelineLatency
	}
	small := in.SmallPacketPercent
	if small == 0 {
		small = DefaultSmallPacketPercent
	}
	peer := DefaultPeerResponse
	peerSrc := srcAsic + " (peer_response_time 3.8 KB)"
	if in.PeerResponse > 0 {
		peer = in.Speed.BytesIn(in.PeerResponse)
		peerSrc = fmt.Sprintf("peer response %s at %s", in.PeerResponse, in.Speed)
	}

	// Exact arithmetic in rationals; one rounding at the end.
	speed := big.NewRat(int64(in.Speed), 1)
	// bytes on the cable one way = L[m] × speed[b/s] / v[m/s] / 8
	cableOneWay := new(big.Rat).Mul(big.NewRat(int64(in.Cable), int64(units.Metre)), speed)
	cableOneWay.Quo(cableOneWay, big.NewRat(SpeedInFibre*8, 1))
	gearOneWay := new(big.Rat).Mul(speed, big.NewRat(int64(in.Gearbox), int64(time.Second)*8))
	cable2 := new(big.Rat).Mul(cableOneWay, big.NewRat(2, 1))
	gear2 := new(big.Rat).Mul(gearOneWay, big.NewRat(2, 1))

	delay := new(big.Rat).SetInt64(int64(in.MTU))
	delay.Add(delay, cable2)
	delay.Add(delay, gear2)
	delay.Add(delay, big.NewRat(int64(macphy), 1))
	delay.Add(delay, big.NewRat(int64(peer), 1))

	occ := cellOccupancy(in.Cell, small)
	scaled := new(big.Rat).Mul(delay, occ)
	xoffExact := new(big.Rat).Add(scaled, big.NewRat(int64(in.MTU), 1))

	// Terms before rounding: each part of delay times the occupancy, so
	// the terms add up to the exact Xoff.
	part := func(r *big.Rat) units.Bytes { return ceilRat(new(big.Rat).Mul(r, occ)) }
	var terms []Term
	add := func(name string, b units.Bytes, src string) {
		terms = append(terms, Term{Name: name, Bytes: b, Source: src})
	}
	add("frame being received when PAUSE is decided (MTU)", in.MTU, srcLua)
	add("frame the peer is sending when PAUSE arrives (MTU × cell occupancy)", part(big.NewRat(int64(in.MTU), 1)), srcLua)
	add(fmt.Sprintf("cable propagation both ways (%s at %d m/s, × cell occupancy)", in.Cable, SpeedInFibre), part(cable2), srcLua)
	if in.Gearbox > 0 {
		add("gearbox delay both ways (× cell occupancy)", part(gear2), srcLua+" (gearbox_delay)")
	}
	add("MAC/PHY delay (× cell occupancy)", part(big.NewRat(int64(macphy), 1)), srcAsic+" (mac_phy_delay 0.8 KB)")
	add("peer PFC response (× cell occupancy)", part(big.NewRat(int64(peer), 1)), peerSrc)

	xoff := ceilRat(xoffExact).Ceil(in.Cell)
	var sum units.Bytes
	for _, t := range terms {
		sum += t.Bytes
	}
	if r := xoff - sum; r != 0 {
		add(fmt.Sprintf("rounding to whole %d-byte cells (cell occupancy %s)", in.Cell, occ.FloatString(3)), r, srcTraffic+fmt.Sprintf(" (small_packet_percentage %d)", small))
	}

	xonRaw := xonBase
	xonSrc := srcAsic + " (pipeline_latency 18 KB)"
	if in.PipelineLatency > 0 {
		xonSrc = "pipeline latency given by the caller"
	}
	var extra units.Bytes
	if in.Speed >= 400*units.Gbps {
		// SONiC: "Adjustment for 400G": pipeline latency doubles and one
		// MTU is added to the size.
		xonRaw *= 2
		extra = in.MTU
	}
	xon := xonRaw.Ceil(in.Cell)
	add("Xon: ingress pipeline latency", xon, xonSrc)
	if extra > 0 {
		add("size: one more MTU at 400G and above", extra.Ceil(in.Cell), srcLua+" (speed_overhead)")
	}
	size := xoff + xon + extra.Ceil(in.Cell)
	return Result{Xoff: xoff, Xon: xon, Size: size, Terms: terms}, nil
}

// cellOccupancy is the worst-case ratio of buffer used to bytes received:
// a 64-byte frame still takes a whole cell. As in SONiC's script, a cell
// larger than two minimum frames costs cell/64 per small frame; otherwise
// 2·cell/(1+cell). The small-packet share weighs it against full frames.
func cellOccupancy(cell units.Bytes, small units.Percent) *big.Rat {
	var worst *big.Rat
	if cell > 2*MinFrame {
		worst = big.NewRat(int64(cell), int64(MinFrame))
	} else {
		worst = big.NewRat(2*int64(cell), 1+int64(cell))
	}
	// (100 − s + s × worst) / 100
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
