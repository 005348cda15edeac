package main

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/redis/redistest"
)

// lateOrder is the order a crash left claimed and unanswered in the
// recovery tests.
const lateOrder = "Rajesh ke liye 10 carton glass cleaner aur 10 pack phenyl bhej do, cash on delivery"

// crashedAt is when the crashed instance claimed it: 10:42 in Kolkata.
var crashedAt = time.Date(2026, 3, 13, 10, 42, 0, 0, domain.DefaultLocation())

// claimAndDie records lateOrder as claimed by m, as an instance does the
// moment before it is killed: the reply is never saved.
func claimAndDie(t *testing.T, m *Main, sid string) {
	t.Helper()
	claimed, _, _, err := m.Store.Claim(context.Background(),
		domain.Inbound{SID: sid, From: demo.SalesPhone, Body: lateOrder}, m.Pipeline.Lease())
	if err != nil || !claimed {
		t.Fatalf("claim: %v %v", claimed, err)
	}
}

// restRepliesTo is what the fake Twilio was asked to send to phone by
// REST (the late answers and notices; TwiML replies are not among them).
func restRepliesTo(tw *fakeTwilio, phone string) []string {
	var out []string
	for _, f := range tw.Sent() {
		if f.Get("To") == "whatsapp:"+phone {
			out = append(out, f.Get("Body"))
		}
	}
	return out
}

// resendAndConfirm sends lateOrder again with a new MessageSid on m and
// confirms it: one order.
func resendAndConfirm(t *testing.T, m *Main, clk *testClock, tag string) {
	t.Helper()
	clk.Advance(time.Minute)
	mustContain(t, "the order sent again", say(t, m, tag+"again", demo.SalesPhone, lateOrder), "Reply *ok*")
	clk.Advance(time.Minute)
	mustContain(t, "the ok", say(t, m, tag+"ok", demo.SalesPhone, "ok"), "placed for")
}

// assertToldNotProcessed checks that the recovery told the salesperson,
// once, that the 10:42 message was not processed, quoting it shortened,
// and sent nothing to confirm; a further "ok" places nothing.
func assertToldNotProcessed(t *testing.T, on *Main, tw *fakeTwilio, before int, sid string) {
	t.Helper()
	notice := waitFor(t, tw, demo.SalesPhone, "was not processed")
	mustContain(t, "the notice", notice, "13 Mar, 10:42", "“Rajesh ke liye 10 carton glass cleaner aur 10 pack phenyl bh…”", "send it again")
	for _, body := range restRepliesTo(tw, demo.SalesPhone) {
		if strings.Contains(body, "Reply *ok*") {
			t.Fatalf("the recovery sent a summary to confirm: %s", body)
		}
	}
	if n := countTo(tw, demo.SalesPhone, "was not processed"); n != 1 {
		t.Fatalf("told %d times", n)
	}
	on.recoverUnanswered(context.Background())
	if n := countTo(tw, demo.SalesPhone, "was not processed"); n != 1 {
		t.Fatalf("told %d times after a second recovery round", n)
	}
	mustContain(t, "a further ok", say(t, on, sid+"ok2", demo.SalesPhone, "ok"), "already placed")
	if n := countOrders(t, on) - before; n != 1 {
		t.Fatalf("%d orders placed, want 1", n)
	}
	if n := auditCount(t, on, "recovery", sid); n != 1 {
		t.Fatalf("%d recovery entries", n)
	}
}

// TestRecoveryDoesNotActOnAnOvertakenMessage: an instance claims an order
// and dies; the salesperson sends the order again and says "ok" (one
// order). Once the dead claim runs out the recovery only tells them the
// 10:42 message was not processed: no summary to confirm reaches them, and
// a further "ok" places nothing. It holds on one instance, on two sharing
// the database (the later messages answered by the other), and on two
// with databases of their own sharing Redis memory.
func TestRecoveryDoesNotActOnAnOvertakenMessage(t *testing.T) {
	t.Run("one instance", func(t *testing.T) {
		clk := &testClock{fixed: crashedAt}
		tw := newFakeTwilio(t)
		m := startMainAt(t, clk.Now, tw.URL, nil)
		before := countOrders(t, m)
		claimAndDie(t, m, "SMlate1")
		resendAndConfirm(t, m, clk, "SMlate1")
		clk.Advance(m.Pipeline.Lease())
		m.recoverUnanswered(context.Background())
		assertToldNotProcessed(t, m, tw, before, "SMlate1")
	})
	t.Run("two instances sharing the database", func(t *testing.T) {
		clk := &testClock{fixed: crashedAt}
		tw := newFakeTwilio(t)
		env := map[string]string{"MUNSHI_DB": filepath.Join(t.TempDir(), "shared.db")}
		a := startMainAt(t, clk.Now, tw.URL, env)
		b := startMainAt(t, clk.Now, tw.URL, env)
		before := countOrders(t, a)
		claimAndDie(t, a, "SMlate2")
		resendAndConfirm(t, b, clk, "SMlate2")
		clk.Advance(a.Pipeline.Lease())
		a.recoverUnanswered(context.Background())
		assertToldNotProcessed(t, a, tw, before, "SMlate2")
	})
	t.Run("two instances sharing Redis", func(t *testing.T) {
		raw := redistest.Need(t) // fails in CI (CI=true) when Redis is missing
		shared := map[string]string{"REDIS_URL": redistest.URL(), "MUNSHI_REDIS_PREFIX": redistest.Prefix(t, raw)}
		clk := &testClock{fixed: crashedAt}
		tw := newFakeTwilio(t)
		a := startMainAt(t, clk.Now, tw.URL, shared)
		b := startMainAt(t, clk.Now, tw.URL, shared)
		claimAndDie(t, a, "SMlate3")
		resendAndConfirm(t, b, clk, "SMlate3")
		clk.Advance(a.Pipeline.Lease())
		before := countOrders(t, a)
		a.recoverUnanswered(context.Background())
		waitFor(t, tw, demo.SalesPhone, "was not processed")
		for _, body := range restRepliesTo(tw, demo.SalesPhone) {
			if strings.Contains(body, "Reply *ok*") {
				t.Fatalf("the recovery sent a summary to confirm: %s", body)
			}
		}
		mustContain(t, "an ok on the recovering instance", say(t, a, "SMlate3ok2", demo.SalesPhone, "ok"), "no order waiting")
		if n := countOrders(t, a) - before; n != 0 {
			t.Fatalf("%d orders placed on the recovering instance", n)
		}
	})
}

// TestRecoveryAnswersLateWhenNothingWasSaidSince: an order claimed by an
// instance that died, and nothing said since, is answered by the recovery
// as a late answer naming the message it answers; its "ok" places the
// order once.
func TestRecoveryAnswersLateWhenNothingWasSaidSince(t *testing.T) {
	clk := &testClock{fixed: crashedAt}
	tw := newFakeTwilio(t)
	m := startMainAt(t, clk.Now, tw.URL, nil)
	before := countOrders(t, m)
	claimAndDie(t, m, "SMlate4")
	clk.Advance(m.Pipeline.Lease())
	m.recoverUnanswered(context.Background())
	late := waitFor(t, tw, demo.SalesPhone, "Reply *ok*")
	mustContain(t, "the late answer", late, "⏱ _A late answer to your message of 13 Mar, 10:42", "Rajesh Kirana Store")
	if !strings.HasPrefix(late, "⏱") {
		t.Fatalf("the late answer does not start by saying it is late: %s", late)
	}
	clk.Advance(time.Minute)
	mustContain(t, "the ok", say(t, m, "SMlate4ok", demo.SalesPhone, "ok"), "placed for")
	mustContain(t, "a second ok", say(t, m, "SMlate4ok2", demo.SalesPhone, "ok"), "already placed")
	if n := countOrders(t, m) - before; n != 1 {
		t.Fatalf("%d orders placed, want 1", n)
	}
}

// TestRefusedLongBodyIsNotKept: a body refused as too long keeps only its
// start and its length at rest, in the inbox and the audit log; the
// recovery of one still refuses it.
func TestRefusedLongBodyIsNotKept(t *testing.T) {
	clk := &testClock{fixed: crashedAt}
	tw := newFakeTwilio(t)
	m := startMainAt(t, clk.Now, tw.URL, nil)
	long := "GC " + strings.Repeat("लंबा ", 200) + strings.Repeat("bahut lamba sandesh ", 2000)
	if reply := say(t, m, "SMlong1", demo.SalesPhone, long); !strings.Contains(reply, "too long") {
		t.Fatalf("a body of %d characters got %.200q", len([]rune(long)), reply)
	}
	stored := storedBody(t, m, "SMlong1")
	if n := len([]rune(stored.body)); n > 200 || stored.chars != len([]rune(long)) {
		t.Fatalf("stored %d characters and a length of %d; want at most 200 and %d", n, stored.chars, len([]rune(long)))
	}
	for _, e := range auditEntries(t, m, "inbound") {
		if body, _ := e.Detail["body"].(string); len([]rune(body)) > 200 {
			t.Fatalf("the audit log keeps %d characters of it", len([]rune(body)))
		}
	}
	// Claimed and abandoned, the recovery reads the record, and refuses it
	// as the first delivery was.
	claimed, _, _, err := m.Store.Claim(context.Background(), m.Pipeline.AtRest(domain.Inbound{SID: "SMlong2", From: demo.SalesPhone, Body: long}), m.Pipeline.Lease())
	if err != nil || !claimed {
		t.Fatal(claimed, err)
	}
	clk.Advance(m.Pipeline.Lease())
	m.recoverUnanswered(context.Background())
	waitFor(t, tw, demo.SalesPhone, "too long")
}

// TestInvisibleCharactersAreNotKept: direction overrides and zero-width
// spaces are dropped from the stored text and the audit log; a joiner
// inside a Devanagari word stays.
func TestInvisibleCharactersAreNotKept(t *testing.T) {
	m := startMainAt(t, standing(2026, 12, 1), newFakeTwilio(t).URL, nil)
	body := "GC\u202e ka\u200b stock\u2066 क्\u200dष\ufeff"
	say(t, m, "SMinv1", demo.SalesPhone, body)
	want := "GC ka stock क्\u200dष"
	if got := storedBody(t, m, "SMinv1").body; got != want {
		t.Fatalf("stored %q, want %q", got, want)
	}
	for _, e := range auditEntries(t, m, "inbound") {
		if e.Subject == "SMinv1" && e.Detail["body"] != want {
			t.Fatalf("audited %q, want %q", e.Detail["body"], want)
		}
	}
}

// kept is a message's record in the inbox.
type kept struct {
	body  string
	chars int
}

func storedBody(t *testing.T, m *Main, sid string) kept {
	t.Helper()
	db, err := sql.Open("sqlite3", m.Config.DB)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var k kept
	if err := db.QueryRow(`SELECT body, chars FROM inbound_messages WHERE sid = ?`, sid).Scan(&k.body, &k.chars); err != nil {
		t.Fatal(err)
	}
	return k
}

func auditEntries(t *testing.T, m *Main, kind string) []audit.Entry {
	t.Helper()
	entries, err := m.Store.AuditEntries(context.Background(), kind)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}
