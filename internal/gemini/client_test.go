package gemini

import (
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/gemini/geminitest"
)

const (
	testKey   = geminitest.APIKey
	testModel = geminitest.Model
)

// recorder keeps the calls a Client reports.
type recorder struct {
	mu    sync.Mutex
	calls []Call
}

func (r *recorder) record(c Call) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, c)
}

func (r *recorder) all() []Call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

func (r *recorder) outcomes() []Outcome {
	var out []Outcome
	for _, c := range r.all() {
		out = append(out, c.Outcome)
	}
	return out
}

// newClient returns a client of f with short timeouts, and its calls.
func newClient(t *testing.T, f *geminitest.Server, tune ...func(*Config)) (*Client, *recorder) {
	t.Helper()
	rec := &recorder{}
	cfg := Config{
		APIKey: testKey, Model: testModel, BaseURL: f.URL,
		CallTimeout: 5 * time.Second, MinCallTime: 50 * time.Millisecond, Reserve: 50 * time.Millisecond,
		Recorder: rec.record,
	}
	for _, fn := range tune {
		fn(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, rec
}

// deadlines is a transport that keeps the deadline of every request's
// context before passing the request on.
type deadlines struct {
	mu  sync.Mutex
	got []time.Time // the zero time for a request without one
}

func (d *deadlines) RoundTrip(r *http.Request) (*http.Response, error) {
	dl, _ := r.Context().Deadline()
	d.mu.Lock()
	d.got = append(d.got, dl)
	d.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func (d *deadlines) all() []time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.got)
}
