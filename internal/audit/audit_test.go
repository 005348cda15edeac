package audit_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/store"
)

const (
	twilioToken = "f00dfeedf00dfeedf00dfeedf00dfeed"
	geminiKey   = "AIzaSyDmunshiTestKey_0123456789abcdefgh" // AIza + 35 characters
	mailPass    = "hunter2-mail"
)

func openStore(t *testing.T) store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "munshi.db"))
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// syncBuffer is a log destination safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newLog(store audit.Appender, secrets ...string) (*audit.Log, *syncBuffer) {
	var buf syncBuffer
	return audit.New(store, secrets, slog.New(slog.NewTextHandler(&buf, nil))), &buf
}

func TestRecordWritesEntries(t *testing.T) {
	store := openStore(t)
	log, logs := newLog(store, twilioToken)
	ctx := context.Background()

	log.Record(ctx, "+919810000001", audit.KindInbound, "SM0001", map[string]any{
		"role": "sales", "body": "5 carton glass cleaner aur 10 pack phenyl for Rajesh, COD", "media": 0,
	})
	log.Record(ctx, "+919810000001", audit.KindDecision, "SM0001", map[string]any{
		"intent": "order", "tier": "rules", "confidence": 0.97,
	})
	log.Record(ctx, "system", audit.KindOutbound, "SM0002", map[string]any{"outcome": "sent", "attempt": 1})

	all, err := store.AuditEntries(ctx, "")
	if err != nil {
		t.Fatalf("AuditEntries: %v", err)
	}
	if len(all) != 3 {
		t.Fatalf("got %d entries, want 3", len(all))
	}
	first := all[0]
	if first.Actor != "+919810000001" || first.Kind != audit.KindInbound || first.Subject != "SM0001" {
		t.Errorf("first entry = %+v, want the inbound message of +919810000001", first)
	}
	if first.At.IsZero() {
		t.Error("entry has no time")
	}
	wantDetail := map[string]any{
		"role": "sales", "body": "5 carton glass cleaner aur 10 pack phenyl for Rajesh, COD", "media": float64(0),
	}
	if !reflect.DeepEqual(first.Detail, wantDetail) {
		t.Errorf("detail = %#v, want %#v", first.Detail, wantDetail)
	}
	if got := all[1].Detail["confidence"]; got != 0.97 {
		t.Errorf("confidence = %v, want 0.97 kept as a number", got)
	}

	decisions, err := store.AuditEntries(ctx, audit.KindDecision)
	if err != nil {
		t.Fatalf("AuditEntries(decision): %v", err)
	}
	if len(decisions) != 1 || decisions[0].Detail["intent"] != "order" {
		t.Errorf("decision entries = %+v, want the one routing decision", decisions)
	}
	if logs.String() != "" {
		t.Errorf("successful writes logged: %s", logs)
	}
}

func TestRecordNilDetail(t *testing.T) {
	store := openStore(t)
	log, _ := newLog(store)
	log.Record(context.Background(), "cli", audit.KindImport, "catalog", nil)

	all, err := store.AuditEntries(context.Background(), audit.KindImport)
	if err != nil {
		t.Fatalf("AuditEntries: %v", err)
	}
	if len(all) != 1 {
		t.Fatalf("got %d entries, want 1", len(all))
	}
	if all[0].Detail == nil || len(all[0].Detail) != 0 {
		t.Errorf("detail = %#v, want an empty object", all[0].Detail)
	}
}

func TestRecordOutlivesCancelledContext(t *testing.T) {
	store := openStore(t)
	log, logs := newLog(store)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the request that caused the entry is already over
	log.Record(ctx, "+919810000001", audit.KindRefusal, "SM0009", map[string]any{"reason": "unknown sender"})

	all, err := store.AuditEntries(context.Background(), audit.KindRefusal)
	if err != nil {
		t.Fatalf("AuditEntries: %v", err)
	}
	if len(all) != 1 {
		t.Errorf("got %d refusal entries after a cancelled request, want 1 (logs: %s)", len(all), logs)
	}
}

type failingStore struct{}

func (failingStore) AppendAudit(context.Context, ...audit.Entry) error {
	return errors.New("sqlite: audit: disk I/O error")
}

func TestRecordLogsFailureInsteadOfReturning(t *testing.T) {
	log, logs := newLog(failingStore{})
	log.Record(context.Background(), "system", audit.KindOutbound, "SM0003", map[string]any{"outcome": "sent"})
	if !strings.Contains(logs.String(), "audit: write failed") || !strings.Contains(logs.String(), "disk I/O error") {
		t.Errorf("log = %q, want the failed write reported", logs)
	}
}

// capture keeps what reaches the store, to see exactly what was written.
type capture struct {
	mu      sync.Mutex
	entries []audit.Entry
}

func (c *capture) AppendAudit(_ context.Context, es ...audit.Entry) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = append(c.entries, es...)
	return nil
}

func TestRedactConfiguredSecrets(t *testing.T) {
	log, _ := newLog(nil, twilioToken, geminiKey)
	in := map[string]any{
		"error": "twilio: send: status 401 with token " + twilioToken + " rejected",
		"nested": map[string]any{
			"note":   "key=" + geminiKey + "&alt=json",
			"deeper": map[string]any{"text": "x" + twilioToken + "y"},
		},
		"list":    []any{"plain", "tok " + twilioToken, map[string]any{"k": twilioToken}, 42},
		"strings": []string{"first", twilioToken},
		"count":   3,
		"ok":      true,
	}
	got := log.Redact(in)
	want := map[string]any{
		"error": "twilio: send: status 401 with token [redacted] rejected",
		"nested": map[string]any{
			"note":   "key=[redacted]&alt=json",
			"deeper": map[string]any{"text": "x[redacted]y"},
		},
		"list":    []any{"plain", "tok [redacted]", map[string]any{"k": "[redacted]"}, 42},
		"strings": []string{"first", "[redacted]"},
		"count":   3,
		"ok":      true,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Redact() =\n%#v\nwant\n%#v", got, want)
	}
	// The caller's map is left as it was.
	if in["error"] != "twilio: send: status 401 with token "+twilioToken+" rejected" ||
		in["strings"].([]string)[1] != twilioToken {
		t.Errorf("Redact modified its input: %#v", in)
	}
}

func TestRedactKeys(t *testing.T) {
	log, _ := newLog(nil)
	in := map[string]any{
		"auth_token":         "anything at all",
		"Authorization":      "Digest username=munshi",
		"password":           "open sesame",
		"smtp_passwd":        "x",
		"X-Twilio-Signature": "0/KCTR6DLpKmkAf8muzZqo1nDgQ=",
		"api_key":            12345,
		"apiKey":             "k",
		"client_secret":      map[string]any{"anything": "inside"},
		"Credentials":        []any{"a", "b"},
		"headers":            map[string]any{"Authorization": "Digest x", "Accept": "application/json"},
		"calls":              []any{map[string]any{"access_token": "abc", "tool": "stock"}},
		"sku":                "GC500",
	}
	got := log.Redact(in)
	want := map[string]any{
		"auth_token":         audit.Redacted,
		"Authorization":      audit.Redacted,
		"password":           audit.Redacted,
		"smtp_passwd":        audit.Redacted,
		"X-Twilio-Signature": audit.Redacted,
		"api_key":            audit.Redacted,
		"apiKey":             audit.Redacted,
		"client_secret":      audit.Redacted,
		"Credentials":        audit.Redacted,
		"headers":            map[string]any{"Authorization": audit.Redacted, "Accept": "application/json"},
		"calls":              []any{map[string]any{"access_token": audit.Redacted, "tool": "stock"}},
		"sku":                "GC500",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Redact() =\n%#v\nwant\n%#v", got, want)
	}
}

func TestRedactStringShapes(t *testing.T) {
	basic := base64.StdEncoding.EncodeToString([]byte(testAccountSID + ":" + twilioToken))
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	plain := b64("\x00munshi@distributor.example\x00" + mailPass)
	user, pass := b64("munshi@distributor.example"), b64(mailPass)
	xoauth := b64("user=munshi@distributor.example\x01auth=Bearer ya29.munshi-oauth-token\x01\x01")
	log, _ := newLog(nil) // no configured secrets: only shapes
	tests := []struct {
		name, in string
		gone     []string // must not survive
		kept     []string // must survive
	}{
		{"google api key", "gemini: 400 for key " + geminiKey + " (invalid)", []string{geminiKey}, []string{"gemini: 400 for key", "(invalid)"}},
		{"google api key in a url", "GET https://generativelanguage.googleapis.com/v1beta/models?key=" + geminiKey, []string{geminiKey}, []string{"https://generativelanguage.googleapis.com"}},
		{"bearer header", "Authorization: Bearer ya29.a0AfH6SMBx-munshi_token", []string{"ya29.a0AfH6SMBx-munshi_token"}, []string{"Authorization:"}},
		{"bearer lowercase", "sent with bearer abcdefgh12345678", []string{"abcdefgh12345678"}, []string{"sent with"}},
		{"basic header", "Authorization: Basic " + basic, []string{basic}, []string{"Authorization:"}},
		{"smtp url password", "dial smtp://munshi:" + mailPass + "@mail.example.com:587: timeout", []string{mailPass}, []string{"mail.example.com:587: timeout"}},
		{"smtps url password", "smtps://accounts%40example.com:" + mailPass + "@smtp.example.com:465", []string{mailPass}, []string{"smtp.example.com:465"}},
		{"redis url password", "redis: dial redis://default:" + mailPass + "@127.0.0.1:6379/0", []string{mailPass}, []string{"127.0.0.1:6379/0"}},
		{"redis url password without user", "redis: dial redis://:" + mailPass + "@127.0.0.1:6379/0", []string{mailPass}, []string{"127.0.0.1:6379/0"}},
		{"provider secret key", "key sk-proj-0123456789abcdefXYZ", []string{"sk-proj-0123456789abcdefXYZ"}, []string{"key "}},
		{"smtp server echoing AUTH PLAIN", "mail: send: dial failed: SMTP AUTH failed: 535 5.7.8 AUTH PLAIN " + plain + " rejected",
			[]string{plain}, []string{"AUTH PLAIN", "535 5.7.8", "rejected"}},
		{"AUTH PLAIN in lower case", "auth plain " + plain, []string{plain}, []string{"auth plain"}},
		{"AUTH PLAIN blob on the next line", "C: AUTH PLAIN\r\nS: 334 \r\nC: " + plain + "\r\nS: 535 5.7.8 no",
			[]string{plain}, []string{"AUTH PLAIN", "535 5.7.8 no"}},
		{"a PLAIN blob anywhere", "the last step sent " + plain + ", then the server hung up", []string{plain}, []string{"then the server hung up"}},
		{"AUTH LOGIN with both steps inline", "AUTH LOGIN " + user + " " + pass + " failed", []string{user, pass}, []string{"AUTH LOGIN", "failed"}},
		{"AUTH LOGIN transcript", "C: AUTH LOGIN\nS: 334 VXNlcm5hbWU6\nC: " + user + "\nS: 334 UGFzc3dvcmQ6\nC: " + pass +
			"\nS: 535 5.7.8 Authentication credentials invalid", []string{user, pass}, []string{"535 5.7.8 Authentication credentials invalid"}},
		{"XOAUTH2 initial response", "AUTH XOAUTH2 " + xoauth + " -> 535", []string{xoauth}, []string{"AUTH XOAUTH2", "-> 535"}},
		{"OAUTHBEARER initial response", "oauthbearer " + xoauth, []string{xoauth}, []string{"oauthbearer"}},
		{"unicode credentials in a PLAIN blob", "535 लॉगिन विफल: AUTH PLAIN " + b64("\x00मुंशी\x00पासवर्ड🔑") + " ❌",
			[]string{b64("\x00मुंशी\x00पासवर्ड🔑")}, []string{"535 लॉगिन विफल: AUTH PLAIN", "❌"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := log.RedactString(tt.in)
			if !strings.Contains(got, audit.Redacted) {
				t.Errorf("RedactString(%q) = %q, want a redaction", tt.in, got)
			}
			for _, g := range tt.gone {
				if strings.Contains(got, g) {
					t.Errorf("RedactString(%q) = %q, still shows %q", tt.in, got, g)
				}
			}
			for _, k := range tt.kept {
				if !strings.Contains(got, k) {
					t.Errorf("RedactString(%q) = %q, lost %q", tt.in, got, k)
				}
			}
		})
	}
}

const testAccountSID = "AC0123456789abcdef0123456789abcdef"

func TestRedactLeavesOrdinaryTextAlone(t *testing.T) {
	// Configured secrets include short values that would mangle words.
	log, _ := newLog(nil, twilioToken, "GC", "abc", "", "a1")
	for _, s := range []string{
		"5 carton glass cleaner aur 10 pack phenyl for Rajesh, COD",
		"book 10 box GC500 for Sharma Traders",
		"please send a token amount of ₹500 as advance",
		"my password is not something I share on WhatsApp",
		"secret recipe masala, 4 bags",
		"basic cleaning kit 10 pack",
		"Basic Detergent Powder 1kg x 20",
		"keyboard, monkey, tokenisation, bearer cheque",
		"GC ka stock kitna hai? abc traders ka outstanding batao",
		"smtp is down, try later",
		"https://munshi.example.com/media/0f3a9c",
		"AIza is not a key by itself",
		"mail: dial failed: SMTP AUTH failed: 535 5.7.8 Authentication credentials invalid",
		"AUTH LOGIN failed: 454 temporary failure",
		"AUTH PLAIN mechanism not supported",
		"AUTH LOGIN rejected, password expired",
		"plain phenyl 5 ltr, xoauth2 not configured",
		"AUTH PLAIN मेरा पासवर्ड नहीं भेजा 🙏",
		"AUTH LOGIN " + strings.Repeat("ग", 5000),
		"sk-short",
		"",
	} {
		if got := log.RedactString(s); got != s {
			t.Errorf("RedactString(%q) = %q, want it unchanged", s, got)
		}
	}
	// Ordinary keys are not mistaken for secret ones.
	in := map[string]any{"body": "x", "book": "y", "keyword": "z", "monkey": "m", "sku": "GC500"}
	if got := log.Redact(in); !reflect.DeepEqual(got, in) {
		t.Errorf("Redact(%v) = %v, want it unchanged", in, got)
	}
}

func TestRedactOtherTypes(t *testing.T) {
	log, _ := newLog(nil, twilioToken)
	type call struct {
		Tool      string `json:"tool"`
		AuthToken string `json:"auth_token"`
		Note      string `json:"note"`
	}
	in := map[string]any{
		"headers": map[string]string{"Authorization": "Digest username=munshi", "Accept": "*/*"},
		"form":    map[string][]string{"Body": {"hello"}, "Password": {"x"}},
		"calls":   []map[string]any{{"api_key": "k", "tool": "stock"}},
		"call":    call{Tool: "outstanding", AuthToken: "t", Note: "with " + twilioToken},
		"urls":    [2]string{"https://munshi.example.com/media/1", "smtp://u:" + mailPass + "@h:25"},
		"qty":     int64(120),
	}
	got := log.Redact(in)
	for _, leak := range []string{"Digest username=munshi", twilioToken, mailPass} {
		if strings.Contains(flatten(got), leak) {
			t.Errorf("Redact() = %#v, still shows %q", got, leak)
		}
	}
	for _, keep := range []string{"*/*", "hello", "stock", "outstanding", "https://munshi.example.com/media/1"} {
		if !strings.Contains(flatten(got), keep) {
			t.Errorf("Redact() = %#v, lost %q", got, keep)
		}
	}
	if got["qty"] != int64(120) {
		t.Errorf("qty = %#v, want the number kept", got["qty"])
	}
}

// flatten renders every key and value of a detail, however deep, as text.
func flatten(m map[string]any) string {
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Map:
			for _, k := range rv.MapKeys() {
				fmt.Fprintf(&b, "%v=", k.Interface())
				walk(rv.MapIndex(k).Interface())
			}
		case reflect.Slice, reflect.Array:
			for i := range rv.Len() {
				walk(rv.Index(i).Interface())
			}
		case reflect.Struct:
			for i := range rv.NumField() {
				walk(rv.Field(i).Interface())
			}
		default:
			fmt.Fprintf(&b, "%v ", v)
		}
	}
	walk(m)
	return b.String()
}

func TestRecordRedactsBeforeStoring(t *testing.T) {
	cfg := config.Config{
		TwilioAuthToken: twilioToken,
		GeminiAPIKey:    geminiKey,
		SMTPURL:         "smtp://munshi:" + mailPass + "@mail.example.com:587",
	}
	store := openStore(t)
	log, _ := newLog(store, cfg.Secrets()...)
	ctx := context.Background()
	log.Record(ctx, "system", audit.KindOutbound, "to "+twilioToken, map[string]any{
		"error":    "mail: auth failed for password " + mailPass,
		"auth":     map[string]any{"Authorization": "Basic whatever"},
		"sent_via": "smtp://munshi:" + mailPass + "@mail.example.com:587",
		"body":     "Order O-1042 for Rajesh approved: 5 carton GC500",
	})
	all, err := store.AuditEntries(ctx, "")
	if err != nil || len(all) != 1 {
		t.Fatalf("AuditEntries = %v, %v; want one entry", all, err)
	}
	e := all[0]
	for _, secret := range []string{twilioToken, mailPass, geminiKey, "Basic whatever"} {
		if strings.Contains(e.Subject, secret) || strings.Contains(flatten(e.Detail), secret) {
			t.Errorf("stored entry shows %q: subject %q, detail %#v", secret, e.Subject, e.Detail)
		}
	}
	if e.Subject != "to "+audit.Redacted {
		t.Errorf("subject = %q, want the token redacted", e.Subject)
	}
	if e.Detail["body"] != "Order O-1042 for Rajesh approved: 5 carton GC500" {
		t.Errorf("body = %q, want the business text unchanged", e.Detail["body"])
	}
}

func TestRecordConcurrently(t *testing.T) {
	c := &capture{}
	log, _ := newLog(c, twilioToken)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			log.Record(context.Background(), "system", audit.KindDelivery, "SM", map[string]any{"n": i, "t": twilioToken})
		}()
	}
	wg.Wait()
	if len(c.entries) != 20 {
		t.Fatalf("got %d entries, want 20", len(c.entries))
	}
	for _, e := range c.entries {
		if e.Detail["t"] != audit.Redacted {
			t.Errorf("detail = %v, want the token redacted", e.Detail)
		}
	}
}

func TestRedactKeepsCountsAndSKUs(t *testing.T) {
	l, _ := newLog(nil)
	got := l.Redact(map[string]any{
		"prompt_tokens": 812, "response_tokens": 40, "tokens": 852,
		"sku": "SK-CLEANER-500ML-CARTON-24", "access_token": "abc", "x-api-key": "k1234567",
	})
	if got["prompt_tokens"] != 812 || got["response_tokens"] != 40 || got["tokens"] != 852 {
		t.Fatalf("token counts redacted: %v", got)
	}
	if got["sku"] != "SK-CLEANER-500ML-CARTON-24" {
		t.Fatalf("SKU redacted: %v", got["sku"])
	}
	if got["access_token"] != audit.Redacted || got["x-api-key"] != audit.Redacted {
		t.Fatalf("credentials kept: %v", got)
	}
}
