package loadtest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/loadtest"
	"github.com/munshi/munshi/internal/twilio"
)

const (
	token  = "loadtesttoken0123456789abcdef012"
	public = "https://munshi.example.com"
)

// recorder is an instance that checks every signature as the webhook
// does, answers with the body it was sent, and remembers what it saw.
type recorder struct {
	name string
	mu   sync.Mutex
	seen []string // "sid from body"
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	req.ParseForm()
	if !twilio.ValidSignature(token, public+req.URL.RequestURI(), req.PostForm, req.Header.Get("X-Twilio-Signature")) {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	sid := req.PostForm.Get("MessageSid")
	r.mu.Lock()
	r.seen = append(r.seen, sid+" "+req.PostForm.Get("From")+" "+req.PostForm.Get("Body"))
	r.mu.Unlock()
	time.Sleep(2 * time.Millisecond)
	w.Header().Set("Content-Type", "text/xml")
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Response><Message><Body>%s: %s</Body></Message></Response>`, r.name, req.PostForm.Get("Body"))
}

func start(t *testing.T, name string) (*recorder, string) {
	r := &recorder{name: name}
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return r, srv.URL
}

func TestRunSignsOrdersAndReports(t *testing.T) {
	a, urlA := start(t, "a")
	b, urlB := start(t, "b")
	roster := loadtest.Roster{Owners: []string{"+919900000001", "+919900000011"}, Sales: []string{"+919900000003"},
		Accounts: []string{"+919900000002"}}
	senders := loadtest.DemoMix.Senders(roster)
	if got := senders[2].Messages; len(got) != 3 || got[2] != "ok" || !strings.Contains(got[1], "Mehta") {
		t.Fatalf("the salesperson's script: %q", got)
	}
	opts := loadtest.Options{Targets: []string{urlA, urlB}, PublicURL: public, AuthToken: token, AccountSID: "AC1"}
	r, err := loadtest.Run(context.Background(), opts, senders)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Errors()) != 0 {
		t.Fatalf("errors: %+v", r.Errors())
	}
	want := 0
	for _, s := range senders {
		want += len(s.Messages)
	}
	if len(r.Messages) != want || len(a.seen)+len(b.seen) != want {
		t.Fatalf("%d messages reported, %d received, want %d", len(r.Messages), len(a.seen)+len(b.seen), want)
	}
	sids := map[string]bool{}
	for i, m := range r.Messages {
		d, ok := m.Answer()
		if !ok || !strings.HasSuffix(d.Text(), ": "+m.Body) {
			t.Errorf("message %d: answer %q for %q", i, d.Text(), m.Body)
		}
		if len(m.SID) != 34 || !strings.HasPrefix(m.SID, "SM") || sids[m.SID] {
			t.Errorf("MessageSid %q: not 34 characters, or seen twice", m.SID)
		}
		sids[m.SID] = true
		// One sender's messages go in order: each starts after the one
		// before was answered, and they alternate between instances.
		if i > 0 && r.Messages[i-1].Sender == m.Sender {
			prev := r.Messages[i-1].Deliveries[0]
			if m.Deliveries[0].Start.Before(prev.Start.Add(prev.Latency)) {
				t.Errorf("message %d started before the sender's previous one was answered", i)
			}
			if m.Deliveries[0].Target == prev.Target {
				t.Errorf("message %d went to the same instance as the one before", i)
			}
		}
	}
	if r.Rate() <= 0 || r.Percentile(0.99) < r.Percentile(0.5) || r.Percentile(0.5) <= 0 {
		t.Fatalf("report %s", r)
	}
}

func TestRetryStorm(t *testing.T) {
	var targets []string
	for _, name := range []string{"a", "b", "c"} {
		_, u := start(t, name)
		targets = append(targets, u)
	}
	senders := []loadtest.Sender{{Phone: "+919900000001", Messages: []string{"hi", "GC ka stock kitna hai"}},
		{Phone: "+919900000003", Messages: []string{"namaste"}}}
	r, err := loadtest.Run(context.Background(), loadtest.Options{Targets: targets, PublicURL: public, AuthToken: token,
		Copies: 3, AtOnce: 2}, senders)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range r.Messages {
		if len(m.Deliveries) != 3 {
			t.Fatalf("%s: %d deliveries", m.SID, len(m.Deliveries))
		}
		at := map[string]bool{}
		for _, d := range m.Deliveries {
			if !d.OK() || d.SID != m.SID {
				t.Fatalf("%s: delivery %+v", m.SID, d)
			}
			at[d.Target] = true
		}
		if len(at) != 3 {
			t.Errorf("%s: the copies went to %d instances, want 3", m.SID, len(at))
		}
		// The first two go at once, the third after both.
		d0, d1, d2 := m.Deliveries[0], m.Deliveries[1], m.Deliveries[2]
		if !d1.Start.Before(d0.Start.Add(d0.Latency)) || !d0.Start.Before(d1.Start.Add(d1.Latency)) {
			t.Errorf("%s: the first two copies did not overlap", m.SID)
		}
		if d2.Start.Before(d0.Start.Add(d0.Latency)) || d2.Start.Before(d1.Start.Add(d1.Latency)) {
			t.Errorf("%s: the third copy did not wait for the first two", m.SID)
		}
	}
	if len(r.Deliveries()) != 9 {
		t.Fatalf("%d deliveries, want 9", len(r.Deliveries()))
	}
}

func TestUnanswered(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "down", 503) }))
	t.Cleanup(srv.Close)
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	r, err := loadtest.Run(context.Background(), loadtest.Options{Targets: []string{srv.URL, dead.URL}, PublicURL: public,
		AuthToken: token}, []loadtest.Sender{{Phone: "+919900000001", Messages: []string{"hi", "hi again"}}})
	if err != nil {
		t.Fatal(err)
	}
	errs := r.Errors()
	if len(errs) != 2 || errs[0].Status != 503 || errs[1].Status != 0 || errs[1].Err == nil {
		t.Fatalf("errors %+v", errs)
	}
	if _, ok := r.Messages[0].Answer(); ok {
		t.Fatal("a 503 counted as an answer")
	}
}

// TestFailover: a delivery that no instance answers at all goes to the
// next one under the same MessageSid, each try recorded.
func TestFailover(t *testing.T) {
	live, liveURL := start(t, "live")
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	r, err := loadtest.Run(context.Background(), loadtest.Options{Targets: []string{dead.URL, liveURL}, PublicURL: public,
		AuthToken: token, Failover: true}, []loadtest.Sender{{Phone: "+919900000001", Messages: []string{"hi", "GC ka stock kitna hai"}}})
	if err != nil {
		t.Fatal(err)
	}
	first, second := r.Messages[0], r.Messages[1]
	if len(first.Deliveries) != 2 || first.Deliveries[0].Status != 0 || first.Deliveries[1].SID != first.SID || !first.Deliveries[1].OK() {
		t.Fatalf("the first message, sent to the dead instance first: %+v", first.Deliveries)
	}
	if len(second.Deliveries) != 1 || !second.Deliveries[0].OK() {
		t.Fatalf("the second, to the live one: %+v", second.Deliveries)
	}
	if len(live.seen) != 2 || len(r.Errors()) != 1 {
		t.Fatalf("the live instance saw %q; errors %+v", live.seen, r.Errors())
	}
}

// An open loop offers the messages round the senders, 1/Rate apart,
// sends none before it is due, keeps each sender's order, and counts
// every latency from when its message was due.
func TestOpenLoop(t *testing.T) {
	a, url := start(t, "a")
	senders := []loadtest.Sender{
		{Phone: "+919900000001", Messages: []string{"one", "two", "three"}},
		{Phone: "+919900000002", Messages: []string{"uno"}},
		{Phone: "+919900000003", Messages: []string{"ek", "do"}},
	}
	const rate = 500.0
	r, err := loadtest.Run(context.Background(), loadtest.Options{Targets: []string{url}, PublicURL: public, AuthToken: token, Rate: rate}, senders)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Messages) != 6 || len(r.Errors()) != 0 || len(a.seen) != 6 {
		t.Fatalf("%d messages, %d errors, %d seen: %s", len(r.Messages), len(r.Errors()), len(a.seen), r)
	}
	// Offered in the order one, uno, ek, two, do, three.
	order := map[string]int{"one": 0, "uno": 1, "ek": 2, "two": 3, "do": 4, "three": 5}
	first := r.Messages[0].Due
	step := time.Duration(float64(time.Second) / rate)
	for _, m := range r.Messages {
		if want := first.Add(time.Duration(order[m.Body]) * step); !m.Due.Equal(want) {
			t.Errorf("%q due %s after the first, want %s", m.Body, m.Due.Sub(first), want.Sub(first))
		}
		d, ok := m.Answer()
		if !ok || d.Text() != "a: "+m.Body {
			t.Errorf("%q answered %q", m.Body, d.Text())
		}
		if d.Start.Before(m.Due) {
			t.Errorf("%q sent %s before it was due", m.Body, m.Due.Sub(d.Start))
		}
		if d.Latency < d.Start.Sub(m.Due) {
			t.Errorf("%q: latency %s leaves out the %s it waited", m.Body, d.Latency, d.Start.Sub(m.Due))
		}
	}
	for i := 1; i < len(r.Messages); i++ {
		prev, m := r.Messages[i-1], r.Messages[i]
		if prev.Sender == m.Sender {
			p, _ := prev.Answer()
			d, _ := m.Answer()
			if d.Start.Before(p.Start.Add(p.Latency - p.Start.Sub(prev.Due))) {
				t.Errorf("%q sent before %q was answered", m.Body, prev.Body)
			}
		}
	}
}
