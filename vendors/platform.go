package vendors

import (
	"fmt"

	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/platform"
	"github.com/scrapli/scrapligo/util"
	"gopkg.in/yaml.v3"
)

// Platform is a parsed scrapligo platform definition (the YAML of
// scrapligo's assets/platforms, or a vendor's own). Parse it once and dial
// many devices with it: parsing costs about a millisecond per connection
// otherwise. It is safe for concurrent use.
type Platform struct {
	def platform.Definition
}

// ParsePlatform parses a platform definition as scrapligo does.
func ParsePlatform(def []byte) (*Platform, error) {
	var p Platform
	if err := yaml.Unmarshal(def, &p.def); err != nil {
		return nil, fmt.Errorf("scrapligo platform: %w", err)
	}
	if p.def.Default == nil || p.def.Default.DriverType != "network" {
		return nil, fmt.Errorf("scrapligo platform %q: want a network driver definition", p.def.PlatformType)
	}
	return &p, nil
}

// driver builds a network driver for host: the platform's options (on a
// copy of its privilege levels, which a driver writes to) then opts.
func (p *Platform) driver(host string, opts ...util.Option) (*network.Driver, error) {
	cp := *p.def.Default
	cp.PrivilegeLevels = make(network.PrivilegeLevels, len(p.def.Default.PrivilegeLevels))
	for name, lvl := range p.def.Default.PrivilegeLevels {
		l := *lvl
		cp.PrivilegeLevels[name] = &l
	}
	return network.NewDriver(host, append(cp.AsOptions(), opts...)...)
}
