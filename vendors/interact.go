package vendors

import (
	"context"
	"fmt"
	"strings"

	"github.com/scrapli/scrapligo/channel"
	"github.com/scrapli/scrapligo/driver/opoptions"
)

// ConfigCommand runs one line in configuration mode (entered if needed)
// and returns its output, staying in configuration mode: for NOSes whose
// commit, review and display commands run there without leaving it
// (Huawei CE's two-stage candidate, where leaving system view with pending
// changes asks a question). Output matching the platform's failure
// strings is a *DeviceError.
func (s *Session) ConfigCommand(ctx context.Context, line string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("%s: %q: %w", s.device, line, err)
	}
	stop := context.AfterFunc(ctx, func() { _ = s.drv.Transport.Close(true) })
	defer stop()
	mr, err := s.drv.SendConfigs([]string{line}, opoptions.WithTimeoutOps(s.timeout(ctx)))
	if err != nil {
		return "", s.ioError(ctx, line, err)
	}
	if len(mr.Responses) != 1 {
		return "", fmt.Errorf("%s: %q: the device answered %d lines", s.device, line, len(mr.Responses))
	}
	r := mr.Responses[0]
	if r.Failed != nil {
		return r.Result, &DeviceError{Device: s.device, Line: line, Reply: strings.TrimSpace(r.Result)}
	}
	return r.Result, nil
}

// Step is one exchange of an interactive command: the line typed and a
// regular expression matching the question the device asks next ("" when
// the next thing printed is the prompt).
type Step struct {
	Input    string
	Question string
}

// Interact runs an interactive exchange (a command that asks [Y/N] and
// its answer) at the platform's privilege level priv ("" for the default
// one) and returns everything printed. Output matching the platform's
// failure strings is a *DeviceError naming the first step's line.
func (s *Session) Interact(ctx context.Context, priv string, steps []Step) (string, error) {
	if len(steps) == 0 {
		return "", nil
	}
	first := steps[0].Input
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("%s: %q: %w", s.device, first, err)
	}
	if priv == "" {
		priv = s.drv.DefaultDesiredPriv
	}
	events := make([]*channel.SendInteractiveEvent, len(steps))
	for i, st := range steps {
		events[i] = &channel.SendInteractiveEvent{ChannelInput: st.Input, ChannelResponse: st.Question}
	}
	stop := context.AfterFunc(ctx, func() { _ = s.drv.Transport.Close(true) })
	defer stop()
	r, err := s.drv.SendInteractive(events, opoptions.WithPrivilegeLevel(priv), opoptions.WithTimeoutOps(s.timeout(ctx)))
	if err != nil {
		return "", s.ioError(ctx, first, err)
	}
	if r.Failed != nil {
		return r.Result, &DeviceError{Device: s.device, Line: first, Reply: strings.TrimSpace(r.Result)}
	}
	return r.Result, nil
}
