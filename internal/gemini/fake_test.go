package gemini

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

const (
	testKey   = "test-key-7Qz4"
	testModel = "gemini-test"
)

// reply is what the fake answers one request with.
type reply struct {
	status int    // default 200
	body   string // Gemini's REST JSON
	hang   bool   // wait until the client gives up or the test releases it
}

func usage(prompt, response int) map[string]any {
	return map[string]any{"promptTokenCount": prompt, "candidatesTokenCount": response, "totalTokenCount": prompt + response}
}

// textReply is a finished answer with one text part.
func textReply(text string) reply {
	return partsReply("STOP", map[string]any{"text": text})
}

func partsReply(finish string, parts ...map[string]any) reply {
	b, _ := json.Marshal(map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": parts},
			"finishReason": finish,
		}},
		"usageMetadata": usage(120, 8),
	})
	return reply{body: string(b)}
}

func callPart(name string, args map[string]any) map[string]any {
	return map[string]any{"functionCall": map[string]any{"name": name, "args": args}}
}

func errorReply(code int, status, message string) reply {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": code, "message": message, "status": status}})
	return reply{status: code, body: string(b)}
}

var (
	serverError = errorReply(500, "INTERNAL", "internal error")
	quota       = errorReply(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).")
)

// fake speaks Gemini's generateContent REST API on 127.0.0.1.
type fake struct {
	t       *testing.T
	srv     *httptest.Server
	mu      sync.Mutex
	script  []reply // request i gets script[min(i, len-1)] after the last setScript
	served  int
	bodies  []map[string]json.RawMessage
	arrived chan struct{}
	release chan struct{}
	once    sync.Once
}

func newFake(t *testing.T, script ...reply) *fake {
	f := &fake{t: t, script: script, arrived: make(chan struct{}, 64), release: make(chan struct{})}
	f.srv = httptest.NewServer(f)
	t.Cleanup(f.srv.Close)
	t.Cleanup(f.unblock) // runs first: frees hung handlers
	return f
}

// unblock lets every hung request answer.
func (f *fake) unblock() { f.once.Do(func() { close(f.release) }) }

// drain forgets the arrivals so far.
func (f *fake) drain() {
	for {
		select {
		case <-f.arrived:
		default:
			return
		}
	}
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if want := "/v1beta/models/" + testModel + ":generateContent"; r.Method != http.MethodPost || r.URL.Path != want {
		f.t.Errorf("request %s %s, want POST %s", r.Method, r.URL.Path, want)
	}
	if got := r.Header.Get("x-goog-api-key"); got != testKey {
		f.t.Errorf("x-goog-api-key %q", got)
	}
	if r.URL.Query().Has("key") {
		f.t.Error("the key must not travel in the URL")
	}
	raw, _ := io.ReadAll(r.Body)
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		f.t.Errorf("request body: %v", err)
	}
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	rep := textReply(`{"intent":"unknown","confidence":0.5}`)
	if len(f.script) > 0 {
		rep = f.script[min(f.served, len(f.script)-1)]
	}
	f.served++
	f.mu.Unlock()
	select {
	case f.arrived <- struct{}{}:
	default:
	}

	if rep.hang {
		select {
		case <-r.Context().Done():
			return
		case <-f.release:
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if rep.status != 0 {
		w.WriteHeader(rep.status)
	}
	io.WriteString(w, rep.body)
}

// setScript replaces the replies; the next request gets the first.
func (f *fake) setScript(script ...reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script, f.served = script, 0
}

func (f *fake) hits() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.bodies)
}

func (f *fake) body(i int) map[string]json.RawMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.bodies[i]
}

// systemInstruction is the raw bytes of request i's system instruction.
func (f *fake) systemInstruction(i int) string { return string(f.body(i)["systemInstruction"]) }

// contents is request i's contents.
func (f *fake) contents(i int) []content {
	var cs []content
	if err := json.Unmarshal(f.body(i)["contents"], &cs); err != nil {
		f.t.Fatal(err)
	}
	return cs
}

type content struct {
	Role  string `json:"role"`
	Parts []struct {
		Text             string           `json:"text"`
		FunctionCall     *json.RawMessage `json:"functionCall"`
		FunctionResponse *json.RawMessage `json:"functionResponse"`
	} `json:"parts"`
}

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
func newClient(t *testing.T, f *fake, tune ...func(*Config)) (*Client, *recorder) {
	t.Helper()
	rec := &recorder{}
	cfg := Config{
		APIKey: testKey, Model: testModel, BaseURL: f.srv.URL,
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
