package geminitest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
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
