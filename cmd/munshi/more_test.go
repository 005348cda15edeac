package main

import (
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/redis/redistest"
	"github.com/munshi/munshi/reports"
)

// stockRows are the product lines of a stock answer.
func stockRows(reply string) []string {
	var rows []string
	for _, l := range strings.Split(reply, "\n") {
		if strings.HasPrefix(l, "• ") && strings.Contains(l, " available") {
			rows = append(rows, l)
		}
	}
	return rows
}

// pageThrough asks for the whole catalog's stock on first and then says
// MORE to each of rest in turn, returning every product line shown and
// the last reply.
func pageThrough(t *testing.T, sid string, first *Main, rest ...*Main) ([]string, string) {
	t.Helper()
	reply := say(t, first, sid+"q", demo.OwnerPhone, "how much stock do we have?")
	if !strings.HasSuffix(reply, reports.MoreHint) {
		t.Fatalf("the catalog's stock fits in one message:\n%s", reply)
	}
	rows := stockRows(reply)
	for i, m := range rest {
		reply = say(t, m, sid+"m"+string(rune('a'+i)), demo.OwnerPhone, "MORE")
		page := stockRows(reply)
		if len(page) == 0 {
			t.Fatalf("MORE %d continued nothing:\n%s", i+1, reply)
		}
		rows = append(rows, page...)
	}
	return rows, reply
}

// wantEveryProductOnce checks that pages showed each demo product once.
func wantEveryProductOnce(t *testing.T, m *Main, rows []string) {
	t.Helper()
	products, err := m.Store.Products(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r] {
			t.Errorf("shown twice: %s", r)
		}
		seen[r] = true
	}
	if len(rows) != len(products) {
		t.Fatalf("the pages showed %d products, the catalog has %d:\n%s", len(rows), len(products), strings.Join(rows, "\n"))
	}
}

// TestMoreWithEachMemory: MORE continues a long answer through the
// conversation memory, in the process and in Redis alike, and stops at
// the end.
func TestMoreWithEachMemory(t *testing.T) {
	memoryBackends(t, func(t *testing.T, mb memoryBackend) {
		m := startMain(t, newFakeTwilio(t).URL, mb.env)
		rows, last := pageThrough(t, "SMmore", m, m)
		if strings.HasSuffix(last, reports.MoreHint) {
			t.Fatalf("the demo catalog needs more than two pages:\n%s", last)
		}
		wantEveryProductOnce(t, m, rows)
		if r := say(t, m, "SMmore-end", demo.OwnerPhone, "MORE"); len(stockRows(r)) > 0 {
			t.Fatalf("MORE continued past the end:\n%s", r)
		}
	})
}

// TestMoreOnAnotherInstance: with two instances on one Redis, the MORE
// that reaches the other instance continues where the first answer
// stopped; and a MORE from someone else continues nothing of it.
func TestMoreOnAnotherInstance(t *testing.T) {
	env := map[string]string{"REDIS_URL": redistest.URL(), "MUNSHI_REDIS_PREFIX": redistest.Prefix(t, redistest.Need(t))}
	tw := newFakeTwilio(t)
	a, b := startMain(t, tw.URL, env), startMain(t, tw.URL, env)
	rows, _ := pageThrough(t, "SMtwo", a, b)
	wantEveryProductOnce(t, a, rows)

	say(t, a, "SMtwo-again", demo.OwnerPhone, "how much stock do we have?")
	if r := say(t, b, "SMtwo-other", demo.AccountsPhone, "MORE"); len(stockRows(r)) > 0 {
		t.Fatalf("MORE from accounts continued the owner's answer:\n%s", r)
	}
	// A new, complete answer ends the continuation on every instance.
	say(t, b, "SMtwo-gc", demo.OwnerPhone, "GC ka stock kitna hai")
	if r := say(t, a, "SMtwo-after", demo.OwnerPhone, "MORE"); len(stockRows(r)) > 0 {
		t.Fatalf("MORE continued an answer that had no more:\n%s", r)
	}
}
