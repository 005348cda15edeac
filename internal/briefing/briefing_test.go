package briefing_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/internal/scheduler"
	"github.com/munshi/munshi/internal/scheduler/schedulertest"
	"github.com/munshi/munshi/internal/twilio/twiliotest"
)

// everyoneWrote puts every recipient inside WhatsApp's window: they wrote
// last evening.
func everyoneWrote(t *testing.T, w *world) {
	for _, phone := range []string{ownerPhone, partnerPhone, accountsPhone} {
		w.wrote(t, phone, at(7, 0).Add(-10*time.Hour))
	}
}

// wantDelivered checks what Twilio and the mail server got: each brief and
// each mail exactly once.
func wantDelivered(t *testing.T, w *world, date string) {
	t.Helper()
	for phone, part := range map[string]string{ownerPhone: "☀️ " + date, partnerPhone: "☀️ " + date, accountsPhone: "💰 Dues on " + date} {
		if got := bodies(formsTo(w.twilio, phone)); len(got) != 1 || !strings.HasPrefix(got[0], part) {
			t.Errorf("%s got %q on WhatsApp, want once the part starting %q", phone, got, part)
		}
	}
	if got := formsTo(w.twilio, salesPhone); len(got) != 0 {
		t.Errorf("sales got %d messages, want none", len(got))
	}
	for _, addr := range []string{ownerMail, accountsMail} {
		if n := mailsTo(w.smtp, addr); n != 1 {
			t.Errorf("%s got %d mails, want 1", addr, n)
		}
	}
}

// TestScheduleFiresOnce: on the scheduler's clock the job runs at 07:00
// in Kolkata, once, and sends yesterday's digest; the next one is due the
// day after.
func TestScheduleFiresOnce(t *testing.T) {
	clk := schedulertest.NewClock(at(6, 0))
	w := newWorld(t, clk)
	everyoneWrote(t, w)
	in := w.instance("")
	s := scheduler.New(scheduler.Options{Clock: clk, Logger: in.service.Logger})
	ran := make(chan struct{}, 4)
	if _, err := s.Cron("digest", "0 7 * * *", ist, func(ctx context.Context) {
		in.service.Run(ctx)
		ran <- struct{}{}
	}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	defer func() { cancel(); <-done }()

	if d := clk.WaitTimers(t, 1); !d[0].Equal(at(7, 0)) {
		t.Fatalf("digest due %v, want 07:00 IST", d[0])
	}
	clk.Set(at(7, 0))
	<-ran
	in.drain()
	wantDelivered(t, w, "13 Mar")
	if n := w.editions.calls.Load(); n != 1 {
		t.Errorf("the digest was made %d times, want once", n)
	}
	if d := clk.WaitTimers(t, 1); !d[0].Equal(at(7, 0).AddDate(0, 0, 1)) {
		t.Fatalf("next digest due %v, want 07:00 tomorrow", d[0])
	}
	clk.Set(at(7, 0).AddDate(0, 0, 1).Add(-time.Second))
	select {
	case <-ran:
		t.Fatal("the job ran again before tomorrow's 07:00")
	default:
	}
	if !strings.Contains(in.log.String(), "briefing: digest sent") {
		t.Errorf("the run was not logged:\n%s", in.log)
	}
}

// TestTwoInstancesSendOnce: two processes on one database, each sending
// the digest of the same date at the same moment (and a manual send after
// them), deliver each brief and each mail once.
func TestTwoInstancesSendOnce(t *testing.T) {
	clk := clocktest.At(at(7, 0))
	w := newWorld(t, clk)
	everyoneWrote(t, w)
	a, b := w.instance(""), w.instance("")
	var wg sync.WaitGroup
	for _, in := range []*instance{a, b, a, b} {
		wg.Go(func() {
			if _, err := in.service.Send(context.Background(), at(0, 0).AddDate(0, 0, -1)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// Both dispatchers work the outbox at once, too.
	wg.Go(a.drain)
	wg.Go(b.drain)
	wg.Wait()
	manual, err := w.instance("").service.Send(context.Background(), at(0, 0).AddDate(0, 0, -1))
	if err != nil || manual.Total() != 0 || manual.Already != 5 {
		t.Errorf("a manual send after them = %+v, %v; want nothing new, 5 claimed before", manual, err)
	}
	a.drain()
	wantDelivered(t, w, "13 Mar")
}

// TestRestartAfterSevenCatchesUp: Munshi was down at 07:00 and starts at
// 09:30: it sends the digest at once; a second restart sends nothing more.
func TestRestartAfterSevenCatchesUp(t *testing.T) {
	clk := clocktest.At(at(9, 30))
	w := newWorld(t, clk)
	everyoneWrote(t, w)
	in := w.instance("")
	if err := in.service.CatchUp(context.Background(), "0 7 * * *", 12*time.Hour); err != nil {
		t.Fatal(err)
	}
	in.drain()
	wantDelivered(t, w, "13 Mar")
	if !strings.Contains(in.log.String(), "catch-up at start") {
		t.Errorf("the catch-up was not logged:\n%s", in.log)
	}

	clk.Set(at(10, 0))
	again := w.instance("")
	if err := again.service.CatchUp(context.Background(), "0 7 * * *", 12*time.Hour); err != nil {
		t.Fatal(err)
	}
	again.drain()
	wantDelivered(t, w, "13 Mar")
}

// TestNoCatchUpAfterTheLatestHour: started at 12:00 or later, the missed
// digest is not sent, and the log says why; started before 07:00, the
// schedule sends it, not the start.
func TestNoCatchUpAfterTheLatestHour(t *testing.T) {
	for _, start := range []time.Time{at(12, 0), at(18, 45)} {
		clk := clocktest.At(start)
		w := newWorld(t, clk)
		everyoneWrote(t, w)
		in := w.instance("")
		if err := in.service.CatchUp(context.Background(), "0 7 * * *", 12*time.Hour); err != nil {
			t.Fatal(err)
		}
		in.drain()
		if n := len(w.twilio.Requests()) + len(w.smtp.Messages()); n != 0 || w.editions.calls.Load() != 0 {
			t.Errorf("started at %v: %d messages sent; want none", start.Format("15:04"), n)
		}
		if log := in.log.String(); !strings.Contains(log, "past MUNSHI_DIGEST_LATEST") || !strings.Contains(log, "date=2026-03-13") {
			t.Errorf("started at %v, the log does not say why nothing was sent:\n%s", start.Format("15:04"), log)
		}
	}
	clk := clocktest.At(at(6, 59))
	w := newWorld(t, clk)
	in := w.instance("")
	if err := in.service.CatchUp(context.Background(), "0 7 * * *", 12*time.Hour); err != nil {
		t.Fatal(err)
	}
	if w.editions.calls.Load() != 0 || in.log.String() != "" {
		t.Errorf("before 07:00 the start sent or logged something:\n%s", in.log)
	}
	// A spec that is not due today (weekdays only, on a Saturday) has
	// nothing to catch up.
	clk.Set(at(9, 0))
	if err := in.service.CatchUp(context.Background(), "0 7 * * 1-5", 12*time.Hour); err != nil || w.editions.calls.Load() != 0 {
		t.Errorf("a weekday schedule caught up on a Saturday: %v", err)
	}
	if err := in.service.CatchUp(context.Background(), "0 7 * *", 12*time.Hour); err == nil {
		t.Error("a bad spec was accepted")
	}
}

// templateForm checks that form is the digest template of 13 March with
// the headline on one line, and no Body.
func templateForm(t *testing.T, who string, forms []string, form map[string][]string) {
	t.Helper()
	get := func(k string) string {
		if v := form[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	if get("ContentSid") != templateSID || len(form["Body"]) != 0 {
		t.Fatalf("%s: form %v; want ContentSid %s and no Body (all: %q)", who, form, templateSID, forms)
	}
	var vars map[string]string
	if err := json.Unmarshal([]byte(get("ContentVariables")), &vars); err != nil {
		t.Fatalf("%s: ContentVariables %q: %v", who, get("ContentVariables"), err)
	}
	if vars["1"] != "13 Mar 2026" || vars["2"] != "Sales of 13 Mar: ₹1,24,500, 12% above a usual Friday" || len(vars) != 2 {
		t.Errorf("%s: ContentVariables = %q; want the date and the headline on one line", who, vars)
	}
}

// TestOutsideWindowSendsTemplate: an owner who has not written in 24
// hours gets the template (ContentSid and ContentVariables, no Body); the
// brief goes when they write, once.
func TestOutsideWindowSendsTemplate(t *testing.T) {
	clk := clocktest.At(at(7, 0))
	w := newWorld(t, clk)
	w.wrote(t, ownerPhone, at(7, 0).Add(-30*time.Hour))
	w.wrote(t, partnerPhone, at(7, 0).Add(-2*time.Hour))
	// Priya never wrote at all.
	in := w.instance(templateSID)
	sent, err := in.service.Send(context.Background(), at(0, 0).AddDate(0, 0, -1))
	if err != nil || sent.Briefs != 1 || sent.Templates != 2 || sent.Mails != 2 {
		t.Fatalf("Send = %+v, %v; want 1 brief, 2 templates, 2 mails", sent, err)
	}
	in.drain()
	for _, phone := range []string{ownerPhone, accountsPhone} {
		forms := formsTo(w.twilio, phone)
		if len(forms) != 1 {
			t.Fatalf("%s got %q, want one template", phone, bodies(forms))
		}
		templateForm(t, phone, bodies(forms), forms[0])
	}
	if got := bodies(formsTo(w.twilio, partnerPhone)); len(got) != 1 || !strings.HasPrefix(got[0], "☀️ 13 Mar") {
		t.Errorf("the partner, inside the window, got %q; want the brief", got)
	}
	if in.service.Note() != "" {
		t.Errorf("Note() = %q with a template, want none", in.service.Note())
	}

	// Vikram answers the template: the brief follows, once, however often
	// he writes.
	clk.Advance(2 * time.Hour)
	for range 3 {
		clk.Advance(time.Minute)
		w.wrote(t, ownerPhone, clk.Now())
		in.service.Replied(context.Background(), ownerPhone)
		in.drain()
	}
	got := bodies(formsTo(w.twilio, ownerPhone))
	if len(got) != 2 || !strings.HasPrefix(got[1], "☀️ 13 Mar") {
		t.Errorf("after his reply Vikram got %q; want the template, then the brief once", got)
	}
	if len(formsTo(w.twilio, accountsPhone)) != 1 {
		t.Errorf("Priya's brief went before she wrote")
	}
}

// TestOutsideWindowWithoutTemplateEmailOnly: with no template, someone
// outside the window gets no WhatsApp message; the mail goes, the log and
// the readiness note say so, and the brief waits for their message.
func TestOutsideWindowWithoutTemplateEmailOnly(t *testing.T) {
	clk := clocktest.At(at(7, 0))
	w := newWorld(t, clk)
	w.wrote(t, partnerPhone, at(6, 0))
	w.wrote(t, accountsPhone, at(6, 0))
	in := w.instance("")
	sent, err := in.service.Send(context.Background(), at(0, 0).AddDate(0, 0, -1))
	if err != nil || sent.EmailOnly != 1 || sent.Briefs != 2 {
		t.Fatalf("Send = %+v, %v; want Vikram by email only", sent, err)
	}
	in.drain()
	if n := len(formsTo(w.twilio, ownerPhone)); n != 0 {
		t.Errorf("Vikram got %d WhatsApp messages outside the window", n)
	}
	if mailsTo(w.smtp, ownerMail) != 1 {
		t.Errorf("the owners' mail did not go")
	}
	if log := in.log.String(); !strings.Contains(log, "email only") || !strings.Contains(log, ownerPhone) {
		t.Errorf("the log does not say who gets email only:\n%s", log)
	}
	if note := in.service.Note(); !strings.Contains(note, "MUNSHI_DIGEST_TEMPLATE_SID") || !strings.Contains(note, "(1 in the last digest)") {
		t.Errorf("Note() = %q", note)
	}
	w.wrote(t, ownerPhone, at(9, 0))
	in.service.Replied(context.Background(), ownerPhone)
	in.drain()
	if got := bodies(formsTo(w.twilio, ownerPhone)); len(got) != 1 || !strings.HasPrefix(got[0], "☀️ 13 Mar") {
		t.Errorf("after writing Vikram got %q; want the held brief", got)
	}
}

// TestRefused63016SendsTemplate: Twilio refuses a brief with 63016 (the
// record said they wrote, but WhatsApp says the window is closed): the
// template goes instead and the brief waits for the reply.
func TestRefused63016SendsTemplate(t *testing.T) {
	clk := clocktest.At(at(7, 0))
	w := newWorld(t, clk)
	everyoneWrote(t, w)
	w.twilio.FailTo(ownerPhone, twiliotest.OutsideWindow)
	in := w.instance(templateSID)
	if _, err := in.service.Send(context.Background(), at(0, 0).AddDate(0, 0, -1)); err != nil {
		t.Fatal(err)
	}
	in.drain()
	forms := formsTo(w.twilio, ownerPhone)
	if len(forms) != 2 || forms[0].Get("Body") == "" {
		t.Fatalf("Vikram's requests = %v; want the refused brief, then the template", forms)
	}
	templateForm(t, ownerPhone, bodies(forms), forms[1])
	clk.Advance(time.Hour)
	w.twilio.Forgive(ownerPhone)
	w.wrote(t, ownerPhone, clk.Now())
	in.service.Replied(context.Background(), ownerPhone)
	in.drain()
	if got := bodies(formsTo(w.twilio, ownerPhone)); len(got) != 3 || !strings.HasPrefix(got[2], "☀️ 13 Mar") {
		t.Errorf("after his reply Vikram got %q; want the brief last", got)
	}
}

// TestRefused63016FallsBackToEmail: without a template, a brief refused
// with 63016 leaves the email: the mail reaches the server, no other
// WhatsApp message is tried, and the brief waits for their message.
func TestRefused63016FallsBackToEmail(t *testing.T) {
	clk := clocktest.At(at(7, 0))
	w := newWorld(t, clk)
	everyoneWrote(t, w)
	w.twilio.FailTo(ownerPhone, twiliotest.OutsideWindow)
	in := w.instance("")
	if _, err := in.service.Send(context.Background(), at(0, 0).AddDate(0, 0, -1)); err != nil {
		t.Fatal(err)
	}
	in.drain()
	if got := w.smtp.Wait(2, 10*time.Second); mailsTo(w.smtp, ownerMail) != 1 || len(got) != 2 {
		t.Fatalf("the mail server got %d mails (%d for the owners); want the owners' and the accounts'", len(got), mailsTo(w.smtp, ownerMail))
	}
	if n := len(formsTo(w.twilio, ownerPhone)); n != 1 {
		t.Errorf("Vikram's number was tried %d times, want once", n)
	}
	if log := in.log.String(); !strings.Contains(log, "WhatsApp refused the brief") || !strings.Contains(log, "email only") {
		t.Errorf("the fallback was not logged:\n%s", log)
	}
	if note := in.service.Note(); !strings.Contains(note, "email only") {
		t.Errorf("Note() = %q", note)
	}
	w.twilio.Forgive(ownerPhone)
	w.wrote(t, ownerPhone, at(8, 0))
	in.service.Replied(context.Background(), ownerPhone)
	in.drain()
	if got := bodies(formsTo(w.twilio, ownerPhone)); len(got) != 2 || got[1] != got[0] {
		t.Errorf("after writing Vikram got %q; want the refused brief again", got)
	}
}

// TestStatusCallback63016SendsTemplate: Twilio took the brief and later
// reported it undelivered with 63016: the template goes, once however many
// callbacks come; other failures and other messages change nothing.
func TestStatusCallback63016SendsTemplate(t *testing.T) {
	clk := clocktest.At(at(7, 0))
	w := newWorld(t, clk)
	everyoneWrote(t, w)
	in := w.instance(templateSID)
	if _, err := in.service.Send(context.Background(), at(0, 0).AddDate(0, 0, -1)); err != nil {
		t.Fatal(err)
	}
	in.drain()
	sid := in.providerID(t, ownerPhone)
	ctx := context.Background()
	in.service.DeliveryFailed(ctx, sid, "failed", "30008") // another failure
	in.service.DeliveryFailed(ctx, "SMunknown", "undelivered", "63016")
	in.drain()
	if n := len(formsTo(w.twilio, ownerPhone)); n != 1 {
		t.Fatalf("Vikram got %d messages after unrelated callbacks, want 1", n)
	}
	in.service.DeliveryFailed(ctx, sid, "undelivered", "63016")
	in.service.DeliveryFailed(ctx, sid, "undelivered", "63016")
	in.drain()
	forms := formsTo(w.twilio, ownerPhone)
	if len(forms) != 2 {
		t.Fatalf("Vikram got %q; want the brief and one template", bodies(forms))
	}
	templateForm(t, ownerPhone, bodies(forms), forms[1])
}

// providerID is the id Twilio gave the last message sent to phone.
func (in *instance) providerID(t *testing.T, phone string) string {
	t.Helper()
	msgs, err := in.store.OutboxMessages(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sid := ""
	for _, m := range msgs {
		if m.To == phone {
			sid = m.ProviderID
		}
	}
	return sid
}
