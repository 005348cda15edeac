package briefing_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/briefing"
	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
)

// ledger makes a digest whose figures follow its books, which a test
// changes after the digest went out (a cancellation lowers the day's
// sales); opening stands for the model's phrasing.
type ledger struct {
	mu         sync.Mutex
	sales, due string
	opening    string
	calls      int
}

func newLedger(opening string) *ledger {
	return &ledger{sales: "₹49,288", due: "₹3,40,000", opening: opening}
}

func (l *ledger) set(sales, due string) {
	l.mu.Lock()
	l.sales, l.due = sales, due
	l.mu.Unlock()
}

func (l *ledger) Edition(_ context.Context, date time.Time) (briefing.Edition, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	d := date.Format("2 Jan")
	return briefing.Edition{
		Date:            date,
		Headline:        d + ": sales " + l.sales,
		Owner:           "☀️ " + d + ": " + l.opening + "sales " + l.sales + ".",
		Accounts:        "💰 Dues on " + d + ": " + l.due + ".",
		OwnerMail:       domain.Email{Subject: "Munshi digest, " + d, Text: "sales " + l.sales},
		AccountsMail:    domain.Email{Subject: "Munshi dues, " + d, Text: "due " + l.due},
		OwnerFigures:    []briefing.Figure{{Name: "sales", Value: l.sales}, {Name: "orders", Value: "3"}},
		AccountsFigures: []briefing.Figure{{Name: "due", Value: l.due}},
	}, nil
}

// TestPastDigestReadsAsSent: the digest of 13 March went out at 07:00 on
// the 14th with sales of ₹49,288; a cancellation then brought the day to
// ₹18,000. Asked for later, it reads as it was sent, with a line that says
// what reads differently now; a day never sent reads as the books are.
func TestPastDigestReadsAsSent(t *testing.T) {
	clk := clocktest.At(at(7, 0))
	w := newWorld(t, clk)
	everyoneWrote(t, w)
	in := w.instance("")
	narrated, current := newLedger("Model: a strong Friday; "), newLedger("")
	in.service.Editions, in.service.Current = narrated, current
	if _, err := in.service.Send(context.Background(), at(0, 0).AddDate(0, 0, -1)); err != nil {
		t.Fatal(err)
	}
	in.drain()
	sentBrief := "☀️ 13 Mar: Model: a strong Friday; sales ₹49,288."
	if got := bodies(formsTo(w.twilio, ownerPhone)); len(got) != 1 || got[0] != sentBrief {
		t.Fatalf("Vikram got %q, want %q", got, sentBrief)
	}
	ctx := context.Background()

	// The same morning, nothing changed: today's digest is the one sent.
	clk.Set(at(9, 0))
	if got, err := in.service.Brief(ctx, domain.RoleOwner, 0); err != nil || got != sentBrief {
		t.Errorf("today's digest before any change = %q, %v; want the brief sent", got, err)
	}

	// The cancellation, and payments that lower the dues.
	narrated.set("₹18,000", "₹3,10,000")
	current.set("₹18,000", "₹3,10,000")
	got, err := in.service.Brief(ctx, domain.RoleOwner, 0)
	want := "Since it was sent at 07:00, later changes to the books make it read differently now: sales ₹49,288 → ₹18,000.\n\n" + sentBrief
	if err != nil || got != want {
		t.Errorf("today's digest after the cancellation =\n%q, %v\nwant\n%q", got, err, want)
	}

	// The next day it is yesterday's digest ("kal ka digest"), and today's
	// (about the 14th, not sent yet) is made from the books, without the
	// model.
	clk.Set(at(9, 0).AddDate(0, 0, 1))
	got, err = in.service.Brief(ctx, domain.RoleOwner, 1)
	want = "Since it was sent on 14 Mar at 07:00, later changes to the books make it read differently now: sales ₹49,288 → ₹18,000.\n\n" + sentBrief
	if err != nil || got != want {
		t.Errorf("yesterday's digest =\n%q, %v\nwant\n%q", got, err, want)
	}
	got, err = in.service.Brief(ctx, domain.RoleAccounts, 1)
	if want := "Since it was sent on 14 Mar at 07:00, later changes to the books make it read differently now: due ₹3,40,000 → ₹3,10,000.\n\n💰 Dues on 13 Mar: ₹3,40,000."; err != nil || got != want {
		t.Errorf("yesterday's dues =\n%q, %v\nwant\n%q", got, err, want)
	}
	before := narrated.calls
	if got, err := in.service.Brief(ctx, domain.RoleOwner, 0); err != nil || got != "☀️ 14 Mar: sales ₹18,000." {
		t.Errorf("today's digest, never sent = %q, %v; want the day as the books read now", got, err)
	}
	if narrated.calls != before {
		t.Errorf("a digest asked for in the chat asked the model")
	}

	// Sending the 13th again (a manual send) sends nothing new, and still
	// keeps the edition that went.
	if sent, err := in.service.Send(ctx, at(0, 0).AddDate(0, 0, -1)); err != nil || sent.Total() != 0 {
		t.Errorf("a second send = %+v, %v; want nothing new", sent, err)
	}
	is, err := in.service.Issue(ctx, at(0, 0).AddDate(0, 0, -1))
	if err != nil || is.Owner != sentBrief || !is.Sent.Equal(at(7, 0)) || len(is.OwnerChanges) != 1 {
		t.Errorf("Issue(13 Mar) = %+v, %v; want the brief sent at 07:00, one change", is, err)
	}
}

// TestInstancesSendTheEditionKeptFirst: two instances composing different
// openings for the same day at once (each asked the model) send everyone
// the one edition kept first.
func TestInstancesSendTheEditionKeptFirst(t *testing.T) {
	clk := clocktest.At(at(7, 0))
	w := newWorld(t, clk)
	everyoneWrote(t, w)
	a, b := w.instance(""), w.instance("")
	a.service.Editions, b.service.Editions = newLedger("Model A: "), newLedger("Model B: ")
	var wg sync.WaitGroup
	for _, in := range []*instance{a, b} {
		wg.Go(func() {
			if _, err := in.service.Send(context.Background(), at(0, 0).AddDate(0, 0, -1)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	a.drain()
	b.drain()
	kept, ok, err := a.store.KeptEdition(context.Background(), "2026-03-13")
	if err != nil || !ok {
		t.Fatalf("KeptEdition = %v, %v", ok, err)
	}
	for _, phone := range []string{ownerPhone, partnerPhone} {
		if got := bodies(formsTo(w.twilio, phone)); len(got) != 1 || got[0] != kept.Owner {
			t.Errorf("%s got %q; want the kept edition %q", phone, got, kept.Owner)
		}
	}

	// An owner added later gets, from a manual send that composed another
	// opening, the edition the others read.
	const newOwner = "+919900000007"
	if err := a.store.UpsertUsers(context.Background(), []domain.User{{Phone: newOwner, Name: "Kabir Singh", Role: domain.RoleOwner}}); err != nil {
		t.Fatal(err)
	}
	w.wrote(t, newOwner, at(6, 30))
	late := w.instance("")
	late.service.Editions = newLedger("Model C: ")
	if sent, err := late.service.Send(context.Background(), at(0, 0).AddDate(0, 0, -1)); err != nil || sent.Briefs != 1 {
		t.Fatalf("the manual send = %+v, %v; want the new owner's brief", sent, err)
	}
	late.drain()
	if got := bodies(formsTo(w.twilio, newOwner)); len(got) != 1 || got[0] != kept.Owner {
		t.Errorf("the new owner got %q; want the kept edition %q", got, kept.Owner)
	}
}

// TestRunLogsWhatWent: the scheduled run logs what it sent, and when
// nothing went, why.
func TestRunLogsWhatWent(t *testing.T) {
	clk := clocktest.At(at(7, 0))
	w := newWorld(t, clk)
	everyoneWrote(t, w)
	in := w.instance("")
	in.service.Run(context.Background())
	if log := in.log.String(); !strings.Contains(log, "briefing: digest sent: 3 briefs, 2 mails") {
		t.Errorf("the first run logged:\n%s", log)
	}
	again := w.instance("")
	again.service.Run(context.Background())
	if log := again.log.String(); !strings.Contains(log, "briefing: nothing sent: every delivery of the digest went before (5)") ||
		strings.Contains(log, "digest sent") {
		t.Errorf("a run after it logged:\n%s", log)
	}

	// A database with nobody to send to, and no addresses.
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "empty.db"), store.WithClock(clk.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	logs := &logLines{}
	lonely := &briefing.Service{Editions: newLedger(""), Sends: st, Now: clk.Now, Location: ist,
		Logger: slog.New(slog.NewTextHandler(logs, nil))}
	lonely.Run(context.Background())
	if log := logs.String(); !strings.Contains(log, "level=WARN") || !strings.Contains(log, "nothing sent: no owner or accounts user") ||
		strings.Contains(log, "digest sent") {
		t.Errorf("a run with nobody to send to logged:\n%s", log)
	}
}

// TestSentWent: what a run sent, in words.
func TestSentWent(t *testing.T) {
	for _, c := range []struct {
		sent briefing.Sent
		want string
	}{
		{briefing.Sent{Briefs: 1, Mails: 2}, "1 brief, 2 mails"},
		{briefing.Sent{Briefs: 2, Templates: 1, EmailOnly: 1, Mails: 1, Already: 3}, "2 briefs, 1 template, 1 mail, 1 brief held for the next message (no template); 3 sent before"},
		{briefing.Sent{Already: 1}, "nothing sent: every delivery of the digest went before (1)"},
	} {
		if got := c.sent.Went(); got != c.want {
			t.Errorf("%+v.Went() = %q, want %q", c.sent, got, c.want)
		}
	}
}

// TestInboxAndStatusesReachTheDigest: the webhook's inbox and status
// recorder, composed with the digest, send a held brief when its reader
// writes and the template when Twilio reports a brief outside the window.
func TestInboxAndStatusesReachTheDigest(t *testing.T) {
	clk := clocktest.At(at(7, 0))
	w := newWorld(t, clk)
	w.wrote(t, partnerPhone, at(6, 0))
	w.wrote(t, accountsPhone, at(6, 0))
	in := w.instance(templateSID)
	if _, err := in.service.Send(context.Background(), at(0, 0).AddDate(0, 0, -1)); err != nil {
		t.Fatal(err)
	}
	in.drain()
	inbox := briefing.HeldBriefs{Inbox: in.store, Digest: in.service}
	ctx := context.Background()
	clk.Set(at(8, 0))
	msg := domain.Inbound{SID: "SMheld1", From: ownerPhone, Body: "ok", Received: clk.Now()}
	for i := range 2 { // a retry of the same message claims nothing
		if _, _, _, err := inbox.Claim(ctx, msg, time.Minute); err != nil {
			t.Fatalf("claim %d: %v", i, err)
		}
	}
	in.drain()
	if got := bodies(formsTo(w.twilio, ownerPhone)); len(got) != 2 || !strings.HasPrefix(got[1], "☀️ 13 Mar") {
		t.Errorf("after his message Vikram got %q; want the template, then the brief once", got)
	}

	statuses := briefing.Statuses{StatusRecorder: in.store, Digest: in.service}
	if err := statuses.RecordDeliveryStatus(ctx, in.providerID(t, partnerPhone), "undelivered", briefing.OutsideWindow); err != nil {
		t.Fatal(err)
	}
	in.drain()
	forms := formsTo(w.twilio, partnerPhone)
	if len(forms) != 2 {
		t.Fatalf("Anita got %q; want the brief, then the template", bodies(forms))
	}
	templateForm(t, partnerPhone, bodies(forms), forms[1])
	if n := w.editions.calls.Load(); n != 1 {
		t.Errorf("the digest was composed %d times; the template's headline is the kept edition's", n)
	}
}
