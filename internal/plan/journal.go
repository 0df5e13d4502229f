package plan

import (
	"context"

	"github.com/lossless-net/lossless/vendors"
)

// Journal is the write-ahead record of an apply (package rollout keeps
// it in the rollout state and the audit log). ApplyDevice calls Started
// after it has computed a device's change and before the first command
// reaches the device, and Finished with every device's result; a
// Journal is called from the devices' goroutines and must be safe for
// concurrent use.
type Journal interface {
	// Started records that d's change ch is about to be sent over the
	// open session drv, from the running config whose fingerprint is
	// given. It returns once the record is on disk; its error stops the
	// device before anything is sent.
	Started(ctx context.Context, d Device, drv vendors.Driver, fingerprint string, ch *vendors.Change) error
	// Finished records d's result, whether or not d started; drv is the
	// session the change went over (nil when none was opened). Its
	// failures are the Journal's to report: the device's result stands.
	Finished(ctx context.Context, d Device, drv vendors.Driver, r Result)
}
