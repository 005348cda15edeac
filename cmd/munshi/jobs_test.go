package main

import (
	"context"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/outbox"
)

// claimWatch tells a test each time the dispatcher looks for due messages.
type claimWatch struct {
	outbox.Store
	claims chan int
}

func (w claimWatch) ClaimDue(ctx context.Context, limit int, lease time.Duration) ([]outbox.Message, error) {
	msgs, err := w.Store.ClaimDue(ctx, limit, lease)
	w.claims <- len(msgs)
	return msgs, err
}

// TestScheduledOutboxWakesOnNudge: the outbox dispatcher runs on the
// server's scheduler: it looks once at start, and a nudge (what a commit
// does) sends a new message at once, without waiting for its poll.
func TestScheduledOutboxWakesOnNudge(t *testing.T) {
	tw := newFakeTwilio(t)
	claims := make(chan int, 64)
	m := startMain(t, tw.URL, nil, func(m *Main) {
		m.Dispatcher.Poll = time.Hour // only a nudge can wake it after the first pass
		m.Dispatcher.Store = claimWatch{m.Dispatcher.Store, claims}
	})
	if n := nextClaim(t, claims, "at start"); n != 0 {
		t.Fatalf("the first pass claimed %d messages, want 0", n)
	}
	ctx := context.Background()
	msg := domain.Outbound{To: demo.AccountsPhone, Body: "Order ORD-2002 approved: ₹2,000"}
	if err := m.Store.Enqueue(ctx, domain.WhatsApp(msg)); err != nil {
		t.Fatal(err)
	}
	m.Dispatcher.Nudge()
	if n := nextClaim(t, claims, "after a nudge"); n != 1 {
		t.Fatalf("the nudged pass claimed %d messages, want 1", n)
	}
	deadline := time.Now().Add(time.Minute)
	for len(tw.Sent()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := tw.Sent(); len(got) != 1 || got[0].Get("Body") != msg.Body {
		t.Fatalf("Twilio received %v, want the one message", got)
	}
}

// nextClaim waits for the dispatcher's next look for due messages.
func nextClaim(t *testing.T, claims <-chan int, when string) int {
	t.Helper()
	select {
	case n := <-claims:
		return n
	case <-time.After(time.Minute):
		t.Fatalf("the dispatcher did not look for work %s", when)
		return 0
	}
}
