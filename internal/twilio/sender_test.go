package twilio_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/twilio"
	"github.com/munshi/munshi/internal/twilio/twiliotest"
)

const (
	accountSID = twiliotest.AccountSID
	authToken  = twiliotest.AuthToken
	publicURL  = "https://munshi.example.com"
	sender     = "+14155238886"
)

// twilioError is Twilio's error body.
func twilioError(status, code int, message string) string {
	return twiliotest.Error{Status: status, Code: code, Message: message}.JSON()
}

func newSender(t *testing.T, apiURL string, change func(*twilio.SenderConfig)) *twilio.Sender {
	t.Helper()
	c := twilio.SenderConfig{AccountSID: accountSID, AuthToken: authToken, From: sender, APIURL: apiURL, PublicURL: publicURL}
	if change != nil {
		change(&c)
	}
	s, err := twilio.NewSender(c)
	if err != nil {
		t.Fatalf("NewSender: %v", err)
	}
	return s
}

func TestSendSpeaksTwilio(t *testing.T) {
	fake := twiliotest.Start(t)
	s := newSender(t, fake.URL, func(c *twilio.SenderConfig) { c.PublicURL = publicURL + "/" })

	msg := domain.Outbound{
		To:        "+919810000001",
		Body:      "Order O-1042 approved ✅ — ₹25,000, 5 carton GC500. धन्यवाद",
		MediaURLs: []string{publicURL + "/media/chart-1.png", publicURL + "/media/orders.xlsx"},
	}
	sid, err := s.Send(context.Background(), msg)
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	if sid != twiliotest.MessageSID(1) {
		t.Errorf("Send = %q, want Twilio's SID %q", sid, twiliotest.MessageSID(1))
	}

	reqs := fake.Requests()
	if len(reqs) != 1 {
		t.Fatalf("Twilio got %d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Method != http.MethodPost || r.Path != "/2010-04-01/Accounts/"+accountSID+"/Messages.json" {
		t.Errorf("request = %s %s, want POST to the account's Messages.json", r.Method, r.Path)
	}
	if !strings.HasPrefix(r.ContentType, "application/x-www-form-urlencoded") {
		t.Errorf("Content-Type = %q, want a form", r.ContentType)
	}
	if !r.HasAuth || r.User != accountSID || r.Password != authToken {
		t.Errorf("basic auth = %v %q:%q, want the account SID and auth token", r.HasAuth, r.User, r.Password)
	}
	want := url.Values{
		"To":             {"whatsapp:+919810000001"},
		"From":           {"whatsapp:" + sender},
		"Body":           {msg.Body},
		"MediaUrl":       msg.MediaURLs,
		"StatusCallback": {publicURL + "/webhook/twilio/status"},
	}
	if !equalForms(r.Form, want) {
		t.Errorf("form = %v\nwant %v", r.Form, want)
	}
}

func equalForms(a, b url.Values) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

func TestSendOptionalFields(t *testing.T) {
	fake := twiliotest.Start(t)
	// A sender already in channel form, no public URL and no media.
	s := newSender(t, fake.URL, func(c *twilio.SenderConfig) { c.From = "whatsapp:" + sender; c.PublicURL = "" })
	if _, err := s.Send(context.Background(), domain.Outbound{To: "whatsapp:+919810000002", Body: "GC500: 2,400 bottles ready"}); err != nil {
		t.Fatalf("Send: %v", err)
	}
	r := fake.Requests()[0]
	want := url.Values{
		"To":   {"whatsapp:+919810000002"},
		"From": {"whatsapp:" + sender},
		"Body": {"GC500: 2,400 bottles ready"},
	}
	if !equalForms(r.Form, want) {
		t.Errorf("form = %v\nwant %v (no MediaUrl, no StatusCallback, no doubled prefix)", r.Form, want)
	}
}

// class is how a failed send is classified.
type class string

const (
	transient class = "transient"
	held      class = "held"
	permanent class = "permanent"
)

func classOf(te *twilio.Error) class {
	switch {
	case te.Held() && te.Permanent():
		return "held and permanent"
	case te.Held():
		return held
	case te.Permanent():
		return permanent
	}
	return transient
}

func TestSendErrors(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		class   class
		mention string // in the error
		reason  string // in Reason()
	}{
		// The recipient or the message is refused: never worth another try.
		{"invalid number", 400, twilioError(400, 21211, "Invalid 'To' Phone Number: whatsapp:+9198"), permanent, "21211", "the number is not valid (Twilio error 21211)"},
		{"not a mobile number", 400, twilioError(400, 21614, "'To' number is not a valid mobile number"), permanent, "21614", "not a mobile number"},
		{"unsubscribed", 400, twilioError(400, 21610, "Attempt to send to unsubscribed recipient"), permanent, "21610", "unsubscribed"},
		{"outside the window", 400, twilioError(400, 63016, "Failed to send freeform message because you are outside the allowed window"), permanent, "63016", "24-hour window"},
		{"not a WhatsApp user", 400, twilioError(400, 63003, "Channel could not find To address"), permanent, "63003", "not on WhatsApp"},
		{"content refused", 400, twilioError(400, 21999, "Message body contains a forbidden link"), permanent, "21999", "Twilio refused the message: Message body contains a forbidden link (Twilio 400)"},
		// The account or the sender is wrong: the message waits for a fix.
		{"wrong token", 401, twilioError(401, 20003, "Authenticate"), held, "20003", "authentication failed (Twilio 401)"},
		{"forbidden", 403, twilioError(403, 20403, "Permission Denied"), held, "20403", "Twilio refused the account (Twilio 403)"},
		{"suspended account", 403, twilioError(403, 20005, "Account not active"), held, "20005", "not active"},
		{"auth code on a 403", 403, twilioError(403, 20003, "Permission Denied"), held, "20003", "authentication failed (Twilio error 20003)"},
		{"not a WhatsApp sender", 400, twilioError(400, 21606, "The From phone number is not a valid, SMS-capable inbound phone number"), held, "21606", "not a WhatsApp sender"},
		{"no channel for the sender", 400, twilioError(400, 63007, "Twilio could not find a Channel with the specified From address"), held, "63007", "not a WhatsApp sender"},
		{"account not found", 404, twilioError(404, 20404, "The requested resource /2010-04-01/Accounts/AC0/Messages.json was not found"), held, "20404", "account was not found"},
		{"proxy says unauthorised", 401, "<html><body>401 Authorization Required</body></html>", held, "401", "authentication failed (Twilio 401)"},
		{"proxy says not found", 404, "<html>Not Found</html>", held, "404", "account was not found"},
		// Passing trouble: try again.
		{"rate limited", 429, twilioError(429, 20429, "Too Many Requests"), transient, "20429", "rate limiting"},
		{"whatsapp rate limit", 429, twilioError(429, 63018, "Rate limit exceeded for Channel"), transient, "63018", "WhatsApp is rate limiting"},
		{"server error", 500, twilioError(500, 20500, "Internal Server Error"), transient, "20500", "Twilio is having trouble (Twilio 500)"},
		{"unavailable", 503, twilioError(503, 20503, "Service Unavailable"), transient, "20503", "(Twilio 503)"},
		{"proxy page", 502, "<html><body>502 Bad Gateway</body></html>", transient, "502", "(Twilio 502)"},
		{"empty answer", 500, "", transient, "500", "(Twilio 500)"},
		{"huge proxy page", 401, "<html>" + strings.Repeat("<p>denied</p>", 20000) + "</html>", held, "401", "authentication failed (Twilio 401)"},
		{"huge unicode message", 400, twilioError(400, 21999, strings.Repeat("संदेश अस्वीकृत 🚫 ", 400)), permanent, "21999", "Twilio refused the message: संदेश अस्वीकृत 🚫"},
		{"hostile JSON", 400, `{"code":"21211","status":"400","message":{"x":1}}`, permanent, "400", "(Twilio 400)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := twiliotest.Start(t)
			fake.Answer(1, tt.status, tt.body)
			s := newSender(t, fake.URL, nil)
			sid, err := s.Send(context.Background(), domain.Outbound{To: "+919810000001", Body: "hello"})
			if err == nil {
				t.Fatalf("Send = %q, nil; want an error", sid)
			}
			var te *twilio.Error
			if !errors.As(err, &te) {
				t.Fatalf("Send error %T (%v) is not a *twilio.Error", err, err)
			}
			if got := classOf(te); got != tt.class {
				t.Errorf("class = %s, want %s (err: %v)", got, tt.class, err)
			}
			if !strings.HasPrefix(err.Error(), "twilio: send") || !strings.Contains(err.Error(), tt.mention) {
				t.Errorf("error = %q, want it prefixed and mentioning %q", err, tt.mention)
			}
			if !strings.Contains(te.Reason(), tt.reason) {
				t.Errorf("Reason() = %q, want it to say %q", te.Reason(), tt.reason)
			}
			if r := te.Reason(); !utf8.ValidString(r) || utf8.RuneCountInString(r) > 200 {
				t.Errorf("Reason() is %d runes (valid UTF-8: %v), want a short reason", utf8.RuneCountInString(r), utf8.ValidString(r))
			}
			if len(fake.Requests()) != 1 {
				t.Errorf("Twilio got %d requests, want 1: the sender itself never retries", len(fake.Requests()))
			}
		})
	}
}

func TestSendWrongCredentialsIsHeld(t *testing.T) {
	fake := twiliotest.Start(t)
	token := "0000feedf00dfeedf00dfeedf00dfeed"
	s := newSender(t, fake.URL, func(c *twilio.SenderConfig) { c.AuthToken = token })
	_, err := s.Send(context.Background(), domain.Outbound{To: "+919810000001", Body: "hello"})
	var te *twilio.Error
	if !errors.As(err, &te) || classOf(te) != held || !strings.Contains(err.Error(), "20003") {
		t.Fatalf("Send with a wrong token = %v, want a held 20003 error", err)
	}
	if te.Reason() != "authentication failed (Twilio 401)" || strings.Contains(err.Error(), token) {
		t.Errorf("Reason() = %q, error %q; want the plain reason and no token", te.Reason(), err)
	}
}

func TestSendUnreachableTwilioIsTransient(t *testing.T) {
	fake := twiliotest.Start(t)
	s := newSender(t, fake.URL, nil)
	fake.Close() // nothing listens there any more
	_, err := s.Send(context.Background(), domain.Outbound{To: "+919810000001", Body: "hello"})
	var te *twilio.Error
	if !errors.As(err, &te) || classOf(te) != transient || te.Reason() == "" {
		t.Errorf("Send to a closed server = %v, want a transient error with a reason", err)
	}
}

func TestSendIllegalCredentialsAreHeld(t *testing.T) {
	fake := twiliotest.Start(t)
	s := newSender(t, fake.URL, func(c *twilio.SenderConfig) { c.AuthToken = "token with spaces!" })
	_, err := s.Send(context.Background(), domain.Outbound{To: "+919810000001", Body: "hello"})
	var te *twilio.Error
	if !errors.As(err, &te) || classOf(te) != held {
		t.Errorf("Send with an ill-formed token = %v, want a held error", err)
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("Twilio got %d requests, want 0: twilio-go refuses the token itself", n)
	}
}

func TestSendWithoutSID(t *testing.T) {
	fake := twiliotest.Start(t)
	fake.Answer(1, 201, `{"status":"queued"}`)
	s := newSender(t, fake.URL, nil)
	if sid, err := s.Send(context.Background(), domain.Outbound{To: "+919810000001", Body: "hello"}); err == nil {
		t.Errorf("Send = %q, nil for a reply without a SID; want an error", sid)
	}
}

func TestSendHonoursAPIURLPath(t *testing.T) {
	fake := twiliotest.Start(t, twiliotest.Prefix("/fakes/twilio"))
	s := newSender(t, fake.URL+"/fakes/twilio/", nil)
	sid, err := s.Send(context.Background(), domain.Outbound{To: "+919810000001", Body: "hello"})
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	if sid != twiliotest.MessageSID(1) {
		t.Errorf("Send = %q, want %q", sid, twiliotest.MessageSID(1))
	}
	if got := fake.Requests()[0].Path; got != "/fakes/twilio/2010-04-01/Accounts/"+accountSID+"/Messages.json" {
		t.Errorf("path = %q, want the API URL's path prefix kept", got)
	}
}

func TestSendCancelledContext(t *testing.T) {
	fake := twiliotest.Start(t)
	s := newSender(t, fake.URL, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Send(ctx, domain.Outbound{To: "+919810000001", Body: "hello"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Send with a cancelled context = %v, want context.Canceled", err)
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("Twilio got %d requests after cancellation, want 0", n)
	}
}

func TestSendPayload(t *testing.T) {
	fake := twiliotest.Start(t)
	s := newSender(t, fake.URL, nil)
	payload, _ := json.Marshal(domain.Outbound{To: "+919810000003", Body: "Daily digest", MediaURLs: []string{publicURL + "/media/d.png"}})
	sid, err := s.SendPayload(context.Background(), payload)
	if err != nil || sid != twiliotest.MessageSID(1) {
		t.Fatalf("SendPayload = %q, %v; want %q", sid, err, twiliotest.MessageSID(1))
	}
	f := fake.Requests()[0].Form
	if f.Get("To") != "whatsapp:+919810000003" || f.Get("Body") != "Daily digest" || f.Get("MediaUrl") != publicURL+"/media/d.png" {
		t.Errorf("form = %v, want the payload's message", f)
	}

	_, err = s.SendPayload(context.Background(), []byte("{not json"))
	var te *twilio.Error
	if !errors.As(err, &te) || classOf(te) != permanent {
		t.Errorf("SendPayload(bad JSON) = %v, want a permanent error", err)
	}
	if n := len(fake.Requests()); n != 1 {
		t.Errorf("Twilio got %d requests, want only the good payload's", n)
	}
}

func TestNewSenderRejectsIncompleteConfig(t *testing.T) {
	tests := []struct {
		name   string
		change func(*twilio.SenderConfig)
	}{
		{"no account", func(c *twilio.SenderConfig) { c.AccountSID = "" }},
		{"no token", func(c *twilio.SenderConfig) { c.AuthToken = "" }},
		{"no sender", func(c *twilio.SenderConfig) { c.From = "" }},
		{"API URL without host", func(c *twilio.SenderConfig) { c.APIURL = "/just/a/path" }},
		{"API URL unparsable", func(c *twilio.SenderConfig) { c.APIURL = "http://[::1" }},
	}
	for _, tt := range tests {
		c := twilio.SenderConfig{AccountSID: accountSID, AuthToken: authToken, From: sender, APIURL: "http://127.0.0.1:1"}
		tt.change(&c)
		if s, err := twilio.NewSender(c); err == nil {
			t.Errorf("%s: NewSender = %v, nil; want an error", tt.name, s)
		}
	}
}

func TestLogSenderConcurrent(t *testing.T) {
	var mu sync.Mutex
	var buf bytes.Buffer
	l := &twilio.LogSender{Logger: slog.New(slog.NewTextHandler(lockedWriter{&mu, &buf}, nil))}

	const n = 64
	sids := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			payload, _ := json.Marshal(domain.Outbound{To: fmt.Sprintf("+9198100%05d", i), Body: "hello"})
			sid, err := l.SendPayload(context.Background(), payload)
			if err != nil {
				t.Errorf("SendPayload: %v", err)
			}
			sids[i] = sid
		}()
	}
	wg.Wait()

	seen := map[string]bool{}
	for _, sid := range sids {
		if !strings.HasPrefix(sid, "SM") {
			t.Errorf("SID %q does not look like a message SID", sid)
		}
		if seen[sid] {
			t.Errorf("SID %q given twice", sid)
		}
		seen[sid] = true
	}
	mu.Lock()
	logged := strings.Count(buf.String(), "outbound WhatsApp message")
	mu.Unlock()
	if logged != n {
		t.Errorf("logged %d messages, want %d", logged, n)
	}

	_, err := l.SendPayload(context.Background(), []byte("nope"))
	var te *twilio.Error
	if !errors.As(err, &te) || !te.Permanent() {
		t.Errorf("LogSender.SendPayload(bad JSON) = %v, want a permanent error", err)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestSendTemplate: a message with a Content SID is sent as Twilio's
// template: ContentSid and ContentVariables (JSON), and no Body.
func TestSendTemplate(t *testing.T) {
	fake := twiliotest.Start(t)
	s := newSender(t, fake.URL, nil)
	const content = "HX0123456789abcdef0123456789abcdef"
	msg := domain.Outbound{To: "+919810000001", Body: "the full brief, held for the reply", ContentSID: content,
		ContentVariables: map[string]string{"1": "13 Mar 2026", "2": "Sales ₹1,24,500 — 12% above a usual Friday"}}
	if _, err := s.Send(context.Background(), msg); err != nil {
		t.Fatalf("Send: %v", err)
	}
	r := fake.Requests()[0]
	if r.Form.Get("ContentSid") != content || r.Form.Has("Body") {
		t.Errorf("form = %v; want the ContentSid and no Body", r.Form)
	}
	var vars map[string]string
	if err := json.Unmarshal([]byte(r.Form.Get("ContentVariables")), &vars); err != nil ||
		vars["1"] != "13 Mar 2026" || vars["2"] != msg.ContentVariables["2"] || len(vars) != 2 {
		t.Errorf("ContentVariables = %q (%v); want the date and the headline as JSON", r.Form.Get("ContentVariables"), err)
	}
	// The payload round trip keeps them; a plain message's payload has none.
	b, _ := json.Marshal(msg)
	if _, err := s.SendPayload(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if r := fake.Requests()[1]; r.Form.Get("ContentSid") != content || !r.Form.Has("ContentVariables") {
		t.Errorf("from a payload: form = %v", r.Form)
	}
	if b, _ := json.Marshal(domain.Outbound{To: "+919810000001", Body: "hi"}); strings.Contains(string(b), "Content") {
		t.Errorf("a plain message's payload = %s, want no template fields", b)
	}
}

// TestErrorCode: a Twilio answer's code is kept for whoever must act on it
// (63016: outside the 24-hour window); a failure without one has none.
func TestErrorCode(t *testing.T) {
	fake := twiliotest.Start(t)
	fake.Fail(1, twiliotest.OutsideWindow)
	_, err := newSender(t, fake.URL, nil).Send(context.Background(), domain.Outbound{To: "+919810000001", Body: "hi"})
	var te *twilio.Error
	if !errors.As(err, &te) || te.Code() != twilio.OutsideWindow {
		t.Fatalf("Send error = %v; want a *twilio.Error with code %s", err, twilio.OutsideWindow)
	}
	_, err = newSender(t, "http://127.0.0.1:1", nil).Send(context.Background(), domain.Outbound{To: "+919810000001", Body: "hi"})
	if !errors.As(err, &te) || te.Code() != "" {
		t.Fatalf("unreachable Twilio: %v, code %q; want no code", err, te.Code())
	}
}

// The log sender never writes a whole media link at info level.
func TestLogSenderHidesMediaLinks(t *testing.T) {
	var mu sync.Mutex
	var info, debug bytes.Buffer
	id := "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	payload, _ := json.Marshal(domain.Outbound{To: "whatsapp:+919900000001", Body: "Chart page: https://m.example/media/" + id + "/sales.html",
		MediaURLs: []string{"https://m.example/media/" + id + "/sales.png"}})
	l := &twilio.LogSender{Logger: slog.New(slog.NewTextHandler(lockedWriter{&mu, &info}, nil))}
	if _, err := l.SendPayload(context.Background(), payload); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(info.String(), id) || !strings.Contains(info.String(), "/media/ABCD…") {
		t.Fatalf("info log: %s", info.String())
	}
	l = &twilio.LogSender{Logger: slog.New(slog.NewTextHandler(lockedWriter{&mu, &debug}, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	if _, err := l.SendPayload(context.Background(), payload); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(debug.String(), id) {
		t.Fatalf("debug log lacks the whole link: %s", debug.String())
	}
}
