package config_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/config"
)

func TestDigestDefaults(t *testing.T) {
	c := config.FromEnv(env{}.get)
	if c.Location == nil || c.Location.String() != "Asia/Kolkata" {
		t.Errorf("Location = %v, want Asia/Kolkata", c.Location)
	}
	if c.DigestAt != "0 7 * * *" || c.DigestLatest != 12*time.Hour || c.DigestTemplateSID != "" || c.OwnerEmail != "" {
		t.Errorf("digest defaults = %q, %v, %q, %q; want 0 7 * * *, 12h and nothing else",
			c.DigestAt, c.DigestLatest, c.DigestTemplateSID, c.OwnerEmail)
	}
	// Kolkata's 07:00 is 01:30 UTC, whatever the host's zone.
	seven := time.Date(2026, 3, 14, 7, 0, 0, 0, c.Location)
	if got := seven.UTC().Format("15:04"); got != "01:30" {
		t.Errorf("07:00 in MUNSHI_TZ is %s UTC, want 01:30", got)
	}
}

func TestDigestVariablesRead(t *testing.T) {
	const sid = "HX0123456789abcdef0123456789abcdef"
	c := config.FromEnv(full.with(env{
		"MUNSHI_TZ": "Asia/Dubai", "MUNSHI_DIGEST_AT": "30 6 * * 1-6", "MUNSHI_DIGEST_LATEST": "9:45",
		"MUNSHI_DIGEST_TEMPLATE_SID": sid, "OWNER_EMAIL": " owner@example.com ,, partner@example.com",
	}).get)
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate() = %v", err)
	}
	if c.Location.String() != "Asia/Dubai" || c.DigestAt != "30 6 * * 1-6" || c.DigestLatest != 9*time.Hour+45*time.Minute ||
		c.DigestTemplateSID != sid {
		t.Errorf("read %v %q %v %q", c.Location, c.DigestAt, c.DigestLatest, c.DigestTemplateSID)
	}
	if got := c.OwnerEmails(); !slices.Equal(got, []string{"owner@example.com", "partner@example.com"}) {
		t.Errorf("OwnerEmails() = %q", got)
	}
	u := config.Usage()
	for _, want := range []string{"MUNSHI_TZ", "(default Asia/Kolkata)", "MUNSHI_DIGEST_AT", "(default 0 7 * * *)",
		"MUNSHI_DIGEST_LATEST", "(default 12:00)", "MUNSHI_DIGEST_TEMPLATE_SID", "OWNER_EMAIL"} {
		if !strings.Contains(u, want) {
			t.Errorf("serve --help does not show %s", want)
		}
	}
}

func TestDigestValidation(t *testing.T) {
	for _, tt := range []struct {
		changes env
		want    string
	}{
		{env{"MUNSHI_TZ": "Asia/Atlantis"}, `MUNSHI_TZ "Asia/Atlantis" must be a time zone name`},
		{env{"MUNSHI_TZ": "Local"}, `MUNSHI_TZ "Local" must be a time zone name`},
		{env{"MUNSHI_TZ": "../../etc/passwd"}, `MUNSHI_TZ "../../etc/passwd" must be`},
		{env{"MUNSHI_DIGEST_AT": "7am"}, `MUNSHI_DIGEST_AT "7am" must be a five-field cron spec`},
		{env{"MUNSHI_DIGEST_AT": "0 7 * * * *"}, `MUNSHI_DIGEST_AT "0 7 * * * *" must be`},
		{env{"MUNSHI_DIGEST_AT": "0 7 30 2 *"}, `MUNSHI_DIGEST_AT "0 7 30 2 *" must be a five-field cron spec that comes due`},
		{env{"MUNSHI_DIGEST_AT": "*/0 * * * *"}, `MUNSHI_DIGEST_AT "*/0 * * * *" must be`},
		{env{"MUNSHI_DIGEST_AT": strings.Repeat("1,", 500) + "1 7 * * *"}, "MUNSHI_DIGEST_AT"},
		{env{"MUNSHI_DIGEST_LATEST": "noon"}, `MUNSHI_DIGEST_LATEST "noon" must be a time of day HH:MM`},
		{env{"MUNSHI_DIGEST_LATEST": "24:00"}, `MUNSHI_DIGEST_LATEST "24:00" must be`},
		{env{"MUNSHI_DIGEST_LATEST": "12:5"}, `MUNSHI_DIGEST_LATEST "12:5" must be`},
		{env{"MUNSHI_DIGEST_LATEST": "-1:00"}, `MUNSHI_DIGEST_LATEST "-1:00" must be`},
		{env{"MUNSHI_DIGEST_LATEST": "१२:००"}, `MUNSHI_DIGEST_LATEST "१२:००" must be`},
		{env{"MUNSHI_DIGEST_TEMPLATE_SID": "MG0123456789abcdef0123456789abcdef"}, "MUNSHI_DIGEST_TEMPLATE_SID must be a Twilio Content SID"},
		{env{"MUNSHI_DIGEST_TEMPLATE_SID": "HX123"}, "MUNSHI_DIGEST_TEMPLATE_SID must be a Twilio Content SID"},
		{env{"OWNER_EMAIL": "owner@example.com, vikram"}, `OWNER_EMAIL "vikram" is not an email address`},
	} {
		got := problems(config.FromEnv(full.with(tt.changes).get).Validate())
		if len(got) != 1 || !strings.Contains(got[0], tt.want) {
			t.Errorf("%v: Validate() = %q, want one problem containing %q", tt.changes, got, tt.want)
		}
	}
	// Combinations: a template needs Twilio; owners' mail needs a server.
	c := config.FromEnv(env{"MUNSHI_DIGEST_TEMPLATE_SID": "HX0123456789abcdef0123456789abcdef", "OWNER_EMAIL": "o@example.com"}.get)
	got := problems(c.Validate())
	for _, want := range []string{"MUNSHI_DIGEST_TEMPLATE_SID is set but TWILIO_ACCOUNT_SID is not", "OWNER_EMAIL is set but SMTP_URL is not"} {
		if !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, want) }) {
			t.Errorf("Validate() = %q, want a problem containing %q", got, want)
		}
	}
}

func TestParseTimeOfDay(t *testing.T) {
	for in, want := range map[string]time.Duration{"00:00": 0, "7:05": 7*time.Hour + 5*time.Minute, "12:00": 12 * time.Hour, "23:59": 23*time.Hour + 59*time.Minute} {
		if got, err := config.ParseTimeOfDay(in); err != nil || got != want {
			t.Errorf("ParseTimeOfDay(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", ":", "12", "12:", ":30", "12:60", "123:00", "+1:00", "1 :00", "12:00:00", "12.00"} {
		if _, err := config.ParseTimeOfDay(in); err == nil {
			t.Errorf("ParseTimeOfDay(%q) accepted", in)
		}
	}
}

// FuzzParseTimeOfDay: any text either fails or reads as a time within the
// day that prints back as itself.
func FuzzParseTimeOfDay(f *testing.F) {
	for _, s := range []string{"12:00", "7:05", "23:59", "24:00", "-0:30", "१२:००", "12:00:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := config.ParseTimeOfDay(s)
		if err != nil {
			return
		}
		if d < 0 || d >= 24*time.Hour || d%time.Minute != 0 {
			t.Fatalf("ParseTimeOfDay(%q) = %v, outside the day", s, d)
		}
		back := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(d).Format("15:04")
		if back != s && back != "0"+s {
			t.Fatalf("ParseTimeOfDay(%q) = %v, which reads back as %s", s, d, back)
		}
	})
}
