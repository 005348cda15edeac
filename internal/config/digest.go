package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/munshi/munshi/internal/domain"
)

// DefaultZone is MUNSHI_TZ's default.
const DefaultZone = domain.DefaultZone

// LoadLocation reads a time zone name such as Asia/Kolkata. "Local" is
// refused: the business's day must not depend on the host's setting.
func LoadLocation(name string) (*time.Location, error) {
	if name == "" || strings.EqualFold(name, "local") {
		return nil, fmt.Errorf("config: %q is not a time zone name such as Asia/Kolkata", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("config: %q is not a time zone name such as Asia/Kolkata", name)
	}
	return loc, nil
}

// ParseTimeOfDay reads "HH:MM" (24-hour) as the time since midnight.
func ParseTimeOfDay(v string) (time.Duration, error) {
	hh, mm, ok := strings.Cut(v, ":")
	h, herr := strconv.Atoi(hh)
	m, merr := strconv.Atoi(mm)
	if !ok || herr != nil || merr != nil || len(hh) < 1 || len(hh) > 2 || len(mm) != 2 ||
		h < 0 || h > 23 || m < 0 || m > 59 || strings.ContainsAny(v, "+- ") {
		return 0, fmt.Errorf("config: %q is not a time of day such as 12:00", v)
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute, nil
}

// validCron reports whether spec is a standard five-field cron spec that
// comes due; the parser's panics on hostile input count as no.
func validCron(spec string, loc *time.Location) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if len(spec) > 200 {
		return false
	}
	sched, err := cron.ParseStandard(spec)
	if err != nil {
		return false
	}
	if loc == nil {
		loc = time.UTC
	}
	return !sched.Next(time.Now().In(loc)).IsZero()
}

// validateDigest checks the daily digest's variables.
func (c Config) validateDigest() []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("config: "+format, args...)) }
	if c.Location == nil {
		bad("MUNSHI_TZ %q must be a time zone name such as Asia/Kolkata", c.tzRaw)
	}
	if !validCron(c.DigestAt, c.Location) {
		bad("MUNSHI_DIGEST_AT %q must be a five-field cron spec that comes due, such as \"0 7 * * *\" (07:00 every day)", c.DigestAt)
	}
	if _, err := ParseTimeOfDay(c.digestLatestRaw); err != nil {
		bad("MUNSHI_DIGEST_LATEST %q must be a time of day HH:MM, such as 12:00", c.digestLatestRaw)
	}
	if sid := c.DigestTemplateSID; sid != "" && (!strings.HasPrefix(sid, "HX") || len(sid) != 34 || !alphanumeric(sid)) {
		bad("MUNSHI_DIGEST_TEMPLATE_SID must be a Twilio Content SID: HX and 32 letters or digits")
	}
	if c.DigestTemplateSID != "" && c.TwilioAccountSID == "" {
		bad("MUNSHI_DIGEST_TEMPLATE_SID is set but TWILIO_ACCOUNT_SID is not: templates are sent through Twilio")
	}
	if c.OwnerEmail != "" && c.SMTPURL == "" {
		bad("OWNER_EMAIL is set but SMTP_URL is not: mail needs a server")
	}
	for _, a := range c.OwnerEmails() {
		if !strings.Contains(a, "@") {
			bad("OWNER_EMAIL %q is not an email address", a)
		}
	}
	return errs
}
