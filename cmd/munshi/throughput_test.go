package main

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/loadtest"
	"github.com/munshi/munshi/internal/redis/redistest"
	"github.com/munshi/munshi/internal/store/pgtest"
	"github.com/munshi/munshi/webhook"
)

// The throughput burst: throughputOwners owners at once, each asking
// throughputQuestions of the owners' questions (stock, dues, sales) in
// turn, every message signed as Twilio signs it. 8,000 messages keep
// even the bare handler busy for about half a second, so that its rate
// is not a start-up's.
const (
	throughputOwners    = 200
	throughputQuestions = 40
)

// throughputShares are the shares of the bare handler's rate at which
// the open loop offers the same burst to each Munshi: the rate one
// instance is to serve (12%), and half of it, with the latency each has.
var throughputShares = []float64{0.06, 0.12}

// throughputPool is MUNSHI_DB_POOL of each of the three instances: the
// dozen connections one PostgreSQL on these cores serves best, shared
// out, rather than three times one instance's ten.
const throughputPool = 4

// TestThroughput measures, in one run on this machine, a burst of
// owners' questions against a bare Go handler that answers fixed TwiML
// (the ceiling of the machine and the load generator, which share its
// cores), one munshi serve on SQLite, one on PostgreSQL and three on one
// PostgreSQL database, each a separate process built by go build and
// sharing the tests' Redis. Each gets the burst in a closed loop (every
// owner sends the next question once the last is answered, so 200 are
// always in flight: the most it answers a second), then in an open loop
// at each of throughputShares of the bare handler's rate (the latency at
// that load, counted from when each message was due). It runs only with
// MUNSHI_THROUGHPUT=1:
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
		{"munshi, SQLite, in-process memory", func(t *testing.T) []string {
			return newCluster(t, bin, filepath.Join(t.TempDir(), "munshi.db"), "", 1, people, "REDIS_URL", "").targets()
		}},
		{"munshi, SQLite, Redis memory", func(t *testing.T) []string {
			return newCluster(t, bin, filepath.Join(t.TempDir(), "munshi.db"), redistest.Prefix(t, raw), 1, people).targets()
		}},
		{"munshi, PostgreSQL", func(t *testing.T) []string {
			return newCluster(t, bin, pgtest.NewDatabase(t), redistest.Prefix(t, raw), 1, people).targets()
		}},
		{fmt.Sprintf("3 × munshi (MUNSHI_DB_POOL=%d), one PostgreSQL", throughputPool), func(t *testing.T) []string {
			return newCluster(t, bin, pgtest.NewDatabase(t), redistest.Prefix(t, raw), 3, people,
				"MUNSHI_DB_POOL", strconv.Itoa(throughputPool)).targets()
		}},
	}
	burst := func(t *testing.T, opts loadtest.Options) *loadtest.Report {
		t.Helper()
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
		return r
	}
	bareOpts := loadtest.Options{Targets: []string{bare.URL}, PublicURL: publicURL, AuthToken: testToken, AccountSID: testSID}
	ceiling := burst(t, bareOpts)
	var table []string
	row := func(name, loop string, offered float64, r *loadtest.Report) {
		o := "—"
		if offered > 0 {
			o = fmt.Sprintf("%.0f", offered)
		}
		table = append(table, fmt.Sprintf("| %s | %s | %s | %.0f | %.1f%% | %s | %s |", name, loop, o, r.Rate(),
			100*r.Rate()/ceiling.Rate(), r.Percentile(0.5).Round(100_000), r.Percentile(0.99).Round(100_000)))
	}
	// measure reports the closed loop's run, then gives opts each open one.
	measure := func(t *testing.T, name string, opts loadtest.Options, closed *loadtest.Report) {
		row(name, "closed", 0, closed)
		for _, share := range throughputShares {
			opts.Rate = math.Round(share * ceiling.Rate())
			open := burst(t, opts)
			t.Logf("%s: open loop at %.0f/s: %s", name, opts.Rate, open)
			row(name, "open", opts.Rate, open)
		}
	}
	measure(t, "bare Go handler, fixed TwiML", bareOpts, ceiling)
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
			measure(t, run.name, opts, burst(t, opts))
		})
	}
	t.Logf("a burst of owners' questions, %d owners × %d each (%d messages, every one answered):\n"+
		"| target | loop | offered/s | answered/s | of the ceiling | p50 | p99 |\n|---|---|---|---|---|---|---|\n%s",
		throughputOwners, throughputQuestions, len(senders)*throughputQuestions, strings.Join(table, "\n"))
}
