package health_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/munshi/munshi/internal/health"
)

func TestReadiness(t *testing.T) {
	ok := func(context.Context) error { return nil }
	down := func(context.Context) error { return errors.New("connection refused") }
	cases := []struct {
		name   string
		checks []health.Check
		code   int
		status string
	}{
		{"all up", []health.Check{{Name: "database", Probe: ok}, {Name: "redis", Probe: ok, Degraded: true}}, 200, "ok"},
		{"redis down", []health.Check{{Name: "database", Probe: ok}, {Name: "redis", Probe: down, Degraded: true}}, 200, "degraded"},
		{"database down", []health.Check{{Name: "database", Probe: down}, {Name: "redis", Probe: ok, Degraded: true}}, 503, "unavailable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mux := http.NewServeMux()
			(&health.Handler{Checks: c.checks}).Register(mux)
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
			var body struct {
				Status string
				Checks map[string]string
			}
			json.NewDecoder(rec.Body).Decode(&body)
			if rec.Code != c.code || body.Status != c.status || len(body.Checks) != len(c.checks) {
				t.Fatalf("%d %+v", rec.Code, body)
			}
		})
	}
	mux := http.NewServeMux()
	(&health.Handler{}).Register(mux)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	if rec.Code != 200 {
		t.Fatalf("healthz %d", rec.Code)
	}
}

func TestReadinessSaysWhyItIsDegraded(t *testing.T) {
	held := func(context.Context) error {
		return errors.New("authentication failed (Twilio 401) since 2026-11-30T10:00:00Z")
	}
	mux := http.NewServeMux()
	(&health.Handler{Checks: []health.Check{
		{Name: "database", Probe: func(context.Context) error { return nil }},
		{Name: "whatsapp", Probe: held, Degraded: true},
	}}).Register(mux)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
	var body struct {
		Status string
		Checks map[string]string
	}
	if err := json.NewDecoder(rec.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	want := "failing: authentication failed (Twilio 401) since 2026-11-30T10:00:00Z"
	if rec.Code != 200 || body.Status != "degraded" || body.Checks["whatsapp"] != want || body.Checks["database"] != "ok" {
		t.Errorf("/readyz = %d %+v; want 200, degraded, whatsapp %q", rec.Code, body, want)
	}
}

// TestReadinessNotes: a note is said beside the checks and changes no
// status; an empty one is left out.
func TestReadinessNotes(t *testing.T) {
	const note = "no MUNSHI_DIGEST_TEMPLATE_SID: people who have not written in 24 hours get the digest by email only"
	mux := http.NewServeMux()
	(&health.Handler{
		Checks: []health.Check{{Name: "database", Probe: func(context.Context) error { return nil }}},
		Notes:  []health.Note{{Name: "digest", Text: func() string { return note }}, {Name: "quiet", Text: func() string { return "" }}},
	}).Register(mux)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
	var body struct {
		Status string
		Notes  map[string]string
	}
	if err := json.NewDecoder(rec.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	if rec.Code != 200 || body.Status != "ok" || len(body.Notes) != 1 || body.Notes["digest"] != note {
		t.Errorf("/readyz = %d %+v; want 200, ok, and the digest's note alone", rec.Code, body)
	}
}
