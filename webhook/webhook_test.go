package webhook_test

import (
	"context"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/internal/twilio"
	"github.com/munshi/munshi/webhook"
)

// newInbox opens a real SQLite inbox in a temporary directory, with the
// demo salesperson as a user so that their messages keep their text.
func newInbox(t *testing.T, opts ...store.Option) store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "munshi.db"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.UpsertUsers(context.Background(), []domain.User{{Phone: ravi, Name: "Ravi Kumar", Role: domain.RoleSales}}); err != nil {
		t.Fatal(err)
	}
	return s
}

const ravi = "+919900000003"

// echo answers with the body, counting calls; delay and block slow it down.
type echo struct {
	calls atomic.Int32
	delay time.Duration
	gate  chan struct{}
}

func (e *echo) Respond(ctx context.Context, in domain.Inbound) domain.Reply {
	e.calls.Add(1)
	if e.gate != nil {
		<-e.gate
	}
	if e.delay > 0 {
		time.Sleep(e.delay)
	}
	return domain.Reply{Text: "you said: " + in.Body}
}

type lateBox struct {
	mu   sync.Mutex
	sent []domain.Reply
	to   []string
	done chan struct{}
}

func (l *lateBox) SendLate(_ context.Context, to string, r domain.Reply) error {
	l.mu.Lock()
	l.sent, l.to = append(l.sent, r), append(l.to, to)
	l.mu.Unlock()
	close(l.done)
	return nil
}

const token = "test-auth-token"

func newServer(t *testing.T, resp webhook.Responder, signed bool) (*httptest.Server, *webhook.Handler) {
	t.Helper()
	h := &webhook.Handler{Pipeline: &webhook.Pipeline{Inbox: newInbox(t), Responder: resp, Budget: 2 * time.Second}}
	mux := http.NewServeMux()
	h.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	if signed {
		h.AuthToken, h.PublicURL = token, "https://munshi.example.com"
	} else {
		h.AllowUnsigned = true
	}
	return srv, h
}

func form(sid, from, body string) url.Values {
	return url.Values{"MessageSid": {sid}, "From": {"whatsapp:" + from}, "To": {"whatsapp:+14155238886"},
		"Body": {body}, "NumMedia": {"0"}, "ProfileName": {"Ravi"}, "AccountSid": {"AC123"}}
}

func post(t *testing.T, srv *httptest.Server, path string, f url.Values, sign func(*http.Request)) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(f.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if sign != nil {
		sign(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func signWith(tok, base string, f url.Values) func(*http.Request) {
	return func(r *http.Request) {
		r.Header.Set("X-Twilio-Signature", twilio.Sign(tok, base+r.URL.RequestURI(), f))
	}
}

func readTwiML(t *testing.T, resp *http.Response) []string {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/xml") {
		t.Fatalf("content type %q, want text/xml", ct)
	}
	var doc struct {
		Messages []struct {
			Body string `xml:"Body"`
		} `xml:"Message"`
	}
	if err := xml.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatalf("bad TwiML: %v", err)
	}
	var out []string
	for _, m := range doc.Messages {
		out = append(out, m.Body)
	}
	return out
}

func TestSignedWebhook(t *testing.T) {
	resp := &echo{}
	srv, _ := newServer(t, resp, true)
	f := form("SM1", "+919900000003", "namaste")
	cases := []struct {
		name string
		sign func(*http.Request)
		want int
	}{
		{"valid signature", signWith(token, "https://munshi.example.com", f), 200},
		{"missing signature", nil, 403},
		{"wrong token", signWith("other", "https://munshi.example.com", f), 403},
		{"wrong URL", signWith(token, "https://evil.example.com", f), 403},
		{"signature of other params", signWith(token, "https://munshi.example.com", form("SM1", "+919900000003", "approve all")), 403},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := post(t, srv, "/webhook/twilio", f, c.sign)
			if r.StatusCode != c.want {
				t.Fatalf("status %d, want %d", r.StatusCode, c.want)
			}
		})
	}
	if n := resp.calls.Load(); n != 1 {
		t.Fatalf("responder called %d times, want 1 (only the signed request)", n)
	}
	// The query string is part of what Twilio signs.
	r := post(t, srv, "/webhook/twilio?tenant=a", form("SM2", "+919900000003", "hi"), signWith(token, "https://munshi.example.com", form("SM2", "+919900000003", "hi")))
	if r.StatusCode != 200 {
		t.Fatalf("signed request with query: status %d", r.StatusCode)
	}
}

func TestUnsignedRefusedWithoutPermission(t *testing.T) {
	srv, h := newServer(t, &echo{}, false)
	h.AllowUnsigned = false
	if r := post(t, srv, "/webhook/twilio", form("SM1", "+919900000003", "hi"), nil); r.StatusCode != 403 {
		t.Fatalf("status %d, want 403", r.StatusCode)
	}
}

func TestMalformedRequests(t *testing.T) {
	srv, _ := newServer(t, &echo{}, false)
	big := form("SM9", "+919900000003", strings.Repeat("a", webhook.MaxBodyBytes))
	cases := []struct {
		name        string
		contentType string
		body        string
		want        int
	}{
		{"json body", "application/json", `{"Body":"hi"}`, 415},
		{"no content type", "", "Body=hi", 415},
		{"over 64 KiB", "application/x-www-form-urlencoded", big.Encode(), 413},
		{"bad escape", "application/x-www-form-urlencoded", "Body=%zz&MessageSid=SM1", 400},
		{"no MessageSid", "application/x-www-form-urlencoded", "From=whatsapp%3A%2B919900000003&Body=hi", 400},
		{"SMS sender", "application/x-www-form-urlencoded", "MessageSid=SM1&From=%2B919900000003&Body=hi", 400},
		{"not a phone", "application/x-www-form-urlencoded", "MessageSid=SM1&From=whatsapp%3Aabc&Body=hi", 400},
		{"huge sid", "application/x-www-form-urlencoded", "MessageSid=" + strings.Repeat("S", 100) + "&From=whatsapp%3A%2B919900000003", 400},
		{"unicode sid", "application/x-www-form-urlencoded", "MessageSid=" + url.QueryEscape(strings.Repeat("स", 30)) + "&From=whatsapp%3A%2B919900000003", 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", srv.URL+"/webhook/twilio", strings.NewReader(c.body))
			if c.contentType != "" {
				req.Header.Set("Content-Type", c.contentType)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, c.want)
			}
		})
	}
	resp, _ := http.Get(srv.URL + "/webhook/twilio")
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET: status %d, want 405", resp.StatusCode)
	}
}

func TestHostileBodiesGetTwiML(t *testing.T) {
	srv, _ := newServer(t, &echo{}, false)
	for i, body := range []string{
		"<Response><Say>pwned</Say></Response>", "]]><!--", "\x00\x01\x02", "\xff\xfe invalid utf8",
		"राजेश के लिए 5 कार्टन 🙏👍", strings.Repeat("🙏", 5000), "&amp;&lt;",
	} {
		r := post(t, srv, "/webhook/twilio", form("SMH"+string(rune('a'+i)), "+919900000003", body), nil)
		if r.StatusCode != 200 {
			t.Fatalf("%q: status %d", body, r.StatusCode)
		}
		msgs := readTwiML(t, r)
		if len(msgs) == 0 {
			t.Fatalf("%q: no message", body)
		}
		for _, m := range msgs {
			if utf8.RuneCountInString(m) > webhook.MaxMessageChars || !utf8.ValidString(m) {
				t.Fatalf("%q: bad message chunk of %d chars", body, utf8.RuneCountInString(m))
			}
		}
	}
}

func TestReplayGetsSameReplyOnce(t *testing.T) {
	resp := &echo{}
	srv, _ := newServer(t, resp, false)
	f := form("SMreplay", "+919900000003", "hello")
	first := readTwiML(t, post(t, srv, "/webhook/twilio", f, nil))
	second := readTwiML(t, post(t, srv, "/webhook/twilio", f, nil))
	if strings.Join(first, "|") != strings.Join(second, "|") || len(first) != 1 {
		t.Fatalf("replay got %q, first %q", second, first)
	}
	if n := resp.calls.Load(); n != 1 {
		t.Fatalf("processed %d times, want once", n)
	}
}

func TestConcurrentRetryWaitsForFirstAnswer(t *testing.T) {
	resp := &echo{gate: make(chan struct{})}
	p := &webhook.Pipeline{Inbox: newInbox(t), Responder: resp, Budget: 5 * time.Second, Poll: time.Millisecond}
	in := domain.Inbound{SID: "SMc", From: "+919900000003", Body: "x"}
	var wg sync.WaitGroup
	replies := make([]domain.Reply, 2)
	wg.Add(1)
	go func() { defer wg.Done(); replies[0], _, _ = p.Handle(context.Background(), in) }()
	for resp.calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	wg.Add(1)
	go func() { defer wg.Done(); replies[1], _, _ = p.Handle(context.Background(), in) }()
	close(resp.gate)
	wg.Wait()
	if replies[0].Text != "you said: x" || replies[1].Text != replies[0].Text {
		t.Fatalf("replies %+v", replies)
	}
	if resp.calls.Load() != 1 {
		t.Fatalf("processed %d times", resp.calls.Load())
	}
}

func TestBudgetExceededRepliesLater(t *testing.T) {
	resp := &echo{gate: make(chan struct{})}
	late := &lateBox{done: make(chan struct{})}
	inbox := newInbox(t)
	p := &webhook.Pipeline{Inbox: inbox, Responder: resp, Late: late, Budget: 50 * time.Millisecond}
	reply, outcome, err := p.Handle(context.Background(), domain.Inbound{SID: "SMslow", From: "+919900000003", Body: "slow"})
	if err != nil || outcome != webhook.OutcomeLate || reply.Text != webhook.LateReply {
		t.Fatalf("got %q %q %v", reply.Text, outcome, err)
	}
	if done, _, _ := inbox.SavedReply(context.Background(), "SMslow"); done {
		t.Fatal("a reply was recorded before the late answer was handed over")
	}
	close(resp.gate)
	// Wait is what a shutdown calls: once it returns, the late reply is out.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.Wait(ctx); err != nil {
		t.Fatal("late reply never sent")
	}
	select {
	case <-late.done:
	default:
		t.Fatal("Wait returned before the late reply was handed over")
	}
	if late.to[0] != "+919900000003" || late.sent[0].Text != "you said: slow" {
		t.Fatalf("late reply %+v to %v", late.sent, late.to)
	}
	// Once handed over, the answer is recorded; until then the claim held.
	if done, reply, _ := inbox.SavedReply(context.Background(), "SMslow"); !done || reply.Text != "you said: slow" {
		t.Fatalf("the late answer was not recorded: %v %+v", done, reply)
	}
}

type panicky struct{}

func (panicky) Respond(context.Context, domain.Inbound) domain.Reply { panic("boom") }

func TestResponderPanicIsAPoliteReply(t *testing.T) {
	srv, _ := newServer(t, panicky{}, false)
	r := post(t, srv, "/webhook/twilio", form("SMp", "+919900000003", "x"), nil)
	if r.StatusCode != 200 {
		t.Fatalf("status %d", r.StatusCode)
	}
	if msgs := readTwiML(t, r); len(msgs) != 1 || msgs[0] != webhook.FailureReply {
		t.Fatalf("reply %q", msgs)
	}
}

func TestStatusCallback(t *testing.T) {
	rec := &statusRec{}
	srv, h := newServer(t, &echo{}, true)
	h.Statuses = rec
	f := url.Values{"MessageSid": {"SMabc"}, "MessageStatus": {"delivered"}, "AccountSid": {"AC1"}}
	if r := post(t, srv, "/webhook/twilio/status", f, nil); r.StatusCode != 403 {
		t.Fatalf("unsigned status: %d", r.StatusCode)
	}
	if r := post(t, srv, "/webhook/twilio/status", f, signWith(token, "https://munshi.example.com", f)); r.StatusCode != 204 {
		t.Fatalf("signed status: %d", r.StatusCode)
	}
	if len(rec.got) != 1 || rec.got[0] != "SMabc delivered" {
		t.Fatalf("recorded %v", rec.got)
	}
	bad := url.Values{"MessageSid": {"SMabc"}}
	if r := post(t, srv, "/webhook/twilio/status", bad, signWith(token, "https://munshi.example.com", bad)); r.StatusCode != 400 {
		t.Fatalf("status without MessageStatus: %d", r.StatusCode)
	}
}

type statusRec struct{ got []string }

func (s *statusRec) RecordDeliveryStatus(_ context.Context, sid, status, _ string) error {
	s.got = append(s.got, sid+" "+status)
	return nil
}

func TestParseInboundMedia(t *testing.T) {
	f := form("SMm", "+919900000003", "")
	f.Set("NumMedia", "2")
	f.Set("MediaUrl0", "https://api.twilio.com/m/0")
	f.Set("MediaUrl1", "https://api.twilio.com/m/1")
	in, err := webhook.ParseInbound(f)
	if err != nil || len(in.MediaURLs) != 2 || in.From != "+919900000003" || in.ProfileName != "Ravi" {
		t.Fatalf("%+v %v", in, err)
	}
	f.Set("NumMedia", "999999")
	if in, err := webhook.ParseInbound(f); err != nil || len(in.MediaURLs) != 2 {
		t.Fatalf("bounded media: %+v %v", in, err)
	}
}

func TestSplitMessage(t *testing.T) {
	lines := make([]string, 200)
	for i := range lines {
		lines[i] = "• Glass Cleaner 500ml — 2,400 bottles"
	}
	text := strings.Join(lines, "\n")
	chunks := webhook.SplitMessage(text, webhook.MaxMessageChars)
	if len(chunks) < 2 {
		t.Fatalf("%d chunks", len(chunks))
	}
	if strings.Join(chunks, "\n") != text {
		t.Fatal("chunks do not join back to the text")
	}
	for _, c := range chunks {
		if n := utf8.RuneCountInString(c); n > webhook.MaxMessageChars {
			t.Fatalf("chunk of %d chars", n)
		}
		if strings.HasPrefix(c, " ") || !strings.HasPrefix(c, "•") {
			t.Fatalf("chunk not cut at a line boundary: %q", c[:20])
		}
	}
	// One long line with no newlines is cut at spaces, and long words anywhere.
	long := strings.Repeat("phenyl ", 600)
	for _, c := range webhook.SplitMessage(long, 100) {
		if utf8.RuneCountInString(c) > 100 {
			t.Fatalf("chunk of %d chars", utf8.RuneCountInString(c))
		}
	}
	word := strings.Repeat("क", 250)
	got := webhook.SplitMessage(word, 100)
	if len(got) != 3 || strings.Join(got, "") != word {
		t.Fatalf("hard cut: %d chunks", len(got))
	}
	if webhook.SplitMessage("  \n ", 100) != nil {
		t.Fatal("blank text should give no chunks")
	}
}

func TestTwiMLEscapesAndCarriesMedia(t *testing.T) {
	out := string(webhook.TwiML(domain.Reply{Text: "a < b & c", MediaURLs: []string{"https://x/m/1?a=1&b=2"}}))
	if !strings.Contains(out, "a &lt; b &amp; c") || !strings.Contains(out, "<Media>https://x/m/1?a=1&amp;b=2</Media>") {
		t.Fatal(out)
	}
	if empty := string(webhook.TwiML(domain.Reply{})); !strings.Contains(empty, "<Response></Response>") {
		t.Fatal(empty)
	}
}

func FuzzParseInbound(f *testing.F) {
	f.Add("MessageSid=SM1&From=whatsapp%3A%2B919900000003&Body=hi&NumMedia=1&MediaUrl0=x")
	f.Add("MessageSid=SM2&From=whatsapp%3A%2B919900000003&NumMedia=2&MediaUrl0=&MediaUrl1=https%3A%2F%2Fapi.twilio.com%2Fm&MediaContentType1=audio%2Fogg%3B%20codecs%3Dopus&MediaContentType0=image%2Fpng")
	f.Add("MessageSid=&From=whatsapp:&Body=%F0%9F%99%8F")
	f.Add("From=whatsapp%3A%2B0&NumMedia=-1")
	f.Add("MessageSid=SM1&From=whatsapp%3A%2B91%20(98)%2010-00&Body=" + strings.Repeat("%FF", 10))
	f.Fuzz(func(t *testing.T, raw string) {
		vals, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		in, err := webhook.ParseInbound(vals)
		if err != nil {
			return
		}
		if in.SID == "" || !strings.HasPrefix(in.From, "+") || !utf8.ValidString(in.Body) || len(in.MediaURLs) > 10 ||
			len(in.MediaTypes) != len(in.MediaURLs) {
			t.Fatalf("accepted a bad message: %+v", in)
		}
		_ = webhook.TwiML(domain.Reply{Text: in.Body})
	})
}
