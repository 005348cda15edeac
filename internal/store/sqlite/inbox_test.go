package sqlite

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
)

const lease = 90 * time.Second

// openInbox is a store with the demo users, so that their messages keep
// their text.
func openInbox(t *testing.T) (*Store, *clock) {
	t.Helper()
	s, c, _ := openStore(t)
	if err := s.UpsertUsers(context.Background(), demoUsers()); err != nil {
		t.Fatal(err)
	}
	return s, c
}

type claimResult struct {
	claimed, done bool
	reply         domain.Reply
}

func claim(t *testing.T, s *Store, in domain.Inbound) claimResult {
	t.Helper()
	claimed, done, reply, err := s.Claim(context.Background(), in, lease)
	if err != nil {
		t.Fatalf("Claim(%s from %s): %v", in.SID, in.From, err)
	}
	return claimResult{claimed, done, reply}
}

func TestClaimAndSavedReply(t *testing.T) {
	s, c := openInbox(t)
	ctx := context.Background()
	in := domain.Inbound{SID: "SM0001", From: "+919900000003", Body: "5 carton GC for Rajesh", Received: t0}

	if got := claim(t, s, in); !got.claimed || got.done || !reflect.DeepEqual(got.reply, domain.Reply{}) {
		t.Fatalf("first Claim = %+v; want claimed", got)
	}
	if done, _, err := s.SavedReply(ctx, in.SID); err != nil || done {
		t.Fatalf("SavedReply before SaveReply = %v, %v; want not done", done, err)
	}
	// A retry while the first delivery is still working.
	if got := claim(t, s, in); got.claimed || got.done {
		t.Fatalf("retry before the reply = %+v; want not claimed, not done", got)
	}

	c.Advance(2 * time.Second)
	want := domain.Reply{
		Text:      "Order for Rajesh Kirana Store: 120 × GC500 = ₹11,040 + GST ₹1,987.20. Reply YES to confirm.",
		MediaURLs: []string{"https://munshi.example/media/abc123", "https://munshi.example/media/def456"},
	}
	if err := s.SaveReply(ctx, in.SID, want); err != nil {
		t.Fatal(err)
	}
	if got := claim(t, s, in); got.claimed || !got.done || !reflect.DeepEqual(got.reply, want) {
		t.Fatalf("retry after the reply = %+v; want done with %+v", got, want)
	}
	if done, reply, err := s.SavedReply(ctx, in.SID); err != nil || !done || !reflect.DeepEqual(reply, want) {
		t.Fatalf("SavedReply = %v, %+v, %v", done, reply, err)
	}
	// Long after, a retry still gets the reply and never a new claim.
	c.Advance(time.Hour)
	if got := claim(t, s, in); got.claimed || !got.done {
		t.Fatalf("retry an hour later = %+v", got)
	}

	// The message is recorded once, with the store's clock.
	var n int
	var sender, body, received, replied string
	if err := s.db.QueryRow(`SELECT COUNT(*), sender, body, received_at, replied_at FROM inbound_messages`).
		Scan(&n, &sender, &body, &received, &replied); err != nil {
		t.Fatal(err)
	}
	if n != 1 || sender != in.From || body != in.Body || received != formatTime(t0) || replied != formatTime(t0.Add(2*time.Second)) {
		t.Errorf("inbound row = %d %s %q %s %s", n, sender, body, received, replied)
	}

	// Another SID is independent.
	if got := claim(t, s, domain.Inbound{SID: "SM0002", From: in.From, Body: "hi"}); !got.claimed {
		t.Error("a new SID was not claimed")
	}
	if done, _, err := s.SavedReply(ctx, "SM-unknown"); err != nil || done {
		t.Errorf("SavedReply of an unknown SID = %v, %v; want not done, no error", done, err)
	}
}

func TestClaimConcurrent(t *testing.T) {
	s, c := openInbox(t)
	in := domain.Inbound{SID: "SMrace", From: "+919900000003", Body: "GC ka stock kitna hai"}
	race := func() int {
		const n = 20
		var (
			wg      sync.WaitGroup
			start   = make(chan struct{})
			mu      sync.Mutex
			claimed int
			errs    []error
		)
		for range n {
			wg.Go(func() {
				<-start
				ok, done, _, err := s.Claim(context.Background(), in, lease)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs = append(errs, err)
				}
				if ok {
					claimed++
				}
				if done {
					errs = append(errs, errors.New("done before any reply was saved"))
				}
			})
		}
		close(start)
		wg.Wait()
		if len(errs) > 0 {
			t.Fatalf("claims failed: %v", errs)
		}
		return claimed
	}
	if n := race(); n != 1 {
		t.Fatalf("%d of 20 concurrent claims of a new message won, want exactly 1", n)
	}
	// After a crash, racing retries take the abandoned claim over once.
	c.Advance(lease + time.Second)
	if n := race(); n != 1 {
		t.Fatalf("%d of 20 concurrent takeovers won, want exactly 1", n)
	}
	if rows := count(t, s, "inbound_messages"); rows != 1 {
		t.Errorf("%d inbound rows, want 1", rows)
	}
}

// TestClaimLeaseTakeover: a message claimed by a process that died before
// saving a reply is in flight until its lease runs out, then a retry takes
// it over and answers it.
func TestClaimLeaseTakeover(t *testing.T) {
	s, c := openInbox(t)
	ctx := context.Background()
	in := domain.Inbound{SID: "SMcrash", From: "+919900000003", Body: "ok"}
	claim(t, s, in) // and the process dies

	c.Advance(lease - time.Second)
	if got := claim(t, s, in); got.claimed || got.done {
		t.Fatalf("a retry within the lease = %+v; want in flight", got)
	}
	c.Advance(time.Second)
	if got := claim(t, s, in); !got.claimed {
		t.Fatalf("a retry once the lease ran out = %+v; want it claimed", got)
	}
	// The new claim has a lease of its own.
	if got := claim(t, s, in); got.claimed || got.done {
		t.Fatalf("a second retry = %+v; want in flight under the new lease", got)
	}
	var attempts int
	if err := s.db.QueryRow(`SELECT attempts FROM inbound_messages WHERE sid = ?`, in.SID).Scan(&attempts); err != nil || attempts != 2 {
		t.Fatalf("attempts = %d, %v; want 2", attempts, err)
	}
	if err := s.SaveReply(ctx, in.SID, domain.Reply{Text: "Order ORD-1001 placed"}); err != nil {
		t.Fatal(err)
	}
	c.Advance(2 * lease)
	if got := claim(t, s, in); got.claimed || !got.done || got.reply.Text != "Order ORD-1001 placed" {
		t.Fatalf("after the answer = %+v", got)
	}
}

// TestClaimRefusesAnotherSender: a MessageSid re-posted from another number
// gets nothing of the first sender's message, whatever its state.
func TestClaimRefusesAnotherSender(t *testing.T) {
	s, c := openInbox(t)
	ctx := context.Background()
	in := domain.Inbound{SID: "SMmine", From: "+919900000003", Body: "10 carton GC for Rajesh"}
	thief := in
	thief.From, thief.Body = "+919900000004", "hi"
	claim(t, s, in)
	check := func(when string) {
		t.Helper()
		claimed, done, reply, err := s.Claim(ctx, thief, lease)
		if domain.ErrorCode(err) != domain.EUNAUTHORIZED || claimed || done || !reflect.DeepEqual(reply, domain.Reply{}) {
			t.Fatalf("%s: Claim from another number = %v, %v, %+v, %v; want EUNAUTHORIZED and nothing", when, claimed, done, reply, err)
		}
	}
	check("in flight")
	c.Advance(2 * lease)
	check("abandoned") // not taken over by another number either
	if err := s.SaveReply(ctx, in.SID, domain.Reply{Text: "Rajesh Kirana Store: total ₹26,054.40"}); err != nil {
		t.Fatal(err)
	}
	check("answered")
	var sender, body string
	s.db.QueryRow(`SELECT sender, body FROM inbound_messages WHERE sid = ?`, in.SID).Scan(&sender, &body)
	if sender != in.From || body != in.Body {
		t.Fatalf("the record changed: %s %q", sender, body)
	}
}

func TestUnknownSenderKeepsNoText(t *testing.T) {
	s, _ := openInbox(t)
	claim(t, s, domain.Inbound{SID: "SMstranger", From: "+15550001111", Body: "मुझे अपना पूरा कैटलॉग भेजो"})
	claim(t, s, domain.Inbound{SID: "SMknown", From: "+919900000001", Body: "GC ka stock"})
	bodies := map[string]string{}
	rows, err := s.db.Query(`SELECT sid, body FROM inbound_messages`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var sid, body string
		rows.Scan(&sid, &body)
		bodies[sid] = body
	}
	rows.Close()
	if bodies["SMstranger"] != "" || bodies["SMknown"] != "GC ka stock" {
		t.Fatalf("bodies at rest = %q", bodies)
	}
}

func TestReleaseAndDiscard(t *testing.T) {
	s, _ := openInbox(t)
	ctx := context.Background()
	in := domain.Inbound{SID: "SMelsewhere", From: "+919900000003", Body: "hi"}
	claim(t, s, in)
	// Another instance answers it: the claim ends with no reply recorded,
	// and the next delivery looks again.
	if err := s.Release(ctx, in.SID); err != nil {
		t.Fatal(err)
	}
	if done, _, _ := s.SavedReply(ctx, in.SID); done {
		t.Fatal("Release recorded a reply")
	}
	if got := claim(t, s, in); !got.claimed {
		t.Fatalf("a delivery after Release = %+v; want claimed", got)
	}
	if err := s.Discard(ctx, in.SID); err != nil {
		t.Fatal(err)
	}
	if rows := count(t, s, "inbound_messages"); rows != 0 {
		t.Fatalf("%d rows after Discard", rows)
	}
	// Neither touches an answered message.
	claim(t, s, in)
	s.SaveReply(ctx, in.SID, domain.Reply{Text: "Namaste Ravi"})
	s.Release(ctx, in.SID)
	s.Discard(ctx, in.SID)
	if got := claim(t, s, in); !got.done || got.reply.Text != "Namaste Ravi" {
		t.Fatalf("an answered message after Release and Discard = %+v", got)
	}
}

func TestClaimAbandoned(t *testing.T) {
	s, c := openInbox(t)
	ctx := context.Background()
	msg := func(sid, body string) domain.Inbound {
		return domain.Inbound{SID: sid, From: "+919900000003", Body: body}
	}
	claim(t, s, msg("SMold", "10 carton GC for Rajesh")) // abandoned first
	c.Advance(time.Second)
	claim(t, s, msg("SManswered", "hi"))
	s.SaveReply(ctx, "SManswered", domain.Reply{Text: "Namaste"})
	claim(t, s, msg("SMnewer", "ok")) // abandoned second
	// A row from before leases: no lease at all.
	if _, err := s.db.Exec(`INSERT INTO inbound_messages (sid, sender, body, received_at) VALUES ('SMlegacy', '+919900000001', 'GC stock', ?)`,
		formatTime(t0.Add(2*time.Second))); err != nil {
		t.Fatal(err)
	}
	c.Advance(lease / 2)
	claim(t, s, msg("SMlive", "pending orders")) // still being answered
	got, err := s.ClaimAbandoned(ctx, lease, 10)
	if err != nil {
		t.Fatal(err)
	}
	sids := map[string]domain.Inbound{}
	for _, in := range got {
		sids[in.SID] = in
	}
	if len(got) != 1 || sids["SMlegacy"].Body != "GC stock" {
		t.Fatalf("abandoned within the others' lease = %+v; want only the row without a lease", got)
	}
	c.Advance(lease / 2)
	got, err = s.ClaimAbandoned(ctx, lease, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("abandoned = %+v; want SMold and SMnewer", got)
	}
	for _, in := range got {
		if in.SID == "SMold" && (in.Body != "10 carton GC for Rajesh" || in.From != "+919900000003" || !in.Received.Equal(t0)) {
			t.Errorf("SMold as recorded = %+v", in)
		}
	}
	// They are claimed now: nobody else gets them until this lease runs out.
	if again, _ := s.ClaimAbandoned(ctx, lease, 10); len(again) != 0 {
		t.Fatalf("claimed twice: %+v", again)
	}
	if got := claim(t, s, msg("SMold", "10 carton GC for Rajesh")); got.claimed {
		t.Fatal("a retry took over a message the recovery job holds")
	}
	// limit bounds a batch.
	c.Advance(2 * lease)
	if some, _ := s.ClaimAbandoned(ctx, lease, 2); len(some) != 2 {
		t.Fatalf("limit 2 gave %d", len(some))
	}
}

func TestFirstRefusalToday(t *testing.T) {
	s, c := openInbox(t)
	ctx := context.Background()
	kolkata := time.FixedZone("IST", 5*3600+1800)
	stranger, other := "+15550001111", "+15550002222"
	first := func(phone string) bool {
		t.Helper()
		ok, err := s.FirstRefusalToday(ctx, phone, kolkata)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	// 23:00 in Kolkata is 17:30 UTC.
	c.t = time.Date(2026, 3, 14, 17, 30, 0, 0, time.UTC)
	if !first(stranger) {
		t.Fatal("the first message of the day was not refused")
	}
	c.Advance(30 * time.Minute)
	if first(stranger) {
		t.Fatal("a second refusal on the same day")
	}
	if !first(other) {
		t.Fatal("another number shares the first one's day")
	}
	// 00:10 the next day in Kolkata, still the 14th in UTC.
	c.Advance(40 * time.Minute)
	if !first(stranger) {
		t.Fatal("no refusal on the next day in Kolkata")
	}
	if first(stranger) {
		t.Fatal("two refusals on the next day")
	}
	if n := count(t, s, "refusals"); n != 2 {
		t.Fatalf("%d refusal rows, want one per number", n)
	}
}

// TestSweeps: retention deletes old inbound records (answered ones only)
// and old audit entries, each by its own cutoff.
func TestSweeps(t *testing.T) {
	s, c := openInbox(t)
	ctx := context.Background()
	in := func(sid string) domain.Inbound { return domain.Inbound{SID: sid, From: "+919900000003", Body: "hi"} }
	claim(t, s, in("SMoldanswered"))
	s.SaveReply(ctx, "SMoldanswered", domain.Reply{Text: "Namaste"})
	claim(t, s, in("SMoldopen")) // the recovery job's, not the sweep's
	s.AppendAudit(ctx, audit.Entry{Actor: "+919900000003", Kind: "inbound", Subject: "SMoldanswered"})
	s.FirstRefusalToday(ctx, "+15550001111", time.UTC)
	c.Advance(100 * 24 * time.Hour)
	claim(t, s, in("SMrecent"))
	s.SaveReply(ctx, "SMrecent", domain.Reply{Text: "Namaste"})
	s.AppendAudit(ctx, audit.Entry{Actor: "+919900000003", Kind: "inbound", Subject: "SMrecent"})
	s.FirstRefusalToday(ctx, "+15550002222", time.UTC)

	n, err := s.SweepInbound(ctx, s.Now().Add(-90*24*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("SweepInbound = %d, %v; want 1", n, err)
	}
	for sid, want := range map[string]bool{"SMoldanswered": false, "SMoldopen": true, "SMrecent": true} {
		var k int
		s.db.QueryRow(`SELECT COUNT(*) FROM inbound_messages WHERE sid = ?`, sid).Scan(&k)
		if (k == 1) != want {
			t.Errorf("%s kept = %v, want %v", sid, k == 1, want)
		}
	}
	var phone string
	if err := s.db.QueryRow(`SELECT phone FROM refusals`).Scan(&phone); err != nil || phone != "+15550002222" || count(t, s, "refusals") != 1 {
		t.Errorf("refusals after the sweep: %s, %v (%d rows)", phone, err, count(t, s, "refusals"))
	}
	// The audit log keeps its own, longer retention.
	if n, err := s.SweepAudit(ctx, s.Now().Add(-730*24*time.Hour)); err != nil || n != 0 {
		t.Fatalf("SweepAudit at two years = %d, %v; want nothing", n, err)
	}
	if n, err := s.SweepAudit(ctx, s.Now().Add(-90*24*time.Hour)); err != nil || n != 1 {
		t.Fatalf("SweepAudit at 90 days = %d, %v; want 1", n, err)
	}
	entries, _ := s.AuditEntries(ctx, "")
	if len(entries) != 1 || entries[0].Subject != "SMrecent" {
		t.Fatalf("audit after the sweep = %+v", entries)
	}
}

// TestSweepInBatches: a backlog larger than one batch is swept whole.
func TestSweepInBatches(t *testing.T) {
	s, c := openInbox(t)
	ctx := context.Background()
	const n = 2*sweepBatch + 7
	tx, _ := s.db.Begin()
	for i := range n {
		tx.Exec(`INSERT INTO audit_log (at, actor, kind) VALUES (?, 'system', 'inbound')`, formatTime(t0.Add(time.Duration(i)*time.Millisecond)))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Hour)
	if got, err := s.SweepAudit(ctx, s.Now()); err != nil || got != n {
		t.Fatalf("SweepAudit = %d, %v; want %d", got, err, n)
	}
}
