package headroom

// This file keeps the first implementation of Compute, written with
// math/big rationals, as the oracle the integer implementation must match
// byte for byte (TestComputeMatchesRationalReference).

import (
	"fmt"
	"math/big"
	"time"

	"github.com/lossless-net/lossless/internal/units"
)

// kb returns v KB as an exact number of bytes.
func refKB(v float64) *big.Rat {
	r := new(big.Rat).SetFloat64(v)
	// 0.8 as a float64 is not exactly 4/5; SONiC's figures have one
	// decimal, so snap to tenths.
	tenths := new(big.Rat).Mul(r, big.NewRat(10, 1))
	f, _ := tenths.Float64()
	n := int64(f + 0.5)
	return big.NewRat(n*1024, 10)
}

// referenceCompute returns the headroom for one lossless priority on one port. It
// fails, without panicking, when Speed, MTU or Cell is not positive or a
// length, delay or share is out of range.
func referenceCompute(in Input) (Result, error) {
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
	macphy, macphySrc := refKB(MACPHYDelayKB), srcAsic+" mac_phy_delay 0.8 KB"
	if in.MACPHYDelay > 0 {
		macphy, macphySrc = big.NewRat(int64(in.MACPHYDelay), 1), "MAC/PHY delay given by the caller"
	}
	pipeline, pipelineSrc := refKB(PipelineLatencyKB), srcAsic+" pipeline_latency 19 KB"
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
		peer = refKB(PeerResponseKB)
		peerSrc = fmt.Sprintf("%s peer_response_time 3.8 KB: IEEE 802.3 31B.3.7 lists no pause_quanta for %s", srcAsic, in.Speed)
	}

	// Exact arithmetic; one rounding at the end.
	mtu := big.NewRat(int64(in.MTU), 1)
	cable2 := new(big.Rat).Mul(big.NewRat(2*int64(in.Cable), int64(units.Metre)), speed)
	cable2.Quo(cable2, big.NewRat(SpeedInFibre*8, 1))
	gear2 := new(big.Rat).Mul(speed, big.NewRat(2*int64(in.Gearbox), int64(time.Second)*8))
	occ := refOccupancy(in.Cell, small)

	var terms []Term
	add := func(name string, b units.Bytes, src string) {
		terms = append(terms, Term{Name: name, Bytes: b, Source: src})
	}
	scaled := func(r *big.Rat) units.Bytes { return refCeil(new(big.Rat).Mul(r, occ)) }
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

	xoff := refCeil(xoffExact).Ceil(gran)
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
	xon := refCeil(xonExact).Ceil(gran)
	add("Xon: ingress pipeline latency", xon, pipelineSrc)
	if extra > 0 {
		add("size: one more MTU on an 8-lane port", extra, srcLua+" speed_overhead")
	}
	return Result{Xoff: xoff, Xon: xon, Size: xoff + xon + extra, Terms: terms}, nil
}

func refOccupancy(cell units.Bytes, small units.Percent) *big.Rat {
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
func refCeil(r *big.Rat) units.Bytes {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if m.Sign() > 0 {
		q.Add(q, big.NewInt(1))
	}
	return units.Bytes(q.Int64())
}
