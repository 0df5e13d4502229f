package vendors

import (
	"context"
	"fmt"

	"github.com/scrapli/scrapligo/driver/opoptions"
)

// ConfigureIn is Configure in the platform definition's privilege level
// priv instead of "configuration", entered with the command escalate
// when it is not empty (it replaces the definition's escalate command
// from then on). It serves modes whose entry command changes per use,
// such as an EOS configuration session ("configure session NAME", a name
// unique per apply). The session stays in priv afterwards: Exec and
// Command leave it with the level's deescalate command.
func (s *Session) ConfigureIn(ctx context.Context, priv, escalate string, lines []string) error {
	lvl, ok := s.drv.PrivilegeLevels[priv]
	if !ok {
		return fmt.Errorf("%s: configure: the platform has no privilege level %q", s.device, priv)
	}
	if len(lines) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: configure: %w", s.device, err)
	}
	if escalate != "" {
		lvl.Escalate = escalate
	}
	if err := s.sendConfigs(ctx, lines, opoptions.WithPrivilegeLevel(priv)); err != nil {
		return err
	}
	s.log.Debug("configured", "op", "configure", "level", priv, "lines", len(lines))
	return nil
}
