package gnmiclient

import (
	"context"
	"log/slog"

	"github.com/lossless-net/lossless/vendors"
)

// Conn is what a gNMI driver holds: its target, the client and a logger
// naming the device, vendor and transport, with the Close of the
// vendors.Driver interface. A driver embeds it.
type Conn struct {
	Target vendors.Target
	Client *Client
	Log    *slog.Logger
}

// DialConn connects to t's gNMI server (on defaultPort when t gives no
// port) for the driver of vendor.
func DialConn(ctx context.Context, t vendors.Target, defaultPort int, vendor string) (Conn, error) {
	c, err := Dial(ctx, t, defaultPort)
	if err != nil {
		return Conn{}, err
	}
	return Conn{Target: t, Client: c, Log: t.Log().With("device", t.Device, "vendor", vendor, "transport", "gnmi")}, nil
}

// Close closes the connection.
func (c *Conn) Close() error { return c.Client.Close() }
