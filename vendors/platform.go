package vendors

import (
	"errors"
	"fmt"
	"sync"

	"github.com/scrapli/scrapligo/driver/generic"
	"github.com/scrapli/scrapligo/driver/network"
	"github.com/scrapli/scrapligo/driver/options"
	"github.com/scrapli/scrapligo/platform"
	"github.com/scrapli/scrapligo/util"
	"gopkg.in/yaml.v3"
)

// Platform is a parsed scrapligo platform definition (the YAML of
// scrapligo's assets/platforms, or a vendor's own). Parse it once and dial
// many devices with it: parsing costs about a millisecond per connection
// otherwise, and so does compiling its prompt patterns, which a Platform
// does once. It is safe for concurrent use.
type Platform struct {
	def platform.Definition
	// compiled is a network driver built from def alone, never opened:
	// scrapligo compiled its privilege levels' patterns, their joined
	// prompt pattern and the privilege graph. Every driver copies them.
	compiled func() (*network.Driver, error)
}

// ParsePlatform parses a platform definition as scrapligo does.
func ParsePlatform(def []byte) (*Platform, error) {
	p := &Platform{}
	if err := yaml.Unmarshal(def, &p.def); err != nil {
		return nil, fmt.Errorf("scrapligo platform: %w", err)
	}
	if p.def.Default == nil || p.def.Default.DriverType != "network" {
		return nil, fmt.Errorf("scrapligo platform %q: want a network driver definition", p.def.PlatformType)
	}
	p.compiled = sync.OnceValues(func() (*network.Driver, error) {
		// The transport is never opened; the template only holds what
		// network.NewDriver compiles.
		return network.NewDriver("platform.invalid", append(p.options(), options.WithCustomTransport(&sshTransport{}))...)
	})
	return p, nil
}

// options are the platform's options on a copy of its privilege levels
// (a driver writes to them).
func (p *Platform) options() []util.Option {
	cp := *p.def.Default
	cp.PrivilegeLevels = make(network.PrivilegeLevels, len(p.def.Default.PrivilegeLevels))
	for name, lvl := range p.def.Default.PrivilegeLevels {
		l := *lvl
		cp.PrivilegeLevels[name] = &l
	}
	return cp.AsOptions()
}

// driver builds a network driver for host: the platform's options then
// opts, as network.NewDriver(host, platform options..., opts...) does,
// but without compiling the platform's patterns again. scrapligo v1.4.3's
// network.NewDriver is generic.NewDriver plus the network options plus
// UpdatePrivileges (which compiles each privilege level's pattern, the
// joined prompt pattern and the privilege graph, the same for every
// device of a platform); here the generic driver is built for host and the
// network part is copied from the compiled template: the privilege levels
// as copies (ConfigureIn changes a level's escalate command), the
// compiled regular expressions (safe for concurrent use) and the graph
// (read only) shared. TestPlatformDriverMatchesNewDriver holds the two
// ways equal.
func (p *Platform) driver(host string, opts ...util.Option) (*network.Driver, error) {
	tmpl, err := p.compiled()
	if err != nil {
		return nil, err
	}
	gd, err := generic.NewDriver(host, append(p.def.Default.AsOptions(), opts...)...)
	if err != nil {
		return nil, err
	}
	d := *tmpl
	d.Driver = gd
	d.PrivilegeLevels = make(map[string]*network.PrivilegeLevel, len(tmpl.PrivilegeLevels))
	for name, lvl := range tmpl.PrivilegeLevels {
		l := *lvl
		d.PrivilegeLevels[name] = &l
	}
	gd.Channel.PromptPattern = tmpl.Channel.PromptPattern
	// opts that set network options (none of DialPlatform's do) apply as
	// network.NewDriver applies them, then everything is compiled again.
	recompile := false
	for _, o := range opts {
		switch err := o(&d); {
		case err == nil:
			recompile = true
		case !errors.Is(err, util.ErrIgnoredOption):
			return nil, err
		}
	}
	if recompile {
		d.UpdatePrivileges()
	}
	return &d, nil
}
