package vendors

import "context"

// PortCounters are the lossless health counters of one port, as totals
// since the counters were last cleared. A health gate compares two reads
// (deltas), never clearing them.
type PortCounters struct {
	// PauseRx and PauseTx are PFC pause frames received and sent, per
	// priority (CoS 0-7).
	PauseRx [8]uint64 `json:"pause_rx"`
	PauseTx [8]uint64 `json:"pause_tx"`
	// PauseRxAll and PauseTxAll are pause frames over all priorities, set
	// instead of PauseRx/PauseTx by devices that report only port totals
	// (EOS show priority-flow-control counters).
	PauseRxAll uint64 `json:"pause_rx_all,omitempty"`
	PauseTxAll uint64 `json:"pause_tx_all,omitempty"`
	// ECNMarked is the number of packets marked CE by ECN.
	ECNMarked uint64 `json:"ecn_marked"`
	// Drops are no-buffer and queue (tail/WRED) drops.
	Drops uint64 `json:"drops"`
	// Watchdog is the number of PFC watchdog events (queue shutdowns).
	Watchdog uint64 `json:"watchdog"`
}

// Pause returns the pause frames sent and received over all priorities.
func (c PortCounters) Pause() uint64 {
	n := c.PauseRxAll + c.PauseTxAll
	for p := range 8 {
		n += c.PauseRx[p] + c.PauseTx[p]
	}
	return n
}

// Health is implemented by drivers that can read the health counters of
// the managed ports; a staged rollout reads them before and after each
// batch. Drivers without it make a health gate fail closed.
type Health interface {
	// Counters reads the counters of the named ports (names as in the
	// intent). A port the device does not report is an error.
	Counters(ctx context.Context, ports []string) (map[string]PortCounters, error)
}

// Reverter is implemented by drivers that can save the device's whole
// config before a staged batch and put it back byte for byte afterwards
// (a staged rollout undoes an applied batch with it when a health gate
// trips), with the vendor's own rollback.
type Reverter interface {
	// Mark saves the current config and returns the name to revert to.
	Mark(ctx context.Context) (string, error)
	// Revert puts the config back to mark atomically, then forgets it.
	Revert(ctx context.Context, mark string) error
	// Forget drops a mark that is no longer needed.
	Forget(ctx context.Context, mark string) error
}
