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
	// in MUNSHI_TZ; both zero: the office is always open. OfficeClosed are
	// the weekdays it does not open ("Mon-Sat 09:30-19:00" closes Sunday).
	OfficeOpen, OfficeClose time.Duration
	OfficeClosed            [7]bool
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
	{Name: "MUNSHI_OFFICE_HOURS", Help: "the office's hours, HH:MM-HH:MM in MUNSHI_TZ, every day (09:30-19:00) or on the days named first (Mon-Sat 09:30-19:00): a handoff's timeout counts only then (default: always open)", set: func(c *Config, v string) {
		c.officeHoursRaw = v
		c.OfficeOpen, c.OfficeClose, c.OfficeClosed, _ = parseOfficeHours(v)
	}},
}

// parseOfficeHours reads "09:30-19:00" (every day) or "Mon-Sat
// 09:30-19:00" (days as ranges or lists: "Mon-Fri,Sat"); "" is always
// open. closed are the weekdays not named.
func parseOfficeHours(v string) (open, closing time.Duration, closed [7]bool, err error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, 0, closed, nil
	}
	hours := v
	if days, rest, ok := strings.Cut(v, " "); ok {
		if closed, err = parseOfficeDays(days); err != nil {
			return 0, 0, closed, err
		}
		hours = strings.TrimSpace(rest)
	}
	from, to, ok := strings.Cut(hours, "-")
	if !ok {
		return 0, 0, closed, fmt.Errorf("config: %q is not HH:MM-HH:MM", v)
	}
	if open, err = ParseTimeOfDay(strings.TrimSpace(from)); err != nil {
		return 0, 0, closed, err
	}
	if closing, err = ParseTimeOfDay(strings.TrimSpace(to)); err != nil {
		return 0, 0, closed, err
	}
	if open >= closing {
		return 0, 0, closed, fmt.Errorf("config: office hours %q close before they open", v)
	}
	return open, closing, closed, nil
}

// weekdays by the names people write, three letters or whole.
var weekdays = map[string]time.Weekday{}

func init() {
	for d := time.Sunday; d <= time.Saturday; d++ {
		weekdays[strings.ToLower(d.String())] = d
		weekdays[strings.ToLower(d.String()[:3])] = d
	}
}

// parseOfficeDays reads "Mon-Sat" or "Mon,Wed,Fri" (a range may wrap:
// "Sat-Wed") into the weekdays that are not named.
func parseOfficeDays(s string) (closed [7]bool, err error) {
	open := [7]bool{}
	for _, part := range strings.Split(s, ",") {
		from, to, isRange := strings.Cut(strings.ToLower(strings.TrimSpace(part)), "-")
		first, ok1 := weekdays[from]
		last, ok2 := weekdays[to]
		if !ok1 || (isRange && !ok2) {
			return closed, fmt.Errorf("config: %q is not a day or a range of days such as Mon-Sat", part)
		}
		if !isRange {
			last = first
		}
		for d := first; ; d = (d + 1) % 7 {
			open[d] = true
			if d == last {
				break
			}
		}
	}
	for d := range closed {
		closed[d] = !open[d]
	}
	return closed, nil
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
	if _, _, _, err := parseOfficeHours(c.officeHoursRaw); err != nil {
		bad("MUNSHI_OFFICE_HOURS %q must be the hours the office opens and closes on one day, HH:MM-HH:MM in MUNSHI_TZ, such as 09:30-19:00, optionally after the days it opens, such as Mon-Sat 09:30-19:00", c.officeHoursRaw)
	}
	return errs
}
