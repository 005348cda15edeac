package geminitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// The key and model a Server answers by default.
const (
	APIKey = "test-key-7Qz4"
	Model  = "gemini-test"
)

// Answer is what the server answers one request with.
type Answer struct {
	Status int    // HTTP status; 0 is 200
	Body   string // Gemini's JSON
	// Hang holds the request until its client gives up or Release;
	// Delay holds it that long first (less if the client gives up).
	Hang  bool
	Delay time.Duration
}

// Part is one part of a candidate's content, as Gemini writes it.
type Part = map[string]any

// TextPart is a part holding text.
func TextPart(text string) Part { return Part{"text": text} }

// Call is a part asking for a function call.
func Call(name string, args map[string]any) Part {
	return Part{"functionCall": map[string]any{"name": name, "args": args}}
}

// Usage is a response's token counts.
type Usage struct{ Prompt, Response int }

// DefaultUsage is what Text and Parts report.
var DefaultUsage = Usage{Prompt: 120, Response: 8}

// Response is an answer with one candidate of parts, finished for finish
// (STOP, MAX_TOKENS, SAFETY, MALFORMED_FUNCTION_CALL…), that used u.
func Response(finish string, u Usage, parts ...Part) Answer {
	b, _ := json.Marshal(map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": parts},
			"finishReason": finish,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": u.Prompt, "candidatesTokenCount": u.Response, "totalTokenCount": u.Prompt + u.Response},
	})
	return Answer{Body: string(b)}
}

// Parts is Response with DefaultUsage.
func Parts(finish string, parts ...Part) Answer { return Response(finish, DefaultUsage, parts...) }

// Text is a finished answer with one text part.
func Text(text string) Answer { return Parts("STOP", TextPart(text)) }

// Error is Google's error answer: code is the HTTP status, status its name
// (INVALID_ARGUMENT, RESOURCE_EXHAUSTED, UNAVAILABLE…).
func Error(code int, status, message string) Answer {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": code, "message": message, "status": status}})
	return Answer{Status: code, Body: string(b)}
}

// The failures met most.
var (
	ServerError = Error(500, "INTERNAL", "internal error")
	Quota       = Error(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).")
)

// Content is one turn of a request's contents.
type Content struct {
	Role  string `json:"role"`
	Parts []struct {
		Text             string           `json:"text"`
		InlineData       *Blob            `json:"inlineData"`
		FunctionCall     *json.RawMessage `json:"functionCall"`
		FunctionResponse *json.RawMessage `json:"functionResponse"`
	} `json:"parts"`
}

// Blob is a file sent inline in a request part, as Gemini reads it:
// "inlineData":{"mimeType":"audio/ogg","data":"<standard base64>"}. Data
// is decoded: the file's own bytes.
type Blob struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"data"`
}

// Server is a running fake Gemini.
type Server struct {
	URL string

	t       testing.TB
	srv     *httptest.Server
	mu      sync.Mutex
	script  []Answer // request i gets script[min(i, len-1)] since the last Script
	served  int
	bodies  []map[string]json.RawMessage
	arrived chan struct{}
	release chan struct{}
	once    sync.Once
}

// Start listens on 127.0.0.1 and stops when the test ends, letting hung
// requests go first. With no answers scripted every request gets
// Text(`{"intent":"unknown","confidence":0.5}`).
func Start(t testing.TB, script ...Answer) *Server {
	t.Helper()
	s := &Server{t: t, script: script, arrived: make(chan struct{}, 64), release: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	t.Cleanup(s.Release) // runs first: frees hung handlers
	return s
}

// Close stops the server: nothing listens at URL.
func (s *Server) Close() {
	s.Release()
	s.srv.Close()
}

// Release lets every hung request, now and later, answer.
func (s *Server) Release() { s.once.Do(func() { close(s.release) }) }

// Script replaces the answers; the next request gets the first, and the
// last repeats.
func (s *Server) Script(answers ...Answer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script, s.served = answers, 0
}

// Arrived hears of each request as it arrives (up to 64 unheard).
func (s *Server) Arrived() <-chan struct{} { return s.arrived }

// ForgetArrivals drops the arrivals not yet heard.
func (s *Server) ForgetArrivals() {
	for {
		select {
		case <-s.arrived:
		default:
			return
		}
	}
}

// Hits is the number of requests so far.
func (s *Server) Hits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

// Body is request i's JSON body, by field.
func (s *Server) Body(i int) map[string]json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies[i]
}

// SystemInstruction is the raw bytes of request i's system instruction.
func (s *Server) SystemInstruction(i int) string { return string(s.Body(i)["systemInstruction"]) }

// Contents is request i's contents.
func (s *Server) Contents(i int) []Content {
	var cs []Content
	if err := json.Unmarshal(s.Body(i)["contents"], &cs); err != nil {
		s.t.Fatalf("geminitest: contents of request %d: %v", i, err)
	}
	return cs
}

// Data decodes into v the JSON of request i's part labelled label (the
// way Munshi sends data: "Label (data):" and one JSON value), strictly:
// no unknown field, one value. It fails the test when there is none.
func (s *Server) Data(i int, label string, v any) {
	s.t.Helper()
	for _, c := range s.Contents(i) {
		for _, p := range c.Parts {
			if rest, ok := strings.CutPrefix(p.Text, label+":\n"); ok {
				dec := json.NewDecoder(strings.NewReader(rest))
				dec.DisallowUnknownFields()
				if err := dec.Decode(v); err != nil {
					s.t.Fatalf("geminitest: part %q: %v", p.Text, err)
				}
				if dec.More() {
					s.t.Fatalf("geminitest: part %q has more than one JSON value", p.Text)
				}
				return
			}
		}
	}
	s.t.Fatalf("geminitest: no part labelled %q in request %d", label, i)
}

// InlineData is every file request i carried inline, in the order of its
// contents and parts.
func (s *Server) InlineData(i int) []Blob {
	var blobs []Blob
	for _, c := range s.Contents(i) {
		for _, p := range c.Parts {
			if p.InlineData != nil {
				blobs = append(blobs, *p.InlineData)
			}
		}
	}
	return blobs
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if want := "/v1beta/models/" + Model + ":generateContent"; r.Method != http.MethodPost || r.URL.Path != want {
		s.t.Errorf("geminitest: request %s %s, want POST %s", r.Method, r.URL.Path, want)
		s.refuse(w, Error(404, "NOT_FOUND", "models/"+Model+" is not found for API version v1beta, or is not supported for generateContent."))
		return
	}
	if r.URL.Query().Has("key") {
		s.t.Error("geminitest: the key must not travel in the URL")
	}
	if got := r.Header.Get("x-goog-api-key"); got != APIKey {
		s.t.Errorf("geminitest: x-goog-api-key %q", got)
		s.refuse(w, Error(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key."))
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		s.t.Errorf("geminitest: request body: %v", err)
	}
	if msg := badInlineData(body["contents"]); msg != "" {
		s.t.Errorf("geminitest: %s", msg)
		s.refuse(w, Error(400, "INVALID_ARGUMENT", msg))
		return
	}
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	a := Text(`{"intent":"unknown","confidence":0.5}`)
	if len(s.script) > 0 {
		a = s.script[min(s.served, len(s.script)-1)]
	}
	s.served++
	s.mu.Unlock()
	select {
	case s.arrived <- struct{}{}:
	default:
	}

	if a.Delay > 0 {
		select {
		case <-r.Context().Done():
			return
		case <-time.After(a.Delay):
		}
	}
	if a.Hang {
		select {
		case <-r.Context().Done():
			return
		case <-s.release:
		}
	}
	if a.Status != 0 {
		w.WriteHeader(a.Status)
	}
	io.WriteString(w, a.Body)
}

func (s *Server) refuse(w http.ResponseWriter, a Answer) {
	w.WriteHeader(a.Status)
	io.WriteString(w, a.Body)
}

// badInlineData says what Gemini would refuse in a request's inline files:
// data that is not base64, or a file with no bytes or no media type. ""
// when there is nothing to refuse.
func badInlineData(contents json.RawMessage) string {
	if contents == nil {
		return ""
	}
	var cs []Content
	if err := json.Unmarshal(contents, &cs); err != nil {
		return "Invalid value at 'contents': " + err.Error()
	}
	for i, c := range cs {
		for j, p := range c.Parts {
			if b := p.InlineData; b != nil && (b.MIMEType == "" || len(b.Data) == 0) {
				return fmt.Sprintf("contents[%d].parts[%d].inline_data: a mime type and data are required", i, j)
			}
		}
	}
	return ""
}
