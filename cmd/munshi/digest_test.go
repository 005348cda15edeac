package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports/digest/digesttest"
)

func TestDigestCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "m.db")
	s, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if err := digesttest.Known(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	s.Close()
	env := map[string]string{"MUNSHI_DB": db}
	out, _, err := cli(t, env, "", "digest", "--date", "2026-03-03")
	if err != nil {
		t.Fatal(err)
	}
	owner, accounts, ok := strings.Cut(out, "----- accounts -----")
	if !ok || !strings.HasPrefix(owner, "*Munshi digest · Tue 3 Mar*\nTue 3 Mar: sales ₹9,000 before GST from 3 orders") ||
		!strings.Contains(owner, "2. Chase Ravi Wholesale") || !strings.Contains(accounts, "*Munshi dues · Tue 3 Mar*") {
		t.Fatalf("digest:\n%s", out)
	}
	// In another zone the same date is another stretch of time: in London
	// TAR's 00:15 IST order falls on 2 March and the 00:30 IST one of 4
	// March on the 3rd: ₹5,000 + ₹2,500 + ₹7,777.
	out, _, err = cli(t, map[string]string{"MUNSHI_DB": db, "MUNSHI_TZ": "Europe/London"}, "", "digest", "--date", "2026-03-03")
	if err != nil || !strings.Contains(out, "sales ₹15,277 before GST from 3 orders") {
		t.Fatalf("in London: %v\n%s", err, out)
	}

	for _, args := range [][]string{{"digest", "--date", "3/3/2026"}, {"digest", "extra"}, {"digest", "--bogus"}} {
		if _, _, err := cli(t, env, "", args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}

func TestDigestOfTheDemo(t *testing.T) {
	env := map[string]string{"MUNSHI_DB": filepath.Join(t.TempDir(), "m.db")}
	out, _, err := cli(t, env, "", "digest", "--demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"*Munshi digest · ", "Big order: Gupta Supermart", "*Today*", "1. ", "Stock: ", "Floor Mop", "Waiting: 1 order undelivered",
		"*Munshi dues · ", "Received ", "Due now "} {
		if !strings.Contains(out, want) {
			t.Errorf("demo digest lacks %q:\n%s", want, out)
		}
	}
}
