package config

import (
	"fmt"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Handoff is how conversations are handed over to the office
// (internal/handoff).
type Handoff struct {
	// HandoffTo are the office phones handoffs go to (MUNSHI_HANDOFF_TO,
	// comma-separated E.164); empty: the owners.
	HandoffTo    []string
	handoffToRaw string
	// HandoffTimeout is how long of office time a handoff waits for the
	// office's answer before it is reminded once.
	HandoffTimeout    time.Duration
	handoffTimeoutRaw string
	// OfficeOpen and OfficeClose are MUNSHI_OFFICE_HOURS, since midnight
	// in MUNSHI_TZ; both zero: the office is always open.
	OfficeOpen, OfficeClose time.Duration
	officeHoursRaw          string
}

// The shortest and longest MUNSHI_HANDOFF_TIMEOUT: the office needs a few
// minutes to see a message, and a reminder a week later helps no one.
const (
	MinHandoffTimeout = 5 * time.Minute
	MaxHandoffTimeout = 7 * 24 * time.Hour
)

var handoffVars = []Var{
	{Name: "MUNSHI_HANDOFF_TO", Help: "the office phones a conversation is handed over to when Munshi cannot help, comma-separated E.164 (default: the owners)", set: func(c *Config, v string) {
		c.handoffToRaw = v
		c.HandoffTo = nil
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				c.HandoffTo = append(c.HandoffTo, p)
			}
		}
	}},
	{Name: "MUNSHI_HANDOFF_TIMEOUT", Default: "2h", Help: "how long of office time a handoff waits for the office's answer before they are reminded once and the person is told when to expect one", set: func(c *Config, v string) {
		c.handoffTimeoutRaw = v
		c.HandoffTimeout, _ = time.ParseDuration(v)
	}},
	{Name: "MUNSHI_OFFICE_HOURS", Help: "the office's hours every day, HH:MM-HH:MM in MUNSHI_TZ, such as 09:30-19:00: a handoff's timeout counts only then (default: always open)", set: func(c *Config, v string) {
		c.officeHoursRaw = v
		c.OfficeOpen, c.OfficeClose, _ = parseOfficeHours(v)
	}},
}

// parseOfficeHours reads "09:30-19:00"; "" is always open.
func parseOfficeHours(v string) (open, closing time.Duration, err error) {
	if v == "" {
		return 0, 0, nil
	}
	from, to, ok := strings.Cut(v, "-")
	if !ok {
		return 0, 0, fmt.Errorf("config: %q is not HH:MM-HH:MM", v)
	}
	if open, err = ParseTimeOfDay(strings.TrimSpace(from)); err != nil {
		return 0, 0, err
	}
	if closing, err = ParseTimeOfDay(strings.TrimSpace(to)); err != nil {
		return 0, 0, err
	}
	if open >= closing {
		return 0, 0, fmt.Errorf("config: office hours %q close before they open", v)
	}
	return open, closing, nil
}

// validateHandoff checks the handoff's variables.
func (c Config) validateHandoff() []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("config: "+format, args...)) }
	for _, p := range c.HandoffTo {
		if got, err := domain.ParsePhone(p); err != nil || got != p {
			bad("MUNSHI_HANDOFF_TO %q is not a phone in E.164 form, such as +919900000001", p)
		}
	}
	if c.HandoffTimeout < MinHandoffTimeout || c.HandoffTimeout > MaxHandoffTimeout {
		bad("MUNSHI_HANDOFF_TIMEOUT %q must be a duration from %s to %s, such as 2h", c.handoffTimeoutRaw, MinHandoffTimeout, MaxHandoffTimeout)
	}
	if _, _, err := parseOfficeHours(c.officeHoursRaw); err != nil {
		bad("MUNSHI_OFFICE_HOURS %q must be the hours the office opens and closes on one day, HH:MM-HH:MM in MUNSHI_TZ, such as 09:30-19:00", c.officeHoursRaw)
	}
	return errs
}
