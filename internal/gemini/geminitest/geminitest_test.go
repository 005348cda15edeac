package geminitest_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/gemini/geminitest"
)

func generate(ctx context.Context, t *testing.T, s *geminitest.Server, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/v1beta/models/"+geminitest.Model+":generateContent", strings.NewReader(body))
	req.Header.Set("x-goog-api-key", geminitest.APIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("answer is not JSON: %v", err)
	}
	return resp.StatusCode, out
}

func TestScriptedAnswers(t *testing.T) {
	s := geminitest.Start(t, geminitest.Text("hello"), geminitest.Quota)
	ctx := context.Background()
	const req = `{"systemInstruction":{"parts":[{"text":"rules"}]},"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`
	code, body := generate(ctx, t, s, req)
	cand := body["candidates"].([]any)[0].(map[string]any)
	text := cand["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)["text"]
	usage := body["usageMetadata"].(map[string]any)
	if code != 200 || text != "hello" || cand["finishReason"] != "STOP" || usage["promptTokenCount"] != 120.0 {
		t.Errorf("text answer: %d %v", code, body)
	}
	for range 2 { // the last answer repeats
		code, body = generate(ctx, t, s, req)
		e := body["error"].(map[string]any)
		if code != 429 || e["code"] != 429.0 || e["status"] != "RESOURCE_EXHAUSTED" {
			t.Errorf("quota: %d %v", code, body)
		}
	}
	if s.Hits() != 3 || s.SystemInstruction(0) != `{"parts":[{"text":"rules"}]}` || s.Contents(2)[0].Parts[0].Text != "hi" {
		t.Errorf("recorded %d requests: %s %+v", s.Hits(), s.SystemInstruction(0), s.Contents(2))
	}
}

func TestDelayAndHang(t *testing.T) {
	s := geminitest.Start(t, geminitest.Answer{Delay: time.Hour, Body: "{}"})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-s.Arrived(); cancel() }()
	if code, _ := generate(ctx, t, s, "{}"); code != 0 {
		t.Errorf("a delayed answer came (%d) before its client gave up", code)
	}
	hang := geminitest.Text("late")
	hang.Hang = true
	s.Script(hang)
	s.ForgetArrivals()
	go func() { <-s.Arrived(); s.Release() }()
	if code, _ := generate(context.Background(), t, s, "{}"); code != 200 {
		t.Errorf("released: %d", code)
	}
}

func TestInlineData(t *testing.T) {
	s := geminitest.Start(t, geminitest.Text("heard"))
	audio, photo := []byte("OggS\x00\x02\xff\xfe"), []byte("\x89PNG\r\n\x1a\n")
	req := fmt.Sprintf(`{"contents":[{"role":"user","parts":[{"text":"label:\n{}"},{"inlineData":{"data":%q,"mimeType":"audio/ogg"}}]},`+
		`{"role":"user","parts":[{"inlineData":{"mimeType":"image/png","data":%q}}]}]}`,
		base64.StdEncoding.EncodeToString(audio), base64.StdEncoding.EncodeToString(photo))
	if code, _ := generate(context.Background(), t, s, req); code != 200 {
		t.Fatalf("status %d", code)
	}
	got := s.InlineData(0)
	if len(got) != 2 || got[0].MIMEType != "audio/ogg" || !bytes.Equal(got[0].Data, audio) ||
		got[1].MIMEType != "image/png" || !bytes.Equal(got[1].Data, photo) {
		t.Fatalf("inline data %+v", got)
	}
	if parts := s.Contents(0)[0].Parts; parts[0].InlineData != nil || parts[1].InlineData == nil || parts[1].Text != "" {
		t.Fatalf("parts %+v", parts)
	}
}

// errorsOf is a test that keeps the fake's complaints instead of failing.
type errorsOf struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (e *errorsOf) Errorf(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.errs = append(e.errs, fmt.Sprintf(format, args...))
}

// An inline file Gemini would refuse is refused as Gemini does, and the
// test that sent it fails.
func TestBadInlineDataIsRefused(t *testing.T) {
	for name, part := range map[string]string{
		"no media type": `{"inlineData":{"data":"AAEC"}}`,
		"no bytes":      `{"inlineData":{"mimeType":"audio/ogg","data":""}}`,
		"not base64":    `{"inlineData":{"mimeType":"audio/ogg","data":"**not base64**"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			tb := &errorsOf{TB: t}
			s := geminitest.Start(tb)
			code, body := generate(context.Background(), t, s, `{"contents":[{"role":"user","parts":[`+part+`]}]}`)
			e, _ := body["error"].(map[string]any)
			if code != 400 || e["status"] != "INVALID_ARGUMENT" || len(tb.errs) != 1 || s.Hits() != 0 {
				t.Fatalf("answered %d %v; complaints %q; hits %d", code, body, tb.errs, s.Hits())
			}
		})
	}
}
