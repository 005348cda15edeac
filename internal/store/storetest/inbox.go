package storetest

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
)

const lease = 90 * time.Second

// inbox is a store with the suite's users, so that their messages keep
// their text.
func inbox(t *testing.T, s store.Store) {
	t.Helper()
	if err := s.UpsertUsers(ctx, users()); err != nil {
		t.Fatal(err)
	}
}

type claimResult struct {
	claimed, done bool
	reply         domain.Reply
}

func claim(t *testing.T, s store.Store, in domain.Inbound) claimResult {
	t.Helper()
	claimed, done, reply, err := s.Claim(ctx, in, lease)
	if err != nil {
		t.Fatalf("Claim(%s from %s): %v", in.SID, in.From, err)
	}
	return claimResult{claimed, done, reply}
}

// abandoned claims every message whose claim ran out, by SID.
func abandoned(t *testing.T, s store.Store) map[string]domain.Inbound {
	t.Helper()
	got, err := s.ClaimAbandoned(ctx, lease, 100)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]domain.Inbound{}
	for _, in := range got {
		out[in.SID] = in
	}
	return out
}

func testClaim(t *testing.T, s store.Store, c *Clock) {
	inbox(t, s)
	in := domain.Inbound{SID: "SM0001", From: ravi, Body: "5 carton GC for Rajesh", Received: T0}

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
		About:     "ORD-1042",
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
	// Long after, a retry still gets the reply and never a new claim, and
	// an answered message is nobody's to recover.
	c.Advance(time.Hour)
	if got := claim(t, s, in); got.claimed || !got.done {
		t.Fatalf("retry an hour later = %+v", got)
	}
	if got := abandoned(t, s); len(got) != 0 {
		t.Fatalf("an answered message was recovered: %+v", got)
	}

	// Another SID is independent; an empty reply closes a message.
	if got := claim(t, s, domain.Inbound{SID: "SM0002", From: ravi, Body: "hi"}); !got.claimed {
		t.Error("a new SID was not claimed")
	}
	if err := s.SaveReply(ctx, "SM0002", domain.Reply{}); err != nil {
		t.Fatal(err)
	}
	if got := claim(t, s, domain.Inbound{SID: "SM0002", From: ravi, Body: "hi"}); got.claimed || !got.done || got.reply.Text != "" {
		t.Errorf("a closed message = %+v; want done with no answer", got)
	}
	if done, _, err := s.SavedReply(ctx, "SM-unknown"); err != nil || done {
		t.Errorf("SavedReply of an unknown SID = %v, %v; want not done, no error", done, err)
	}
}

func testClaimConcurrent(t *testing.T, s store.Store, c *Clock) {
	inbox(t, s)
	in := domain.Inbound{SID: "SMrace", From: ravi, Body: "GC ka stock kitna hai"}
	race := func() int {
		claimed, errs := claimedAtOnce(20, func(int) (bool, error) {
			ok, done, _, err := s.Claim(ctx, in, lease)
			if err == nil && done {
				err = errors.New("done before any reply was saved")
			}
			return ok, err
		})
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
}

// testClaimTakeover: a message claimed by a process that died before
// saving a reply is in flight until its lease runs out, then a retry takes
// it over and answers it.
func testClaimTakeover(t *testing.T, s store.Store, c *Clock) {
	inbox(t, s)
	in := domain.Inbound{SID: "SMcrash", From: ravi, Body: "ok"}
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
	if err := s.SaveReply(ctx, in.SID, domain.Reply{Text: "Order ORD-1001 placed"}); err != nil {
		t.Fatal(err)
	}
	c.Advance(2 * lease)
	if got := claim(t, s, in); got.claimed || !got.done || got.reply.Text != "Order ORD-1001 placed" {
		t.Fatalf("after the answer = %+v", got)
	}
}

// testClaimOtherSender: a MessageSid re-posted from another number gets
// nothing of the first sender's message, whatever its state.
func testClaimOtherSender(t *testing.T, s store.Store, c *Clock) {
	inbox(t, s)
	in := domain.Inbound{SID: "SMmine", From: ravi, Body: "10 carton GC for Rajesh"}
	thief := in
	thief.From, thief.Body = sunil, "hi"
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
	if got := abandoned(t, s)["SMmine"]; got.From != ravi || got.Body != in.Body {
		t.Fatalf("the record changed: %+v", got)
	}
	if err := s.SaveReply(ctx, in.SID, domain.Reply{Text: "Rajesh Kirana Store: total ₹26,054.40"}); err != nil {
		t.Fatal(err)
	}
	check("answered")
	if got := claim(t, s, in); !got.done || got.reply.Text != "Rajesh Kirana Store: total ₹26,054.40" {
		t.Fatalf("the sender's own retry = %+v", got)
	}
}

// An unknown number's message keeps no text at rest.
func testUnknownSenderText(t *testing.T, s store.Store, c *Clock) {
	inbox(t, s)
	claim(t, s, domain.Inbound{SID: "SMstranger", From: "+15550001111", Body: "मुझे अपना पूरा कैटलॉग भेजो"})
	claim(t, s, domain.Inbound{SID: "SMknown", From: owner, Body: "GC ka stock"})
	c.Advance(lease)
	got := abandoned(t, s)
	if got["SMstranger"].Body != "" || got["SMstranger"].From != "+15550001111" || got["SMknown"].Body != "GC ka stock" {
		t.Fatalf("bodies at rest = %+v", got)
	}
}

func testReleaseAndDiscard(t *testing.T, s store.Store, _ *Clock) {
	inbox(t, s)
	in := domain.Inbound{SID: "SMelsewhere", From: ravi, Body: "hi"}
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
	// Discarded, it is forgotten: even another number may use the SID.
	if err := s.Discard(ctx, in.SID); err != nil {
		t.Fatal(err)
	}
	if got := claim(t, s, domain.Inbound{SID: in.SID, From: sunil, Body: "hello"}); !got.claimed {
		t.Fatalf("a delivery after Discard = %+v; want a new message", got)
	}
	// Neither touches an answered message.
	s.SaveReply(ctx, in.SID, domain.Reply{Text: "Namaste Sunil"})
	s.Release(ctx, in.SID)
	s.Discard(ctx, in.SID)
	if got := claim(t, s, domain.Inbound{SID: in.SID, From: sunil}); !got.done || got.reply.Text != "Namaste Sunil" {
		t.Fatalf("an answered message after Release and Discard = %+v", got)
	}
}

func testClaimAbandoned(t *testing.T, s store.Store, c *Clock) {
	inbox(t, s)
	msg := func(sid, body string) domain.Inbound { return domain.Inbound{SID: sid, From: ravi, Body: body} }
	claim(t, s, msg("SMold", "10 carton GC for Rajesh")) // abandoned first
	c.Advance(time.Second)
	claim(t, s, msg("SManswered", "hi"))
	s.SaveReply(ctx, "SManswered", domain.Reply{Text: "Namaste"})
	claim(t, s, msg("SMnewer", "ok")) // abandoned second
	c.Advance(lease / 2)
	claim(t, s, msg("SMlive", "pending orders")) // still being answered
	if got, err := s.ClaimAbandoned(ctx, lease, 10); err != nil || len(got) != 0 {
		t.Fatalf("abandoned within every lease = %+v, %v", got, err)
	}
	c.Advance(lease / 2)
	got := abandoned(t, s)
	if len(got) != 2 || got["SMold"].SID == "" || got["SMnewer"].SID == "" {
		t.Fatalf("abandoned = %+v; want SMold and SMnewer", got)
	}
	if old := got["SMold"]; old.Body != "10 carton GC for Rajesh" || old.From != ravi || !old.Received.Equal(T0) {
		t.Errorf("SMold as recorded = %+v", old)
	}
	// They are claimed now: nobody else gets them until this lease runs out.
	if again, _ := s.ClaimAbandoned(ctx, lease, 10); len(again) != 0 {
		t.Fatalf("claimed twice: %+v", again)
	}
	if got := claim(t, s, msg("SMold", "10 carton GC for Rajesh")); got.claimed {
		t.Fatal("a retry took over a message the recovery job holds")
	}
	// limit bounds a batch, and the oldest go first.
	c.Advance(2 * lease)
	if some, _ := s.ClaimAbandoned(ctx, lease, 2); len(some) != 2 || some[0].SID == "SMlive" || some[1].SID == "SMlive" {
		t.Fatalf("limit 2 gave %+v; want the two oldest", some)
	}
}

// testAbandonedKeepsItsFiles: a voice note or a photo a crash left
// unanswered comes back with its files' links and types, in order; an
// unknown sender's keeps none, as it keeps no text.
func testAbandonedKeepsItsFiles(t *testing.T, s store.Store, c *Clock) {
	inbox(t, s)
	voice := domain.Inbound{SID: "SMvoice", From: ravi, Body: "Rajesh ka order",
		MediaURLs:  []string{"https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM1/Media/ME1", "https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM1/Media/ME2"},
		MediaTypes: []string{"audio/ogg", "image/png"}}
	stranger := domain.Inbound{SID: "SMstranger", From: "+15550001111", MediaURLs: []string{"https://api.twilio.com/x"}, MediaTypes: []string{"image/png"}}
	claim(t, s, voice)
	claim(t, s, stranger)
	c.Advance(2 * lease)
	got := abandoned(t, s)
	if v := got["SMvoice"]; !reflect.DeepEqual(v.MediaURLs, voice.MediaURLs) || !reflect.DeepEqual(v.MediaTypes, voice.MediaTypes) || v.Body != voice.Body {
		t.Fatalf("abandoned voice note = %+v", v)
	}
	if x := got["SMstranger"]; len(x.MediaURLs) != 0 {
		t.Fatalf("an unknown sender's files were kept: %+v", x)
	}
}

// testWroteSince: a message is overtaken by a later one of its sender,
// answered or not, and by nobody else's.
func testWroteSince(t *testing.T, s store.Store, c *Clock) {
	inbox(t, s)
	msg := func(sid, from, body string) domain.Inbound { return domain.Inbound{SID: sid, From: from, Body: body} }
	claim(t, s, msg("SMfirst", ravi, "10 carton GC for Rajesh"))
	since := func(sid string) bool {
		t.Helper()
		got, err := s.WroteSince(ctx, msg(sid, ravi, ""))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	c.Advance(time.Second)
	claim(t, s, msg("SMother", "+15550001111", "hello"))
	if since("SMfirst") {
		t.Fatal("another sender's message overtook it")
	}
	c.Advance(time.Second)
	claim(t, s, msg("SMagain", ravi, "10 carton GC for Rajesh"))
	s.SaveReply(ctx, "SMagain", domain.Reply{Text: "summary"})
	if !since("SMfirst") {
		t.Fatal("the sender's later message did not overtake it")
	}
	if since("SMagain") {
		t.Fatal("the latest message is overtaken")
	}
	if since("SMunknown") {
		t.Fatal("a message not recorded is overtaken")
	}
}

// testShortenedBody: a body recorded shortened keeps its length as sent,
// and the recovery gets both.
func testShortenedBody(t *testing.T, s store.Store, c *Clock) {
	inbox(t, s)
	claim(t, s, domain.Inbound{SID: "SMlong", From: ravi, Body: "GC GC GC", Chars: 60022})
	claim(t, s, domain.Inbound{SID: "SMshort", From: ravi, Body: "GC"})
	c.Advance(lease)
	got := abandoned(t, s)
	if got["SMlong"].Body != "GC GC GC" || got["SMlong"].Chars != 60022 || got["SMshort"].Chars != 0 {
		t.Fatalf("recorded %+v and %+v", got["SMlong"], got["SMshort"])
	}
}

func testFirstRefusal(t *testing.T, s store.Store, c *Clock) {
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
	c.Set(time.Date(2026, 3, 14, 17, 30, 0, 0, time.UTC))
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
}

// testSweeps: retention deletes old inbound records (answered ones only)
// and old audit entries, each by its own cutoff.
func testSweeps(t *testing.T, s store.Store, c *Clock) {
	inbox(t, s)
	in := func(sid string) domain.Inbound { return domain.Inbound{SID: sid, From: ravi, Body: "hi"} }
	claim(t, s, in("SMoldanswered"))
	s.SaveReply(ctx, "SMoldanswered", domain.Reply{Text: "Namaste"})
	claim(t, s, in("SMoldopen")) // the recovery job's, not the sweep's
	s.AppendAudit(ctx, audit.Entry{Actor: ravi, Kind: "inbound", Subject: "SMoldanswered"})
	closed, _, err := s.OpenHandoff(ctx, handoffOf(ravi, c.Now()), toOffice)
	if err != nil {
		t.Fatal(err)
	}
	s.CloseHandoff(ctx, closed.ID, owner, c.Now())
	open, _, err := s.OpenHandoff(ctx, handoffOf(sunil, c.Now()), toOffice) // open: never swept
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(100 * 24 * time.Hour)
	claim(t, s, in("SMrecent"))
	s.SaveReply(ctx, "SMrecent", domain.Reply{Text: "Namaste"})
	s.AppendAudit(ctx, audit.Entry{Actor: ravi, Kind: "inbound", Subject: "SMrecent"})

	n, err := s.SweepInbound(ctx, c.Now().Add(-90*24*time.Hour))
	if err != nil || n != 1 {
		t.Fatalf("SweepInbound = %d, %v; want 1", n, err)
	}
	if done, _, _ := s.SavedReply(ctx, "SMoldanswered"); done {
		t.Error("the old answered message was kept")
	}
	if done, _, _ := s.SavedReply(ctx, "SMrecent"); !done {
		t.Error("the recent answered message was swept")
	}
	if got := abandoned(t, s); len(got) != 1 || got["SMoldopen"].Body != "hi" {
		t.Errorf("the old unanswered message after the sweep: %+v; want it kept for the recovery job", got)
	}
	if _, ok, _ := s.Handoff(ctx, closed.ID); ok {
		t.Error("a handoff closed 100 days ago, and its messages, were kept")
	}
	if h, ok, _ := s.Handoff(ctx, open.ID); !ok || len(h.Messages) != 2 {
		t.Errorf("an open handoff was swept: %+v", h)
	}
	// The audit log keeps its own, longer retention.
	if n, err := s.SweepAudit(ctx, c.Now().Add(-730*24*time.Hour)); err != nil || n != 0 {
		t.Fatalf("SweepAudit at two years = %d, %v; want nothing", n, err)
	}
	if n, err := s.SweepAudit(ctx, c.Now().Add(-90*24*time.Hour)); err != nil || n != 1 {
		t.Fatalf("SweepAudit at 90 days = %d, %v; want 1", n, err)
	}
	entries, _ := s.AuditEntries(ctx, "")
	if len(entries) != 1 || entries[0].Subject != "SMrecent" {
		t.Fatalf("audit after the sweep = %+v", entries)
	}
}
