package twiliotest

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The account a Server answers by default.
const (
	AccountSID = "AC0123456789abcdef0123456789abcdef"
	AuthToken  = "f00dfeedf00dfeedf00dfeedf00dfeed"
)

// Error is a refusal as Twilio writes it: the HTTP status, Twilio's error
// code and its message.
type Error struct {
	Status  int
	Code    int
	Message string
}

// The refusals Munshi meets most.
var (
	InvalidNumber   = Error{400, 21211, "Invalid 'To' Phone Number"}
	OutsideWindow   = Error{400, 63016, "Failed to send freeform message because you are outside the allowed window. If you want to send messages outside this window, please use a Template."}
	NoBody          = Error{400, 21619, "A text message body or media urls must be specified"}
	Unauthenticated = Error{401, 20003, "Authenticate"}
	NotFound        = Error{404, 20404, "The requested resource was not found"}
	ServerError     = Error{500, 20500, "Internal Server Error"}
)

// JSON is Twilio's error body for e.
func (e Error) JSON() string {
	b, _ := json.Marshal(struct {
		Code     int    `json:"code"`
		Message  string `json:"message"`
		MoreInfo string `json:"more_info"`
		Status   int    `json:"status"`
	}{e.Code, e.Message, fmt.Sprintf("https://www.twilio.com/docs/errors/%d", e.Code), e.Status})
	return string(b)
}

// Request is one request the server received.
type Request struct {
	Method, Path, ContentType string
	User, Password            string
	HasAuth                   bool
	Form                      url.Values
	// Status is what the server answered (0 while it is held); SID is the
	// created message's, empty when refused.
	Status int
	SID    string
	// Created is when the message was created, by the server's clock.
	Created time.Time
	// Lost is set when the message was created and its answer never
	// reached the client.
	Lost bool
}

// MessageSID is the SID the server gives the message of its n-th request
// (from 1).
func MessageSID(n int) string { return fmt.Sprintf("SM%032x", n) }

// answer is a programmed reply: a Twilio error, or a status and body as
// they are (a proxy's page, an empty answer, a malformed success).
type answer struct {
	status int
	body   string
}

// Server is a running fake Twilio.
type Server struct {
	URL string

	srv         *httptest.Server
	prefix      string
	sid, token  string
	mu          sync.Mutex
	reqs        []Request
	next        []answer
	refuseTo    map[string]Error
	hold        chan struct{}
	delay       time.Duration
	releaseOnce *sync.Once
	lose        int // created messages whose answers are dropped
	now         func() time.Time
	lists       []url.Values      // the queries of message lists
	media       map[string]*media // inbound media files, by media SID
	mediaReqs   []Request         // the requests for media and the CDN
	done        chan struct{}     // closed by Close: hung media let go
	doneOnce    sync.Once
}

// Option changes a Server before it starts.
type Option func(*Server)

// Account makes the server answer for another account and token.
func Account(sid, token string) Option { return func(s *Server) { s.sid, s.token = sid, token } }

// Clock dates the messages the server creates (default time.Now).
func Clock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// Prefix serves the API under a path, as behind a proxy.
func Prefix(p string) Option { return func(s *Server) { s.prefix = strings.TrimRight(p, "/") } }

// Start listens on 127.0.0.1 and stops when the test ends; anything held
// is let go first.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := &Server{sid: AccountSID, token: AuthToken, refuseTo: map[string]Error{}, now: time.Now, done: make(chan struct{})}
	for _, o := range opts {
		o(s)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.Close)
	return s
}

// Close lets held requests (and hung media) go and stops the server:
// nothing listens at URL.
func (s *Server) Close() {
	s.mu.Lock()
	if s.hold != nil {
		s.releaseOnce.Do(func() { close(s.hold) })
	}
	s.mu.Unlock()
	s.doneOnce.Do(func() { close(s.done) })
	s.srv.Close()
}

// Fail answers the next n requests with e.
func (s *Server) Fail(n int, e Error) { s.Answer(n, e.Status, e.JSON()) }

// Answer answers the next n requests with status and body as they are.
func (s *Server) Answer(n int, status int, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.next = append(s.next, answer{status, body})
	}
}

// FailTo answers every message to phone (+E164) with e until Forgive. As
// on Twilio, OutsideWindow refuses free-form messages only: a template
// (ContentSid) still goes.
func (s *Server) FailTo(phone string, e Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuseTo[bare(phone)] = e
}

// Forgive takes back FailTo for phone.
func (s *Server) Forgive(phone string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.refuseTo, bare(phone))
}

// Hold makes every request wait, until release is called or its client
// gives up; requests are recorded as they arrive.
func (s *Server) Hold() (release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	hold, once := make(chan struct{}), &sync.Once{}
	s.hold, s.releaseOnce = hold, once
	return func() {
		once.Do(func() { close(hold) })
	}
}

// LoseAnswers creates the next n messages and drops the connection
// instead of answering: Twilio took the message, and the client never
// heard so.
func (s *Server) LoseAnswers(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lose += n
}

// Lists returns the queries of every message list asked for, in order.
func (s *Server) Lists() []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]url.Values, len(s.lists))
	for i, q := range s.lists {
		out[i] = cloneForm(q)
	}
	return out
}

// Delay makes every answer come d late (sooner if the client gives up).
func (s *Server) Delay(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delay = d
}

// Requests returns every request so far, in order of arrival.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.reqs)
	for i := range out {
		out[i].Form = cloneForm(out[i].Form)
	}
	return out
}

// Sent returns the forms of the messages Twilio accepted, in order.
func (s *Server) Sent() []url.Values {
	var out []url.Values
	for _, r := range s.Requests() {
		if r.SID != "" {
			out = append(out, r.Form)
		}
	}
	return out
}

// Refused returns the requests answered with an error.
func (s *Server) Refused() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Status >= 400 {
			out = append(out, r)
		}
	}
	return out
}

// To returns every request for phone (+E164), accepted or not.
func (s *Server) To(phone string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if bare(r.Form.Get("To")) == bare(phone) {
			out = append(out, r)
		}
	}
	return out
}

// Wait waits up to d for at least n requests to arrive and returns them.
func (s *Server) Wait(n int, d time.Duration) []Request {
	deadline := time.Now().Add(d)
	for {
		reqs := s.Requests()
		if len(reqs) >= n || time.Now().After(deadline) {
			return reqs
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if s.serveMedia(w, r) {
		return
	}
	user, pass, hasAuth := r.BasicAuth()
	if r.Method == http.MethodGet && r.URL.Path == s.prefix+"/2010-04-01/Accounts/"+s.sid+"/Messages.json" {
		s.list(w, r, user, pass, hasAuth)
		return
	}
	r.ParseForm()
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, ContentType: r.Header.Get("Content-Type"),
		User: user, Password: pass, HasAuth: hasAuth, Form: r.PostForm})
	n := len(s.reqs)
	hold, delay := s.hold, s.delay
	s.mu.Unlock()

	if hold != nil {
		select {
		case <-hold:
		case <-r.Context().Done():
			return
		}
	}
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}

	s.mu.Lock()
	a, sid := s.decide(r, n, user, pass, hasAuth)
	s.reqs[n-1].Status, s.reqs[n-1].SID = a.status, sid
	if sid != "" {
		s.reqs[n-1].Created = s.now()
	}
	lost := sid != "" && s.lose > 0
	if lost {
		s.lose--
		s.reqs[n-1].Lost = true
	}
	s.mu.Unlock()
	if lost {
		panic(http.ErrAbortHandler) // the connection drops with no answer
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.status)
	io.WriteString(w, a.body)
}

// decide answers the n-th request as Twilio would, given what the test
// programmed; s.mu is held.
func (s *Server) decide(r *http.Request, n int, user, pass string, hasAuth bool) (answer, string) {
	form := r.PostForm
	refuse := func(e Error) (answer, string) { return answer{e.Status, e.JSON()}, "" }
	switch {
	case r.Method != http.MethodPost || r.URL.Path != s.prefix+"/2010-04-01/Accounts/"+s.sid+"/Messages.json":
		return refuse(Error{404, 20404, "The requested resource " + r.URL.Path + " was not found"})
	case !hasAuth || user != s.sid || pass != s.token:
		return refuse(Unauthenticated)
	}
	if e, ok := s.refuseTo[bare(form.Get("To"))]; ok && !(e.Code == OutsideWindow.Code && form.Has("ContentSid")) {
		return refuse(e)
	}
	if len(s.next) > 0 {
		a := s.next[0]
		s.next = s.next[1:]
		if a.status != http.StatusCreated {
			return a, ""
		}
		if a.body != "" {
			return a, sidIn(a.body)
		}
	}
	// A message is text, media or a template; a template carries its own
	// text, so a Body beside it is a mistake.
	if form.Has("Body") && form.Has("ContentSid") || !form.Has("Body") && !form.Has("ContentSid") && !form.Has("MediaUrl") {
		return refuse(NoBody)
	}
	sid := MessageSID(n)
	return answer{http.StatusCreated, s.message(sid, form)}, sid
}

// list answers a message list as Twilio's does, newest first, filtered
// by To and From, one page of at most PageSize (default 50) at a time:
// next_page_uri names the next page (Page and PageToken) while there are
// more.
func (s *Server) list(w http.ResponseWriter, r *http.Request, user, pass string, hasAuth bool) {
	q := r.URL.Query()
	w.Header().Set("Content-Type", "application/json")
	s.mu.Lock()
	defer s.mu.Unlock()
	if !hasAuth || user != s.sid || pass != s.token {
		w.WriteHeader(Unauthenticated.Status)
		io.WriteString(w, Unauthenticated.JSON())
		return
	}
	s.lists = append(s.lists, q)
	size := 50
	if n, err := strconv.Atoi(q.Get("PageSize")); err == nil && n > 0 {
		size = min(n, 1000)
	}
	page, _ := strconv.Atoi(q.Get("Page"))
	// A page token is where the page before stopped: "PT" and the index
	// past the first request it did not list.
	from := len(s.reqs)
	if n, err := strconv.Atoi(strings.TrimPrefix(q.Get("PageToken"), "PT")); err == nil && n >= 0 && n < from {
		from = n
	}
	msgs := []map[string]any{}
	var next any // null: no next page
	for i := from - 1; i >= 0; i-- {
		m := s.reqs[i]
		if m.SID == "" || q.Has("To") && m.Form.Get("To") != q.Get("To") || q.Has("From") && m.Form.Get("From") != q.Get("From") {
			continue
		}
		if len(msgs) == size {
			nq := url.Values{"PageSize": {strconv.Itoa(size)}, "Page": {strconv.Itoa(page + 1)}, "PageToken": {fmt.Sprintf("PT%d", i+1)}}
			for _, k := range []string{"To", "From"} {
				if q.Has(k) {
					nq.Set(k, q.Get(k))
				}
			}
			next = r.URL.Path + "?" + nq.Encode()
			break
		}
		msgs = append(msgs, s.resource(m.SID, m.Form, m.Created, "sent"))
	}
	uri := r.URL.RequestURI()
	b, _ := json.Marshal(map[string]any{"messages": msgs, "end": page*size + len(msgs) - 1, "first_page_uri": uri,
		"next_page_uri": next, "page": page, "page_size": size, "previous_page_uri": nil, "start": page * size, "uri": uri})
	w.Write(b)
}

// message is Twilio's answer to a created message.
func (s *Server) message(sid string, form url.Values) string {
	b, _ := json.Marshal(s.resource(sid, form, s.now(), "queued"))
	return string(b)
}

// resource is a message as Twilio's API shows it. A template's body is
// its variables, as the text Twilio made of it would contain them.
func (s *Server) resource(sid string, form url.Values, created time.Time, status string) map[string]any {
	body := form.Get("Body")
	if form.Has("ContentSid") {
		var vars map[string]string
		json.Unmarshal([]byte(form.Get("ContentVariables")), &vars)
		keys := slices.Sorted(maps.Keys(vars))
		for _, k := range keys {
			body += vars[k] + " "
		}
	}
	return map[string]any{
		"account_sid":           s.sid,
		"api_version":           "2010-04-01",
		"body":                  body,
		"date_created":          created.UTC().Format(time.RFC1123Z),
		"date_sent":             nil,
		"date_updated":          created.UTC().Format(time.RFC1123Z),
		"direction":             "outbound-api",
		"error_code":            nil,
		"error_message":         nil,
		"from":                  form.Get("From"),
		"messaging_service_sid": nil,
		"num_media":             fmt.Sprint(len(form["MediaUrl"])),
		"num_segments":          "1",
		"price":                 nil,
		"price_unit":            "USD",
		"sid":                   sid,
		"status":                status,
		"subresource_uris":      map[string]string{"media": "/2010-04-01/Accounts/" + s.sid + "/Messages/" + sid + "/Media.json"},
		"to":                    form.Get("To"),
		"uri":                   "/2010-04-01/Accounts/" + s.sid + "/Messages/" + sid + ".json",
	}
}

// sidIn is the sid of a programmed success body, if it has one.
func sidIn(body string) string {
	var m struct {
		SID string `json:"sid"`
	}
	json.Unmarshal([]byte(body), &m)
	return m.SID
}

func bare(phone string) string { return strings.TrimPrefix(phone, "whatsapp:") }

func cloneForm(f url.Values) url.Values {
	out := make(url.Values, len(f))
	for k, v := range f {
		out[k] = slices.Clone(v)
	}
	return out
}
