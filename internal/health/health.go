package health

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// Check is one dependency probe. A Degraded check failing marks the service
// degraded but still ready: Munshi answers without it.
type Check struct {
	Name     string
	Probe    func(ctx context.Context) error
	Degraded bool
}

// Note is something an operator should know that is no failure: the
// service is as ready with it as without ("no digest template: email
// only"). Text returns "" when there is nothing to say.
type Note struct {
	Name string
	Text func() string
}

// Handler serves the health routes.
type Handler struct {
	Checks  []Check
	Notes   []Note
	Timeout time.Duration
}

// Register adds the routes to mux.
func (h *Handler) Register(mux *http.ServeMux) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", h.ready)
}

func (h *Handler) ready(w http.ResponseWriter, r *http.Request) {
	timeout := h.Timeout
	if timeout == 0 {
		timeout = 2 * time.Second
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	status, code := "ok", http.StatusOK
	checks := map[string]string{}
	for _, c := range h.Checks {
		if err := c.Probe(ctx); err != nil {
			checks[c.Name] = "failing: " + err.Error()
			if c.Degraded {
				if status == "ok" {
					status = "degraded"
				}
			} else {
				status, code = "unavailable", http.StatusServiceUnavailable
			}
			continue
		}
		checks[c.Name] = "ok"
	}
	body := map[string]any{"status": status, "checks": checks}
	notes := map[string]string{}
	for _, n := range h.Notes {
		if text := n.Text(); text != "" {
			notes[n.Name] = text
		}
	}
	if len(notes) > 0 {
		body["notes"] = notes
	}
	writeJSON(w, code, body)
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}
