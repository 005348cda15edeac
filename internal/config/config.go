package config

import (
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Config is Munshi's configuration.
type Config struct {
	Addr string
	DB   string
	// DBPool is how many connections a PostgreSQL database gets.
	DBPool             int
	dbPoolRaw          string
	PublicURL          string
	RedisURL           string
	RedisPrefix        string
	TwilioAccountSID   string
	TwilioAuthToken    string
	TwilioWhatsAppFrom string
	TwilioAPIURL       string
	SMTPURL            string
	MailFrom           string
	AccountsEmail      string
	GeminiAPIKey       string
	GeminiModel        string
	GeminiBaseURL      string
	Budget             time.Duration
	LogLevel           string
	MinimumOrder       domain.Paise
	minimumOrderRaw    string
	// MaxAdvance is the most a payment may leave as an advance without an
	// owner's approval, for a customer whose credit limit is lower.
	MaxAdvance    domain.Paise
	maxAdvanceRaw string
	// Retention is how long inbound message records are kept;
	// AuditRetention how long the audit log is, at least as long.
	Retention, AuditRetention       time.Duration
	retentionRaw, auditRetentionRaw string
	// Location is MUNSHI_TZ: where a day starts, for the digest and its
	// schedule.
	Location *time.Location
	tzRaw    string
	// DigestAt is the cron spec of the daily digest, read in Location;
	// DigestLatest the time of day (from midnight) after which a digest
	// missed while Munshi was down is no longer sent.
	DigestAt          string
	DigestLatest      time.Duration
	digestLatestRaw   string
	DigestTemplateSID string
	OwnerEmail        string
	// MediaTTL is how long a generated chart or file stays at its link.
	MediaTTL    time.Duration
	mediaTTLRaw string
	// OutboxLease is how long an instance holds an outbox message it is
	// sending: a message whose holder died is sent by another instance
	// once it runs out. One try may take half of it.
	OutboxLease    time.Duration
	outboxLeaseRaw string
	// Sheets is the Google Sheet Munshi logs orders to and reads the
	// catalog and customers from (sheets.go).
	Sheets
	// Handoff is how conversations are handed over to the office
	// (handoff.go).
	Handoff
	// SyncConfig is the ERP sync mapping file (MUNSHI_SYNC_CONFIG): a
	// running server syncs each of its entities on its tier. Empty: no ERP.
	SyncConfig string
}

// Var describes one environment variable.
type Var struct {
	Name, Default, Help string
	Secret              bool
	set                 func(*Config, string)
}

// Vars lists every variable in the order `munshi serve --help` shows them.
var Vars = append(append([]Var{
	{Name: "MUNSHI_ADDR", Default: "127.0.0.1:8080", Help: "address the HTTP server listens on", set: func(c *Config, v string) { c.Addr = v }},
	{Name: "MUNSHI_DB", Default: "munshi.db", Help: "the database: a SQLite file path (or file:PATH, sqlite:PATH), or postgres://user:pass@host:5432/db for several instances", set: func(c *Config, v string) { c.DB = v }},
	{Name: "MUNSHI_DB_POOL", Default: "10", Help: "connections each instance keeps to a PostgreSQL database", set: func(c *Config, v string) {
		c.dbPoolRaw = v
		c.DBPool, _ = strconv.Atoi(v)
	}},
	{Name: "MUNSHI_PUBLIC_URL", Help: "the URL Twilio calls (signatures and media links are computed from it)", set: func(c *Config, v string) { c.PublicURL = strings.TrimRight(v, "/") }},
	{Name: "MUNSHI_BUDGET", Default: "12s", Help: "hard time budget for answering one webhook (Twilio waits 15s)", set: func(c *Config, v string) { c.Budget, _ = time.ParseDuration(v) }},
	{Name: "MUNSHI_MIN_ORDER", Default: "25000", Help: "minimum order value in rupees (including GST); smaller orders need an owner's approval", set: func(c *Config, v string) {
		c.minimumOrderRaw = v
		c.MinimumOrder, _ = domain.ParseRupees(v)
	}},
	{Name: "MUNSHI_MAX_ADVANCE", Default: "50000", Help: "the most a payment may leave as an advance, in rupees, when the customer's credit limit is lower; a larger advance needs an owner's approval", set: func(c *Config, v string) {
		c.maxAdvanceRaw = v
		c.MaxAdvance, _ = domain.ParseRupees(v)
	}},
	{Name: "MUNSHI_RETENTION", Default: "90d", Help: "how long inbound message records are kept, in days (90d) or as a duration (2160h)", set: func(c *Config, v string) {
		c.retentionRaw = v
		c.Retention, _ = ParseRetention(v)
	}},
	{Name: "MUNSHI_AUDIT_RETENTION", Default: "730d", Help: "how long the audit log is kept, in days or as a duration; at least the inbound records' retention", set: func(c *Config, v string) {
		c.auditRetentionRaw = v
		c.AuditRetention, _ = ParseRetention(v)
	}},
	{Name: "MUNSHI_MEDIA_TTL", Default: "1h", Help: "how long a chart or Excel file Munshi sends stays at its link (then 404)", set: func(c *Config, v string) {
		c.mediaTTLRaw = v
		c.MediaTTL, _ = time.ParseDuration(v)
	}},
	{Name: "MUNSHI_OUTBOX_LEASE", Default: "1m", Help: "how long an instance holds an outbox message it is sending; another sends it once the lease runs out (a try may take half)", set: func(c *Config, v string) {
		c.outboxLeaseRaw = v
		c.OutboxLease, _ = time.ParseDuration(v)
	}},
	{Name: "MUNSHI_LOG_LEVEL", Default: "info", Help: "debug, info, warn or error", set: func(c *Config, v string) { c.LogLevel = strings.ToLower(v) }},
	{Name: "REDIS_URL", Help: "redis://host:port/db for conversation memory shared by instances (default: in-process)", set: func(c *Config, v string) { c.RedisURL = v }},
	{Name: "MUNSHI_REDIS_PREFIX", Default: "munshi:", Help: "prefix of every Redis key Munshi writes", set: func(c *Config, v string) { c.RedisPrefix = v }},
	{Name: "TWILIO_ACCOUNT_SID", Help: "Twilio account SID (AC…); with the token, outbound messages are sent", set: func(c *Config, v string) { c.TwilioAccountSID = v }},
	{Name: "TWILIO_AUTH_TOKEN", Secret: true, Help: "Twilio auth token; when set, every webhook must carry a valid X-Twilio-Signature", set: func(c *Config, v string) { c.TwilioAuthToken = v }},
	{Name: "TWILIO_WHATSAPP_FROM", Help: "the WhatsApp sender, as whatsapp:+E164 or +E164", set: func(c *Config, v string) { c.TwilioWhatsAppFrom = v }},
	{Name: "TWILIO_API_URL", Help: "override of Twilio's API base URL (for fakes)", set: func(c *Config, v string) { c.TwilioAPIURL = strings.TrimRight(v, "/") }},
	{Name: "SMTP_URL", Secret: true, Help: "smtp://user:pass@host:port (or smtps://) for mail to the accounts team", set: func(c *Config, v string) { c.SMTPURL = v }},
	{Name: "MAIL_FROM", Help: "sender address of Munshi's mail", set: func(c *Config, v string) { c.MailFrom = v }},
	{Name: "ACCOUNTS_EMAIL", Help: "where order notifications are mailed (comma-separated)", set: func(c *Config, v string) { c.AccountsEmail = v }},
	{Name: "OWNER_EMAIL", Help: "where the owners' daily digest is mailed (comma-separated)", set: func(c *Config, v string) { c.OwnerEmail = v }},
	{Name: "MUNSHI_TZ", Default: DefaultZone, Help: "the time zone of the business: where a day starts, when the digest is sent", set: func(c *Config, v string) {
		c.tzRaw = v
		c.Location, _ = LoadLocation(v)
	}},
	{Name: "MUNSHI_DIGEST_AT", Default: "0 7 * * *", Help: "when the daily digest is sent: a five-field cron spec (in MUNSHI_TZ)", set: func(c *Config, v string) { c.DigestAt = v }},
	{Name: "MUNSHI_DIGEST_LATEST", Default: "12:00", Help: "a digest missed while Munshi was down is sent at start until this time of day (HH:MM in MUNSHI_TZ)", set: func(c *Config, v string) {
		c.digestLatestRaw = v
		c.DigestLatest, _ = ParseTimeOfDay(v)
	}},
	{Name: "MUNSHI_DIGEST_TEMPLATE_SID", Help: "Twilio Content SID (HX…) of the approved digest template, for people outside WhatsApp's 24-hour window", set: func(c *Config, v string) { c.DigestTemplateSID = v }},
	{Name: "GEMINI_API_KEY", Secret: true, Help: "Gemini API key; without it Munshi runs with no LLM", set: func(c *Config, v string) { c.GeminiAPIKey = v }},
	{Name: "GEMINI_MODEL", Default: "gemini-2.5-flash-lite", Help: "Gemini model", set: func(c *Config, v string) { c.GeminiModel = v }},
	{Name: "GEMINI_BASE_URL", Help: "override of Gemini's API base URL (for fakes)", set: func(c *Config, v string) { c.GeminiBaseURL = v }},
	{Name: "MUNSHI_SYNC_CONFIG", Help: "an ERP sync mapping file (YAML, written by munshi connect): the server keeps a copy of the ERP's books synced on each entity's tier", set: func(c *Config, v string) { c.SyncConfig = v }},
}, sheetsVars...), handoffVars...)

// FromEnv reads the configuration from the environment through getenv
// (os.Getenv when nil), applying defaults. Call Validate before use.
func FromEnv(getenv func(string) string) Config {
	if getenv == nil {
		getenv = os.Getenv
	}
	var c Config
	for _, v := range Vars {
		val := strings.TrimSpace(getenv(v.Name))
		if val == "" {
			val = v.Default
		}
		v.set(&c, val)
	}
	if raw := strings.TrimSpace(getenv("MUNSHI_BUDGET")); raw != "" {
		if _, err := time.ParseDuration(raw); err != nil {
			c.Budget = -1 // reported by Validate
		}
	}
	return c
}

// Validate returns every problem of the configuration, one per line.
func (c Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf("config: "+format, args...)) }
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		bad("MUNSHI_ADDR %q must be host:port, such as 127.0.0.1:8080", c.Addr)
	}
	if c.DB == "" {
		bad("MUNSHI_DB must name the database: a SQLite file path or postgres://…")
	}
	if c.DBPool < 1 || c.DBPool > 500 {
		bad("MUNSHI_DB_POOL %q must be a number of connections from 1 to 500, such as 10", c.dbPoolRaw)
	}
	if c.Budget <= 0 || c.Budget > 14*time.Second {
		bad("MUNSHI_BUDGET must be a duration above 0 and at most 14s (Twilio waits 15s), such as 12s")
	}
	if p, err := domain.ParseRupees(c.minimumOrderRaw); err != nil || p < 0 {
		bad("MUNSHI_MIN_ORDER %q must be an amount in rupees, such as 25000", c.minimumOrderRaw)
	}
	if p, err := domain.ParseRupees(c.maxAdvanceRaw); err != nil || p < 0 {
		bad("MUNSHI_MAX_ADVANCE %q must be an amount in rupees, such as 50000", c.maxAdvanceRaw)
	}
	if c.Retention < MinRetention {
		bad("MUNSHI_RETENTION %q must be a number of days such as 90d, or a duration such as 2160h, of at least 1d", c.retentionRaw)
	}
	if c.AuditRetention < MinRetention {
		bad("MUNSHI_AUDIT_RETENTION %q must be a number of days such as 730d, or a duration such as 17520h, of at least 1d", c.auditRetentionRaw)
	} else if c.Retention >= MinRetention && c.AuditRetention < c.Retention {
		bad("MUNSHI_AUDIT_RETENTION (%s) must not be shorter than MUNSHI_RETENTION (%s)", c.auditRetentionRaw, c.retentionRaw)
	}
	if c.MediaTTL < MinMediaTTL || c.MediaTTL > MaxMediaTTL {
		bad("MUNSHI_MEDIA_TTL %q must be a duration from %s to %s, such as 1h (Twilio fetches a file within minutes)", c.mediaTTLRaw, MinMediaTTL, MaxMediaTTL)
	}
	if c.OutboxLease < MinOutboxLease || c.OutboxLease > MaxOutboxLease {
		bad("MUNSHI_OUTBOX_LEASE %q must be a duration from %s to %s, such as 1m (a try may take half of it)", c.outboxLeaseRaw, MinOutboxLease, MaxOutboxLease)
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		bad("MUNSHI_LOG_LEVEL %q must be debug, info, warn or error", c.LogLevel)
	}
	if c.PublicURL != "" && !isHTTPURL(c.PublicURL) {
		bad("MUNSHI_PUBLIC_URL %q must be an http(s) URL, such as https://munshi.example.com", c.PublicURL)
	}
	if c.TwilioAccountSID != "" && c.TwilioAuthToken == "" {
		bad("TWILIO_ACCOUNT_SID is set but TWILIO_AUTH_TOKEN is not: both are needed to send messages")
	}
	if c.TwilioAuthToken != "" && c.TwilioAccountSID == "" {
		bad("TWILIO_AUTH_TOKEN is set but TWILIO_ACCOUNT_SID is not: both are needed to send messages")
	}
	if c.TwilioAccountSID != "" && (!strings.HasPrefix(c.TwilioAccountSID, "AC") || !alphanumeric(c.TwilioAccountSID)) {
		bad("TWILIO_ACCOUNT_SID must start with AC and hold only letters and digits")
	}
	if c.TwilioAuthToken != "" && !alphanumeric(c.TwilioAuthToken) {
		bad("TWILIO_AUTH_TOKEN must hold only letters and digits (copy it again from the Twilio console)")
	}
	if c.TwilioAuthToken != "" && c.PublicURL == "" {
		bad("TWILIO_AUTH_TOKEN is set but MUNSHI_PUBLIC_URL is not: signatures are computed over the public URL Twilio calls")
	}
	if c.TwilioAccountSID != "" && c.TwilioWhatsAppFrom == "" {
		bad("TWILIO_ACCOUNT_SID is set but TWILIO_WHATSAPP_FROM is not: outbound messages need a sender")
	}
	if c.TwilioAPIURL != "" && !isHTTPURL(c.TwilioAPIURL) {
		bad("TWILIO_API_URL %q must be an http(s) URL", c.TwilioAPIURL)
	}
	if c.RedisURL != "" {
		if u, err := url.Parse(c.RedisURL); err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") {
			bad("REDIS_URL must look like redis://127.0.0.1:6379/0")
		}
	}
	if c.SMTPURL != "" {
		if u, err := url.Parse(c.SMTPURL); err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Host == "" {
			bad("SMTP_URL must look like smtp://user:password@host:587 or smtps://host:465")
		}
		if c.MailFrom == "" {
			bad("SMTP_URL is set but MAIL_FROM is not: mail needs a sender address")
		}
		if c.AccountsEmail == "" {
			bad("SMTP_URL is set but ACCOUNTS_EMAIL is not: there is nobody to mail")
		}
	}
	if c.AccountsEmail != "" && c.SMTPURL == "" {
		bad("ACCOUNTS_EMAIL is set but SMTP_URL is not: mail needs a server")
	}
	for _, a := range c.AccountsEmails() {
		if !strings.Contains(a, "@") {
			bad("ACCOUNTS_EMAIL %q is not an email address", a)
		}
	}
	errs = append(errs, c.validateDigest()...)
	errs = append(errs, c.validateSheets()...)
	errs = append(errs, c.validateHandoff()...)
	if c.SyncConfig != "" {
		if fi, err := os.Stat(c.SyncConfig); err != nil {
			bad("MUNSHI_SYNC_CONFIG %q cannot be read: %v", c.SyncConfig, errors.Unwrap(err))
		} else if fi.IsDir() {
			bad("MUNSHI_SYNC_CONFIG %q is a directory, not a mapping file", c.SyncConfig)
		}
	}
	if c.GeminiBaseURL != "" && !isHTTPURL(c.GeminiBaseURL) {
		bad("GEMINI_BASE_URL %q must be an http(s) URL", c.GeminiBaseURL)
	}
	if c.GeminiAPIKey != "" && c.GeminiModel == "" {
		bad("GEMINI_MODEL must name a model when GEMINI_API_KEY is set")
	}
	return errors.Join(errs...)
}

// The shortest and longest MUNSHI_MEDIA_TTL: a link must outlive Twilio's
// fetch (and a late reply's queue), and a file must not outlive the day
// its link is a secret for.
const (
	MinMediaTTL = time.Minute
	MaxMediaTTL = 7 * 24 * time.Hour
)

// The shortest and longest MUNSHI_OUTBOX_LEASE: a try (half the lease)
// needs a second or so, and a message whose sender died waits out the
// rest.
const (
	MinOutboxLease = 2 * time.Second
	MaxOutboxLease = time.Hour
)

// MinRetention is the shortest retention accepted: a message a crash left
// unanswered is still answered for a day, from its record.
const MinRetention = 24 * time.Hour

// ParseRetention reads a retention: whole days ("90d") or a Go duration
// ("2160h"). Anything else, or a value that is not positive, is an error.
func ParseRetention(v string) (time.Duration, error) {
	var d time.Duration
	if days, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n > int(math.MaxInt64/int64(24*time.Hour)) {
			return 0, fmt.Errorf("config: %q is not a number of days", v)
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(v); err != nil {
			return 0, fmt.Errorf("config: %q is neither days nor a duration", v)
		}
	}
	if d <= 0 {
		return 0, fmt.Errorf("config: retention %q must be positive", v)
	}
	return d, nil
}

// AccountsEmails splits ACCOUNTS_EMAIL into addresses.
func (c Config) AccountsEmails() []string { return addresses(c.AccountsEmail) }

// OwnerEmails splits OWNER_EMAIL into addresses.
func (c Config) OwnerEmails() []string { return addresses(c.OwnerEmail) }

func addresses(list string) []string {
	var out []string
	for _, a := range strings.Split(list, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// Secrets lists the configured secret values, for redaction.
func (c Config) Secrets() []string {
	var out []string
	for _, s := range []string{c.TwilioAuthToken, c.GeminiAPIKey, c.SMTPURL} {
		if s != "" {
			out = append(out, s)
		}
	}
	for _, raw := range []string{c.SMTPURL, c.DB} {
		if u, err := url.Parse(raw); err == nil && u.User != nil {
			if p, ok := u.User.Password(); ok && p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// Loopback reports whether Addr listens only on a loopback address.
func (c Config) Loopback() bool {
	host, _, err := net.SplitHostPort(c.Addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Usage writes the variables named as a table for --help, in Vars' order;
// with no names, every variable.
func Usage(names ...string) string {
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	var b strings.Builder
	b.WriteString("Environment:\n")
	for _, v := range Vars {
		if len(names) > 0 && !want[v.Name] {
			continue
		}
		def := ""
		if v.Default != "" {
			def = " (default " + v.Default + ")"
		}
		fmt.Fprintf(&b, "  %-22s %s%s\n", v.Name, v.Help, def)
	}
	return b.String()
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

func alphanumeric(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
