package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/loadtest"
	"github.com/munshi/munshi/internal/redis/redistest"
	"github.com/munshi/munshi/internal/store/pgtest"
	"github.com/munshi/munshi/webhook"
)

// The throughput burst: throughputOwners owners at once, each asking
// throughputQuestions of the owners' questions (stock, dues, sales) in
// turn, every message signed as Twilio signs it.
const (
	throughputOwners    = 200
	throughputQuestions = 10
)

// TestThroughput measures, in one run on this machine, messages per
// second and the p99 of a burst of owners' questions against a bare Go
// handler that answers fixed TwiML (the ceiling of the machine and the
// load generator, which share its cores), one munshi serve on SQLite,
// one on PostgreSQL and three on one PostgreSQL database, each a
// separate process built by go build and sharing the tests' Redis. It
// runs only with MUNSHI_THROUGHPUT=1:
//
//	MUNSHI_THROUGHPUT=1 go test -run TestThroughput -v ./cmd/munshi/
func TestThroughput(t *testing.T) {
	if os.Getenv("MUNSHI_THROUGHPUT") != "1" {
		t.Skip("a measurement: run with MUNSHI_THROUGHPUT=1")
	}
	raw := redistest.Need(t)
	bin := buildMunshi(t)
	people := roster(throughputOwners, 2, 1)
	senders := loadtest.Mix{Questions: loadtest.DemoMix.Questions, PerOwner: throughputQuestions}.Senders(
		loadtest.Roster{Owners: people.Owners})
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		fmt.Fprint(w, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<Response><Message><Body>Got it</Body></Message></Response>`)
	}))
	t.Cleanup(bare.Close)
	runs := []struct {
		name    string
		targets func(t *testing.T) []string
	}{
		{"bare Go handler, fixed TwiML", func(*testing.T) []string { return []string{bare.URL} }},
		{"munshi, SQLite", func(t *testing.T) []string {
			return newCluster(t, bin, filepath.Join(t.TempDir(), "munshi.db"), redistest.Prefix(t, raw), 1, people).targets()
		}},
		{"munshi, PostgreSQL", func(t *testing.T) []string {
			return newCluster(t, bin, pgtest.NewDatabase(t), redistest.Prefix(t, raw), 1, people).targets()
		}},
		{"3 × munshi, one PostgreSQL", func(t *testing.T) []string {
			return newCluster(t, bin, pgtest.NewDatabase(t), redistest.Prefix(t, raw), 3, people).targets()
		}},
	}
	var table []string
	for _, run := range runs {
		t.Run(run.name, func(t *testing.T) {
			opts := loadtest.Options{Targets: run.targets(t), PublicURL: publicURL, AuthToken: testToken, AccountSID: testSID}
			// One question from each owner first, so that connections and
			// caches are warm: the burst measures answering, not starting.
			warm := make([]loadtest.Sender, len(senders))
			for i, s := range senders {
				warm[i] = loadtest.Sender{Phone: s.Phone, Messages: s.Messages[:1]}
			}
			if _, err := loadtest.Run(context.Background(), opts, warm); err != nil {
				t.Fatal(err)
			}
			r, err := loadtest.Run(context.Background(), opts, senders)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range r.Errors() {
				t.Errorf("%s at %s: %v", d.SID, d.Target, d.Err)
			}
			for _, m := range r.Messages {
				if d, ok := m.Answer(); !ok || d.Text() == "" || d.Text() == webhook.FailureReply || d.Text() == webhook.LateReply {
					t.Errorf("%s %q: answered %q", m.SID, m.Body, d.Text())
				}
			}
			t.Logf("%s: %s", run.name, r)
			table = append(table, fmt.Sprintf("| %s | %d | %.0f | %s | %s | %d |", run.name, len(r.Messages), r.Rate(),
				r.Percentile(0.5).Round(100_000), r.Percentile(0.99).Round(100_000), len(r.Errors())))
		})
	}
	t.Logf("a burst of owners' questions, %d owners × %d each:\n| target | messages | messages/s | p50 | p99 | errors |\n|---|---|---|---|---|---|\n%s",
		throughputOwners, throughputQuestions, strings.Join(table, "\n"))
}
