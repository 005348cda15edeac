package digest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/gemini"
	"github.com/munshi/munshi/internal/gemini/geminitest"
	"github.com/munshi/munshi/reports/digest"
	"github.com/munshi/munshi/reports/digest/digesttest"
)

// fakeGemini answers every request with text, or, with hang, holds the
// request until the client gives up.
func fakeGemini(t *testing.T, text string, hang bool) (*gemini.Client, *geminitest.Server) {
	t.Helper()
	a := geminitest.Text(text)
	a.Hang = hang
	g := geminitest.Start(t, a)
	c, err := gemini.New(gemini.Config{APIKey: geminitest.APIKey, Model: geminitest.Model, BaseURL: g.URL})
	if err != nil {
		t.Fatal(err)
	}
	return c, g
}

func composeWith(t *testing.T, n digest.Narrator, timeout time.Duration) digest.Edition {
	t.Helper()
	o := opts
	o.Narrator, o.NarrativeTimeout = n, timeout
	done := make(chan digest.Edition, 1)
	go func() {
		e, err := digest.Compose(ctx, knownBooks(t), digesttest.D, o)
		if err != nil {
			t.Error(err)
		}
		done <- e
	}()
	select {
	case e := <-done:
		return e
	case <-time.After(time.Minute): // a guard against a hang, not a measurement
		t.Fatal("Compose did not return")
		return digest.Edition{}
	}
}

func TestNarrativeFromTheFactsIsUsed(t *testing.T) {
	text := "Tuesday brought ₹9,000 in sales, 244% above a usual Tuesday of ₹2,615. The week so far is up 800% on last week, and the month 200%."
	c, n := fakeGemini(t, text, false)
	e := composeWith(t, c, 0)
	if n.Hits() != 1 || !e.Narrated || !strings.Contains(e.OwnerText, text) || strings.Contains(e.OwnerText, "Week so far") {
		t.Fatalf("narrated %v (%s), %d requests:\n%s", e.Narrated, e.NarrativeNote, n.Hits(), e.OwnerText)
	}
	// The headline of the template stays the deterministic one.
	if !strings.HasPrefix(e.Headline, "Tue 3 Mar: sales ₹9,000") || !strings.Contains(e.OwnerMail.Text, text) {
		t.Fatalf("headline %q", e.Headline)
	}
}

func TestNarrativeWithANumberNotInTheFactsIsRejected(t *testing.T) {
	// ₹9,500 and 250% are nowhere in the facts.
	c, n := fakeGemini(t, "Sales reached ₹9,500, up 250% on a usual Tuesday.", false)
	e := composeWith(t, c, 0)
	if n.Hits() != 1 || e.Narrated || !strings.Contains(e.NarrativeNote, "rejected") {
		t.Fatalf("narrated %v: %s", e.Narrated, e.NarrativeNote)
	}
	if !strings.Contains(e.OwnerText, "Tue 3 Mar: sales ₹9,000 before GST") || !strings.Contains(e.OwnerText, "Week so far ₹9,000") ||
		strings.Contains(e.OwnerText, "9,500") {
		t.Fatalf("the deterministic opening should stand:\n%s", e.OwnerText)
	}
}

func TestNarrativeCheck(t *testing.T) {
	f, err := digest.Build(ctx, knownBooks(t), digesttest.D, opts)
	if err != nil {
		t.Fatal(err)
	}
	facts := digest.FactsJSON(f)
	for _, c := range []struct {
		text string
		ok   bool
	}{
		{"Sales were ₹9,000 from 3 orders on Tuesday 3 March 2026.", true},
		{"Sales were 9000 rupees.", true}, // the same figure, written without grouping
		{"The usual Tuesday is ₹2,615; the 13 weeks ran ₹0 to ₹21,000.", true},
		{"Sales were ₹9,001.", false},
		{"Sales will reach ₹20,000 next Tuesday.", false},
		{"One. Two. Three. Four.", false}, // more than three sentences
		{"*Great* day: ₹9,000.", false},   // markdown
		{"", false},
		{strings.Repeat("Sales were ₹9,000. ", 30), false},
	} {
		if _, ok := digest.CheckNarrative(c.text, facts); ok != c.ok {
			t.Errorf("%q: ok %v, want %v", c.text, ok, c.ok)
		}
	}
}

func TestHangingModelLeavesTheDeterministicBrief(t *testing.T) {
	c, n := fakeGemini(t, "", true)
	e := composeWith(t, c, 1500*time.Millisecond)
	if n.Hits() != 1 || e.Narrated || e.NarrativeNote == "" || !strings.Contains(e.OwnerText, "Week so far ₹9,000") {
		t.Fatalf("narrated %v (%s), %d requests:\n%s", e.Narrated, e.NarrativeNote, n.Hits(), e.OwnerText)
	}
}

// stuck is a narrator that ignores its context.
type stuck struct{ release chan struct{} }

func (s stuck) Narrate(context.Context, []byte) (string, error) {
	<-s.release
	return "Sales were ₹9,000.", nil
}

func TestNarratorIgnoringItsDeadlineDoesNotHoldTheDigest(t *testing.T) {
	s := stuck{release: make(chan struct{})}
	defer close(s.release)
	e := composeWith(t, s, 100*time.Millisecond)
	if e.Narrated || e.NarrativeNote != "model too slow" {
		t.Fatalf("narrated %v: %s", e.Narrated, e.NarrativeNote)
	}
}
