package config_test

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/config"
)

// env is a fake environment for FromEnv.
type env map[string]string

func (e env) get(name string) string { return e[name] }

// with returns a copy of e with the changes applied; an empty value unsets.
func (e env) with(changes env) env {
	out := env{}
	for k, v := range e {
		out[k] = v
	}
	for k, v := range changes {
		if v == "" {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	return out
}

const (
	testSID   = "AC0123456789abcdef0123456789abcdef"
	testToken = "f00dfeedf00dfeedf00dfeedf00dfeed"
	testKey   = "AIzaSyA-munshi-test-key-0123456789abcd"
	smtpPass  = "s3cret-mail-pass"
)

// full is a complete, valid production configuration.
var full = env{
	"MUNSHI_ADDR":          "0.0.0.0:8080",
	"MUNSHI_DB":            "/var/lib/munshi/munshi.db",
	"MUNSHI_PUBLIC_URL":    "https://munshi.example.com",
	"MUNSHI_BUDGET":        "10s",
	"MUNSHI_LOG_LEVEL":     "debug",
	"REDIS_URL":            "redis://127.0.0.1:6379/0",
	"TWILIO_ACCOUNT_SID":   testSID,
	"TWILIO_AUTH_TOKEN":    testToken,
	"TWILIO_WHATSAPP_FROM": "whatsapp:+14155238886",
	"TWILIO_API_URL":       "http://127.0.0.1:9999",
	"SMTP_URL":             "smtp://munshi:" + smtpPass + "@mail.example.com:587",
	"MAIL_FROM":            "munshi@example.com",
	"ACCOUNTS_EMAIL":       "accounts@example.com, ca@example.com",
	"GEMINI_API_KEY":       testKey,
	"GEMINI_MODEL":         "gemini-2.5-flash",
	"GEMINI_BASE_URL":      "http://127.0.0.1:9998",
}

// problems splits a Validate error into its lines.
func problems(err error) []string {
	if err == nil {
		return nil
	}
	return strings.Split(err.Error(), "\n")
}

func TestFromEnvDefaults(t *testing.T) {
	c := config.FromEnv(env{}.get)
	if c.Addr != "127.0.0.1:8080" {
		t.Errorf("Addr = %q, want 127.0.0.1:8080", c.Addr)
	}
	if c.DB != "munshi.db" {
		t.Errorf("DB = %q, want munshi.db", c.DB)
	}
	if c.Budget != 12*time.Second {
		t.Errorf("Budget = %v, want 12s", c.Budget)
	}
	if c.LogLevel != "info" {
		t.Errorf("LogLevel = %q, want info", c.LogLevel)
	}
	if c.GeminiModel != "gemini-2.5-flash-lite" {
		t.Errorf("GeminiModel = %q, want the default model", c.GeminiModel)
	}
	if c.MaxAdvance != 5000000 {
		t.Errorf("MaxAdvance = %v, want ₹50,000", c.MaxAdvance)
	}
	for name, v := range map[string]string{
		"PublicURL": c.PublicURL, "RedisURL": c.RedisURL, "TwilioAccountSID": c.TwilioAccountSID,
		"TwilioAuthToken": c.TwilioAuthToken, "TwilioWhatsAppFrom": c.TwilioWhatsAppFrom,
		"TwilioAPIURL": c.TwilioAPIURL, "SMTPURL": c.SMTPURL, "MailFrom": c.MailFrom,
		"AccountsEmail": c.AccountsEmail, "GeminiAPIKey": c.GeminiAPIKey, "GeminiBaseURL": c.GeminiBaseURL,
	} {
		if v != "" {
			t.Errorf("%s = %q with nothing set, want empty", name, v)
		}
	}
	// The offline demo runs with nothing set, so the defaults must be valid.
	if err := c.Validate(); err != nil {
		t.Errorf("Validate() of the defaults: %v", err)
	}
	if !c.Loopback() {
		t.Errorf("the default address %q should listen on loopback only", c.Addr)
	}
	if len(c.Secrets()) != 0 {
		t.Errorf("Secrets() with nothing set = %q, want none", c.Secrets())
	}
}

func TestTimeZone(t *testing.T) {
	c := config.FromEnv(env{}.get)
	if c.Location == nil {
		t.Fatal("no time zone by default")
	}
	// 18:30 UTC is midnight of the next day in Kolkata.
	if got := time.Date(2026, 3, 13, 18, 30, 0, 0, time.UTC).In(c.Location).Format("2006-01-02 15:04"); got != "2026-03-14 00:00" {
		t.Errorf("default zone puts 18:30 UTC at %s, want Kolkata's midnight", got)
	}
	c = config.FromEnv(env{"MUNSHI_TZ": "Europe/London"}.get)
	if c.Location == nil || c.Location.String() != "Europe/London" {
		t.Errorf("MUNSHI_TZ=Europe/London gave %v", c.Location)
	}
}

func TestFromEnvReadsEveryVariable(t *testing.T) {
	c := config.FromEnv(full.with(env{
		"MUNSHI_PUBLIC_URL":  "  https://munshi.example.com/  ",
		"TWILIO_API_URL":     "http://127.0.0.1:9999/",
		"MUNSHI_LOG_LEVEL":   "WARN",
		"MUNSHI_MAX_ADVANCE": "2,00,000",
	}).get)
	// Field by field, so that variables added later do not break this test.
	for _, f := range []struct{ name, got, want string }{
		{"Addr", c.Addr, "0.0.0.0:8080"},
		{"DB", c.DB, "/var/lib/munshi/munshi.db"},
		{"PublicURL", c.PublicURL, "https://munshi.example.com"},
		{"RedisURL", c.RedisURL, "redis://127.0.0.1:6379/0"},
		{"TwilioAccountSID", c.TwilioAccountSID, testSID},
		{"TwilioAuthToken", c.TwilioAuthToken, testToken},
		{"TwilioWhatsAppFrom", c.TwilioWhatsAppFrom, "whatsapp:+14155238886"},
		{"TwilioAPIURL", c.TwilioAPIURL, "http://127.0.0.1:9999"},
		{"SMTPURL", c.SMTPURL, "smtp://munshi:" + smtpPass + "@mail.example.com:587"},
		{"MailFrom", c.MailFrom, "munshi@example.com"},
		{"AccountsEmail", c.AccountsEmail, "accounts@example.com, ca@example.com"},
		{"GeminiAPIKey", c.GeminiAPIKey, testKey},
		{"GeminiModel", c.GeminiModel, "gemini-2.5-flash"},
		{"GeminiBaseURL", c.GeminiBaseURL, "http://127.0.0.1:9998"},
		{"Budget", c.Budget.String(), "10s"},
		{"LogLevel", c.LogLevel, "warn"},
		{"MaxAdvance", c.MaxAdvance.String(), "₹2,00,000"},
	} {
		if f.got != f.want {
			t.Errorf("%s = %q, want %q", f.name, f.got, f.want)
		}
	}
	if got, wantMails := c.AccountsEmails(), []string{"accounts@example.com", "ca@example.com"}; !slices.Equal(got, wantMails) {
		t.Errorf("AccountsEmails() = %q, want %q", got, wantMails)
	}
}

func TestFromEnvNilUsesProcessEnvironment(t *testing.T) {
	t.Setenv("MUNSHI_ADDR", "127.0.0.1:9090")
	t.Setenv("MUNSHI_DB", "")
	c := config.FromEnv(nil)
	if c.Addr != "127.0.0.1:9090" {
		t.Errorf("Addr = %q, want the process environment's 127.0.0.1:9090", c.Addr)
	}
	if c.DB != "munshi.db" {
		t.Errorf("DB = %q, want the default for an empty variable", c.DB)
	}
}

func TestValidateFullConfig(t *testing.T) {
	if err := config.FromEnv(full.get).Validate(); err != nil {
		t.Fatalf("Validate() of a complete configuration: %v", err)
	}
	// Twilio alone (no mail, no Redis, no Gemini) is a valid setup too.
	twilioOnly := env{
		"MUNSHI_PUBLIC_URL":    "https://munshi.example.com",
		"TWILIO_ACCOUNT_SID":   testSID,
		"TWILIO_AUTH_TOKEN":    testToken,
		"TWILIO_WHATSAPP_FROM": "+14155238886",
	}
	if err := config.FromEnv(twilioOnly.get).Validate(); err != nil {
		t.Fatalf("Validate() of a Twilio-only configuration: %v", err)
	}
}

func TestValidateReportsEachProblem(t *testing.T) {
	tests := []struct {
		name    string
		changes env
		want    string // a part of the one message expected
	}{
		{"sid without token", env{"TWILIO_AUTH_TOKEN": ""}, "TWILIO_ACCOUNT_SID is set but TWILIO_AUTH_TOKEN is not"},
		{"token without sid", env{"TWILIO_ACCOUNT_SID": ""}, "TWILIO_AUTH_TOKEN is set but TWILIO_ACCOUNT_SID is not"},
		{"token without public url", env{"MUNSHI_PUBLIC_URL": ""}, "TWILIO_AUTH_TOKEN is set but MUNSHI_PUBLIC_URL is not"},
		{"sid without sender", env{"TWILIO_WHATSAPP_FROM": ""}, "TWILIO_ACCOUNT_SID is set but TWILIO_WHATSAPP_FROM is not"},
		{"sid of the wrong shape", env{"TWILIO_ACCOUNT_SID": "MG0123456789abcdef0123456789abcdef"}, "TWILIO_ACCOUNT_SID must start with AC"},
		{"addr without port", env{"MUNSHI_ADDR": "localhost"}, `MUNSHI_ADDR "localhost" must be host:port`},
		{"addr of garbage", env{"MUNSHI_ADDR": "munshi"}, `MUNSHI_ADDR "munshi" must be host:port`},
		{"budget beyond Twilio's wait", env{"MUNSHI_BUDGET": "20s"}, "MUNSHI_BUDGET must be a duration above 0 and at most 14s"},
		{"budget of exactly Twilio's wait", env{"MUNSHI_BUDGET": "15s"}, "MUNSHI_BUDGET must be a duration above 0 and at most 14s"},
		{"budget not a duration", env{"MUNSHI_BUDGET": "abc"}, "MUNSHI_BUDGET must be a duration above 0 and at most 14s"},
		{"budget without unit", env{"MUNSHI_BUDGET": "12"}, "MUNSHI_BUDGET must be a duration above 0 and at most 14s"},
		{"budget zero", env{"MUNSHI_BUDGET": "0s"}, "MUNSHI_BUDGET must be a duration above 0 and at most 14s"},
		{"budget negative", env{"MUNSHI_BUDGET": "-3s"}, "MUNSHI_BUDGET must be a duration above 0 and at most 14s"},
		{"time zone unknown", env{"MUNSHI_TZ": "Mars/Olympus"}, `MUNSHI_TZ "Mars/Olympus" must be a time zone name`},
		{"log level unknown", env{"MUNSHI_LOG_LEVEL": "verbose"}, `MUNSHI_LOG_LEVEL "verbose" must be debug, info, warn or error`},
		{"max advance not an amount", env{"MUNSHI_MAX_ADVANCE": "1 lakh"}, `MUNSHI_MAX_ADVANCE "1 lakh" must be an amount in rupees`},
		{"max advance negative", env{"MUNSHI_MAX_ADVANCE": "-5000"}, `MUNSHI_MAX_ADVANCE "-5000" must be an amount in rupees`},
		{"db pool not a number", env{"MUNSHI_DB_POOL": "many"}, `MUNSHI_DB_POOL "many" must be a number of connections from 1 to 500`},
		{"db pool zero", env{"MUNSHI_DB_POOL": "0"}, `MUNSHI_DB_POOL "0" must be a number of connections from 1 to 500`},
		{"db pool huge", env{"MUNSHI_DB_POOL": "100000"}, `MUNSHI_DB_POOL "100000" must be a number of connections from 1 to 500`},
		{"redis url without scheme", env{"REDIS_URL": "127.0.0.1:6379"}, "REDIS_URL must look like redis://"},
		{"redis url of another scheme", env{"REDIS_URL": "http://127.0.0.1:6379"}, "REDIS_URL must look like redis://"},
		{"smtp without mail from", env{"MAIL_FROM": ""}, "SMTP_URL is set but MAIL_FROM is not"},
		{"smtp without accounts email", env{"ACCOUNTS_EMAIL": ""}, "SMTP_URL is set but ACCOUNTS_EMAIL is not"},
		{"smtp url without scheme", env{"SMTP_URL": "mail.example.com:587"}, "SMTP_URL must look like smtp://"},
		{"smtp url of another scheme", env{"SMTP_URL": "https://mail.example.com"}, "SMTP_URL must look like smtp://"},
		{"smtp url without host", env{"SMTP_URL": "smtp:///nohost"}, "SMTP_URL must look like smtp://"},
		{"accounts email without smtp", env{"SMTP_URL": ""}, "ACCOUNTS_EMAIL is set but SMTP_URL is not"},
		{"accounts email not an address", env{"ACCOUNTS_EMAIL": "accounts@example.com, ca-team"}, `ACCOUNTS_EMAIL "ca-team" is not an email address`},
		{"public url without scheme", env{"MUNSHI_PUBLIC_URL": "munshi.example.com"}, `MUNSHI_PUBLIC_URL "munshi.example.com" must be an http(s) URL`},
		{"public url of another scheme", env{"MUNSHI_PUBLIC_URL": "ftp://munshi.example.com"}, `MUNSHI_PUBLIC_URL "ftp://munshi.example.com" must be an http(s) URL`},
		{"twilio api url not a url", env{"TWILIO_API_URL": "fake-twilio"}, `TWILIO_API_URL "fake-twilio" must be an http(s) URL`},
		{"gemini base url without scheme", env{"GEMINI_BASE_URL": "127.0.0.1:9998"}, `GEMINI_BASE_URL "127.0.0.1:9998" must be an http(s) URL`},
		{"sync config missing", env{"MUNSHI_SYNC_CONFIG": "/nonexistent/erp.yaml"}, `MUNSHI_SYNC_CONFIG "/nonexistent/erp.yaml" cannot be read: no such file or directory`},
		{"sync config a directory", env{"MUNSHI_SYNC_CONFIG": os.TempDir()}, "is a directory, not a mapping file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := config.FromEnv(full.with(tt.changes).get).Validate()
			got := problems(err)
			if len(got) != 1 {
				t.Fatalf("Validate() = %q, want exactly one problem containing %q", got, tt.want)
			}
			if !strings.Contains(got[0], tt.want) {
				t.Errorf("Validate() = %q, want it to contain %q", got[0], tt.want)
			}
			if !strings.HasPrefix(got[0], "config: ") {
				t.Errorf("Validate() = %q, want the package prefix \"config: \"", got[0])
			}
		})
	}
}

func TestValidateGeminiKeyNeedsModel(t *testing.T) {
	// GEMINI_MODEL has a default, so only a Config built in code can lack it.
	c := config.FromEnv(full.get)
	c.GeminiModel = ""
	got := problems(c.Validate())
	if len(got) != 1 || !strings.Contains(got[0], "GEMINI_MODEL must name a model when GEMINI_API_KEY is set") {
		t.Errorf("Validate() = %q, want one problem about GEMINI_MODEL", got)
	}
}

func TestValidateReportsAllProblemsAtOnce(t *testing.T) {
	e := env{
		"MUNSHI_ADDR":        "8080",
		"MUNSHI_BUDGET":      "abc",
		"TWILIO_ACCOUNT_SID": testSID,
		"REDIS_URL":          "localhost:6379",
		"SMTP_URL":           "smtp://mail.example.com:587",
	}
	got := problems(config.FromEnv(e.get).Validate())
	want := []string{
		`MUNSHI_ADDR "8080" must be host:port`,
		"MUNSHI_BUDGET must be a duration",
		"TWILIO_ACCOUNT_SID is set but TWILIO_AUTH_TOKEN is not",
		"TWILIO_ACCOUNT_SID is set but TWILIO_WHATSAPP_FROM is not",
		"REDIS_URL must look like",
		"SMTP_URL is set but MAIL_FROM is not",
		"SMTP_URL is set but ACCOUNTS_EMAIL is not",
	}
	if len(got) != len(want) {
		t.Errorf("Validate() reported %d problems, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, w) }) {
			t.Errorf("Validate() does not report %q; it reported:\n%s", w, strings.Join(got, "\n"))
		}
	}
}

func TestValidateNeverPrintsSecrets(t *testing.T) {
	e := full.with(env{
		"MUNSHI_PUBLIC_URL": "",                                   // token without public URL
		"SMTP_URL":          "ftp://munshi:" + smtpPass + "@host", // bad scheme, with a password
		"MAIL_FROM":         "",
		"GEMINI_BASE_URL":   "nope",
	})
	err := config.FromEnv(e.get).Validate()
	if err == nil {
		t.Fatal("Validate() = nil, want problems")
	}
	for _, secret := range []string{testToken, smtpPass, testKey} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("Validate() message shows a secret %q:\n%v", secret, err)
		}
	}
}

func TestSecrets(t *testing.T) {
	c := config.FromEnv(full.get)
	got := c.Secrets()
	for _, want := range []string{testToken, testKey, full["SMTP_URL"], smtpPass} {
		if !slices.Contains(got, want) {
			t.Errorf("Secrets() = %q, missing %q", got, want)
		}
	}
	for _, notSecret := range []string{testSID, "munshi", "mail.example.com"} {
		if slices.Contains(got, notSecret) {
			t.Errorf("Secrets() = %q, includes the non-secret %q", got, notSecret)
		}
	}

	// A percent-encoded password is listed as the server will receive it.
	c = config.Config{SMTPURL: "smtps://munshi:p%40ss%2Fword@mail.example.com:465"}
	if got := c.Secrets(); !slices.Contains(got, "p@ss/word") {
		t.Errorf("Secrets() = %q, want the decoded SMTP password p@ss/word", got)
	}
	// A PostgreSQL password is a secret; the rest of the address is not.
	c = config.Config{DB: "postgres://munshi:pg%21pass@db.example:5432/books"}
	if got := c.Secrets(); !slices.Equal(got, []string{"pg!pass"}) {
		t.Errorf("Secrets() = %q, want only the decoded database password", got)
	}
	// An SMTP URL without a password lists only itself.
	c = config.Config{SMTPURL: "smtp://mail.example.com:25"}
	if got := c.Secrets(); !slices.Equal(got, []string{"smtp://mail.example.com:25"}) {
		t.Errorf("Secrets() = %q, want only the URL", got)
	}
}

func TestSecretVarsAreMarked(t *testing.T) {
	secret := map[string]bool{}
	for _, v := range config.Vars {
		secret[v.Name] = v.Secret
	}
	for name, want := range map[string]bool{
		"TWILIO_AUTH_TOKEN": true, "SMTP_URL": true, "GEMINI_API_KEY": true,
		"TWILIO_ACCOUNT_SID": false, "MUNSHI_PUBLIC_URL": false, "MAIL_FROM": false,
	} {
		if secret[name] != want {
			t.Errorf("Vars[%s].Secret = %v, want %v", name, secret[name], want)
		}
	}
}

func TestLoopback(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:0", true},
		{"127.0.0.1:8080", true},
		{"127.1.2.3:8080", true},
		{"[::1]:8080", true},
		{"localhost:8080", true},
		{"0.0.0.0:8080", false},
		{"[::]:8080", false},
		{":8080", false},
		{"192.168.1.20:8080", false},
		{"munshi.example.com:8080", false},
		{"127.0.0.1", false}, // not host:port at all
	}
	for _, tt := range tests {
		if got := (config.Config{Addr: tt.addr}).Loopback(); got != tt.want {
			t.Errorf("Loopback(%q) = %v, want %v", tt.addr, got, tt.want)
		}
	}
}

func TestUsageListsTheContract(t *testing.T) {
	u := config.Usage()
	contract := []string{
		"MUNSHI_ADDR", "MUNSHI_DB", "MUNSHI_PUBLIC_URL", "REDIS_URL",
		"TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_WHATSAPP_FROM", "TWILIO_API_URL",
		"SMTP_URL", "MAIL_FROM", "ACCOUNTS_EMAIL",
		"GEMINI_API_KEY", "GEMINI_MODEL", "GEMINI_BASE_URL",
	}
	lines := strings.Split(u, "\n")
	for _, name := range contract {
		if !slices.ContainsFunc(lines, func(l string) bool {
			f := strings.Fields(l)
			return len(f) > 1 && f[0] == name
		}) {
			t.Errorf("Usage() has no line for %s:\n%s", name, u)
		}
	}
	for _, def := range []string{"(default 127.0.0.1:8080)", "(default munshi.db)", "(default 12s)"} {
		if !strings.Contains(u, def) {
			t.Errorf("Usage() does not show %s:\n%s", def, u)
		}
	}
	// Every declared variable appears, and only once.
	for _, v := range config.Vars {
		if n := strings.Count(u, v.Name+" "); n != 1 {
			t.Errorf("Usage() mentions %s %d times, want 1", v.Name, n)
		}
		if v.Help == "" {
			t.Errorf("Vars[%s] has no help text", v.Name)
		}
	}
}

func TestRetention(t *testing.T) {
	c := config.FromEnv(env{}.get)
	if c.Retention != 90*24*time.Hour || c.AuditRetention != 730*24*time.Hour {
		t.Fatalf("default retentions = %v, %v; want 90 and 730 days", c.Retention, c.AuditRetention)
	}
	c = config.FromEnv(env{"MUNSHI_RETENTION": "36h", "MUNSHI_AUDIT_RETENTION": "400d"}.get)
	if err := c.Validate(); err != nil || c.Retention != 36*time.Hour || c.AuditRetention != 400*24*time.Hour {
		t.Fatalf("36h and 400d = %v, %v, %v", c.Retention, c.AuditRetention, err)
	}
	for _, tt := range []struct {
		changes env
		want    string
	}{
		{env{"MUNSHI_RETENTION": "90"}, `MUNSHI_RETENTION "90" must be a number of days such as 90d`},
		{env{"MUNSHI_RETENTION": "ninety days"}, `MUNSHI_RETENTION "ninety days" must be a number of days`},
		{env{"MUNSHI_RETENTION": "-5d"}, `MUNSHI_RETENTION "-5d" must be a number of days`},
		{env{"MUNSHI_RETENTION": "0d"}, `MUNSHI_RETENTION "0d" must be`},
		{env{"MUNSHI_RETENTION": "12h"}, "of at least 1d"},
		{env{"MUNSHI_RETENTION": "९०d"}, `MUNSHI_RETENTION "९०d" must be`},
		{env{"MUNSHI_RETENTION": "99999999999999d"}, `MUNSHI_RETENTION "99999999999999d" must be`},
		{env{"MUNSHI_AUDIT_RETENTION": "1.5d"}, `MUNSHI_AUDIT_RETENTION "1.5d" must be a number of days such as 730d`},
		{env{"MUNSHI_AUDIT_RETENTION": "30d"}, "MUNSHI_AUDIT_RETENTION (30d) must not be shorter than MUNSHI_RETENTION (90d)"},
		{env{"MUNSHI_RETENTION": "800d"}, "MUNSHI_AUDIT_RETENTION (730d) must not be shorter than MUNSHI_RETENTION (800d)"},
	} {
		got := problems(config.FromEnv(full.with(tt.changes).get).Validate())
		if len(got) != 1 || !strings.Contains(got[0], tt.want) {
			t.Errorf("%v: Validate() = %q, want one problem containing %q", tt.changes, got, tt.want)
		}
	}
	u := config.Usage()
	for _, want := range []string{"MUNSHI_RETENTION", "(default 90d)", "MUNSHI_AUDIT_RETENTION", "(default 730d)"} {
		if !strings.Contains(u, want) {
			t.Errorf("serve --help does not show %s", want)
		}
	}
}

func TestParseRetention(t *testing.T) {
	for in, want := range map[string]time.Duration{"1d": 24 * time.Hour, "90d": 90 * 24 * time.Hour, "2160h": 90 * 24 * time.Hour, "1h30m": 90 * time.Minute} {
		if got, err := config.ParseRetention(in); err != nil || got != want {
			t.Errorf("ParseRetention(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "d", "90", "-1d", "0h", "1w", "d90", "9 0d", "+-1d"} {
		if _, err := config.ParseRetention(in); err == nil {
			t.Errorf("ParseRetention(%q) accepted", in)
		}
	}
}

func TestTimeZoneValidated(t *testing.T) {
	if loc := config.FromEnv(env{}.get).Location; loc.String() != "Asia/Kolkata" && loc.String() != "IST" {
		t.Errorf("default Location = %v, want Asia/Kolkata", loc)
	}
	c := config.FromEnv(env{"MUNSHI_TZ": "Asia/Dubai"}.get)
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, c.Location)
	if _, off := at.Zone(); off != 4*3600 {
		t.Errorf("Asia/Dubai offset %d, want 4h", off)
	}
	bad := config.FromEnv(env{"MUNSHI_TZ": "Mars/Olympus"}.get)
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "MUNSHI_TZ") {
		t.Errorf("Validate(Mars/Olympus) = %v", err)
	}
}

// durationVar checks a duration variable: its default, a good value
// read, and each bad one refused alone with a message naming it.
func durationVar(t *testing.T, name string, field func(config.Config) time.Duration, def time.Duration, good string, bads ...string) {
	t.Helper()
	if got := field(config.FromEnv(env{}.get)); got != def {
		t.Fatalf("default %s = %v, want %v", name, got, def)
	}
	c := config.FromEnv(full.with(env{name: good}).get)
	want, _ := time.ParseDuration(good)
	if err := c.Validate(); err != nil || field(c) != want {
		t.Fatalf("%s=%s: %v, %v", name, good, field(c), err)
	}
	for _, bad := range bads {
		got := problems(config.FromEnv(full.with(env{name: bad}).get).Validate())
		if len(got) != 1 || !strings.Contains(got[0], name+` "`+bad+`" must be a duration`) {
			t.Errorf("%s=%q: Validate() = %q", name, bad, got)
		}
	}
}

func TestMediaTTL(t *testing.T) {
	durationVar(t, "MUNSHI_MEDIA_TTL", func(c config.Config) time.Duration { return c.MediaTTL }, time.Hour,
		"20m", "1", "an hour", "-1h", "30s", "200h")
	if u := config.Usage(); !strings.Contains(u, "MUNSHI_MEDIA_TTL") || !strings.Contains(u, "(default 1h)") {
		t.Error("serve --help does not show MUNSHI_MEDIA_TTL and its default")
	}
}

func TestOutboxLease(t *testing.T) {
	durationVar(t, "MUNSHI_OUTBOX_LEASE", func(c config.Config) time.Duration { return c.OutboxLease }, time.Minute,
		"5s", "5", "a minute", "-1m", "1s", "2h")
}
