package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/orders"
)

// Handing over to the office, end to end through the signed webhook and
// the fake Twilio: what the office is sent, what the person is relayed,
// who may answer, and that a relay carries no authority. Every case runs
// on a fixed clock.

// handoffMorning is a Monday, 11:00 in Kolkata: the office is open.
var handoffMorning = time.Date(2026, 3, 16, 11, 0, 0, 0, domain.DefaultLocation())

// sunil is the demo's second salesperson: a third party to Ravi's handoff.
const sunil = "+919900000004"

// handoffShop is a Munshi on a fixed clock for handing over.
func handoffShop(t *testing.T, at time.Time, extra map[string]string) (*convShop, *fakeTwilio, *testClock) {
	t.Helper()
	clk := &testClock{fixed: at}
	tw := newFakeTwilio(t)
	return onShop(t, startMainAt(t, clk.Now, tw.URL, convEnv(extra)), "ho"), tw, clk
}

// sentTo are the bodies of the WhatsApp messages Twilio was asked to
// send to phone that contain want, once m's outbox is empty.
func sentTo(t *testing.T, m *Main, tw *fakeTwilio, phone, want string) []string {
	t.Helper()
	drained(t, m)
	var out []string
	for _, f := range tw.Sent() {
		if f.Get("To") == "whatsapp:"+phone && strings.Contains(f.Get("Body"), want) {
			out = append(out, f.Get("Body"))
		}
	}
	return out
}

// handoffMetric is the /metrics line of handoffs opened for trigger.
func handoffMetric(t *testing.T, m *Main, trigger string) string {
	t.Helper()
	for _, line := range strings.Split(scrape(t, m), "\n") {
		if strings.HasPrefix(line, `munshi_handoffs_total{trigger="`+trigger+`"}`) {
			return line
		}
	}
	return ""
}

// TestHandoffRoundTrip: two messages in a row not understood hand the
// conversation over; the owner (the office by default) gets one message
// with the handle and both texts, accounts none. "H-1 …" from the owner
// reaches the salesperson marked as the owner's; a third party's "H-1 …"
// is refused and relays nothing; "H-1 done" closes it and tells the
// salesperson.
func TestHandoffRoundTrip(t *testing.T) {
	s, tw, _ := handoffShop(t, handoffMorning, nil)
	first := s.sales("blue wala dabba bhi dekh lena")
	mustContain(t, "the first message not understood", first, "didn't understand")
	opened := s.sales("woh wala kal jaisa")
	mustContain(t, "the second message not understood", opened, "H-1", "passed this to the office", "Expect an answer by 13:00")

	office := sentTo(t, s.m, tw, demo.OwnerPhone, "H-1")
	if len(office) != 1 {
		t.Fatalf("the owner got %d handoff messages, want one: %q", len(office), office)
	}
	mustContain(t, "the office's message", office[0], "*H-1*", "Ravi Kumar (sales)", "did not understand two messages",
		"blue wala dabba bhi dekh lena", "woh wala kal jaisa", "H-1 done")
	if got := sentTo(t, s.m, tw, demo.AccountsPhone, "H-1"); len(got) != 0 {
		t.Errorf("accounts got the handoff without MUNSHI_HANDOFF_TO naming them: %q", got)
	}
	if line := handoffMetric(t, s.m, "not_understood"); !strings.HasSuffix(line, " 1") {
		t.Errorf("/metrics: %q; want one handoff not understood", line)
	}

	start := time.Now()
	answer := s.as(demo.OwnerPhone, "H-1 haan, 5% discount de do")
	mustContain(t, "the owner's answer", answer, "Sent to Ravi (H-1)")
	waitFor(t, tw, demo.SalesPhone, "(office)")
	t.Logf("round trip of a relay, the owner's webhook to Twilio's send to the salesperson: %v", time.Since(start))
	if got := sentTo(t, s.m, tw, demo.SalesPhone, "(office)"); len(got) != 1 || got[0] != "👤 Vikram (office): haan, 5% discount de do" {
		t.Fatalf("the salesperson got %q; want the owner's answer, marked as the owner's", got)
	}

	refused := s.as(sunil, "h-1: ok theek hai")
	mustContain(t, "a third party's reply", refused, "H-1 is not yours to answer")
	if got := sentTo(t, s.m, tw, demo.SalesPhone, "(office)"); len(got) != 1 {
		t.Errorf("a third party's reply was relayed: %q", got)
	}
	if n := auditCount(t, s.m, "refusal", "H-1"); n != 1 {
		t.Errorf("%d refusals of H-1 audited, want 1", n)
	}

	closed := s.as(demo.OwnerPhone, "H1 done")
	mustContain(t, "the close", closed, "H-1 closed; Ravi has been told")
	if got := sentTo(t, s.m, tw, demo.SalesPhone, "closed H-1"); len(got) != 1 {
		t.Errorf("the salesperson was told of the close %d times: %q", len(got), got)
	}
	if again := s.as(demo.OwnerPhone, "H-1 ek aur baat"); !strings.Contains(again, "closed already") {
		t.Errorf("an answer to a closed handoff got %q", again)
	}
	for _, event := range []string{"opened", "relayed to the person", "closed"} {
		if n := handoffAudits(t, s.m, event); n != 1 {
			t.Errorf("%d %q handoff entries audited, want 1", n, event)
		}
	}
}

// handoffAudits counts the handoff audit entries of an event.
func handoffAudits(t *testing.T, m *Main, event string) int {
	t.Helper()
	entries, err := m.Store.AuditEntries(context.Background(), "handoff")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if e.Detail["event"] == event {
			n++
		}
	}
	return n
}

// TestHandoffRelayHasNoAuthority: asked for while a draft is shown, the
// handoff names the draft; the office's "H-1 ok" is relayed as text and
// confirms nothing; while it is open Munshi still answers a stock
// question, and what it cannot answer goes to the office; the
// salesperson's own "ok" then confirms the draft as usual.
func TestHandoffRelayHasNoAuthority(t *testing.T) {
	s, tw, _ := handoffShop(t, handoffMorning, nil)
	summary := s.sales("Rajesh ke liye 5 carton GC, COD")
	d := s.draft(summary, "C01", domain.PayCOD, gc(5))
	asked := s.sales("owner se baat karao")
	mustContain(t, "asking for the office", asked, "H-1")
	office := sentTo(t, s.m, tw, demo.OwnerPhone, "H-1")
	if len(office) != 1 {
		t.Fatalf("the owner got %q", office)
	}
	mustContain(t, "the office's message", office[0], "asked to talk to someone", "draft "+d.ID+" was shown", "owner se baat karao")

	if reply := s.as(demo.OwnerPhone, "H-1 ok"); !strings.Contains(reply, "Sent to Ravi") {
		t.Fatalf("the owner's ok got %q", reply)
	}
	if got := sentTo(t, s.m, tw, demo.SalesPhone, "(office): ok"); len(got) != 1 {
		t.Fatalf("the relay of the owner's ok: %q", got)
	}
	if n := countOrders(t, s.m); n != s.history {
		t.Fatalf("the office's relayed ok placed an order: %d orders, %d before", n, s.history)
	}
	if ds := s.drafts(demo.SalesPhone); ds[len(ds)-1].Status != orders.DraftOpen {
		t.Fatalf("the draft after a relayed ok: %+v", ds[len(ds)-1])
	}

	mustContain(t, "a stock question while the handoff is open", s.sales("GC ka stock kitna hai?"), "Glass Cleaner")
	mustContain(t, "a message Munshi cannot read", s.sales("qwerty zxcv"), "passed that to the office (H-1)")
	if got := sentTo(t, s.m, tw, demo.OwnerPhone, "qwerty zxcv"); len(got) != 1 {
		t.Errorf("the office got the relayed message %d times: %q", len(got), got)
	}
	if line := handoffMetric(t, s.m, "asked"); !strings.HasSuffix(line, " 1") {
		t.Errorf("/metrics: %q; want one handoff asked for", line)
	}
}

// TestHandoffTriggers: a dispute hands over at once with its trigger; a
// second trigger while one is open is added to it, so a person has one
// open handoff; another person's is their own.
func TestHandoffTriggers(t *testing.T) {
	s, tw, _ := handoffShop(t, handoffMorning, nil)
	mustContain(t, "a dispute", s.as(sunil, "price galat hai"), "H-1")
	mustContain(t, "a second trigger", s.as(sunil, "ye order maine nahi diya"), "passed that to the office (H-1)")
	mustContain(t, "another person", s.sales("call me"), "H-2")
	office := sentTo(t, s.m, tw, demo.OwnerPhone, "needs the office")
	if len(office) != 2 {
		t.Fatalf("the office got %d openings, want one each: %q", len(office), office)
	}
	// The outbox sends the two openings concurrently: either may arrive
	// first.
	dispute := office[0]
	if !strings.Contains(dispute, "H-1") {
		dispute = office[1]
	}
	mustContain(t, "the dispute", dispute, "H-1", "Sunil Yadav (sales)", "disputes what Munshi said", "price galat hai")
	if got := sentTo(t, s.m, tw, demo.OwnerPhone, "ye order maine nahi diya"); len(got) != 1 || !strings.Contains(got[0], "H-1") {
		t.Errorf("the second trigger reached the office as %q; want it relayed on H-1", got)
	}
	if line := handoffMetric(t, s.m, "dispute"); !strings.HasSuffix(line, " 1") {
		t.Errorf("/metrics: %q; want one dispute", line)
	}
}

// TestHandoffReminder: with office hours 09:30-19:00 and a 2h timeout, a
// handoff opened at 18:30 is due at 11:00 the next morning (half an hour
// today, an hour and a half tomorrow); the person is told so. The office
// is reminded once then, and the person told again.
func TestHandoffReminder(t *testing.T) {
	evening := time.Date(2026, 3, 16, 18, 30, 0, 0, domain.DefaultLocation())
	s, tw, clk := handoffShop(t, evening, map[string]string{"MUNSHI_OFFICE_HOURS": "09:30-19:00", "MUNSHI_HANDOFF_TIMEOUT": "2h"})
	mustContain(t, "asking at 18:30", s.sales("kisi insaan se baat karni hai"), "H-1", "Expect an answer by 11:00 tomorrow")
	ctx := context.Background()
	remind := func(at time.Time) {
		drained(t, s.m) // before the clock jumps past a send's lease
		clk.Advance(at.Sub(clk.Now()))
		s.m.Handoffs.Remind(ctx)
	}
	remind(evening.Add(90 * time.Minute)) // 20:00: closed
	remind(time.Date(2026, 3, 17, 10, 59, 0, 0, domain.DefaultLocation()))
	if got := sentTo(t, s.m, tw, demo.OwnerPhone, "Reminder"); len(got) != 0 {
		t.Fatalf("reminded before the handoff was due: %q", got)
	}
	remind(time.Date(2026, 3, 17, 11, 0, 0, 0, domain.DefaultLocation()))
	remind(time.Date(2026, 3, 17, 12, 0, 0, 0, domain.DefaultLocation()))
	if got := sentTo(t, s.m, tw, demo.OwnerPhone, "Reminder"); len(got) != 1 || !strings.Contains(got[0], "*H-1*") {
		t.Fatalf("the office's reminders: %q; want one", got)
	}
	if got := sentTo(t, s.m, tw, demo.SalesPhone, "has not answered H-1 yet"); len(got) != 1 || !strings.Contains(got[0], "until 19:00 today") {
		t.Fatalf("the salesperson was told %d times: %q", len(got), got)
	}
	if n := handoffAudits(t, s.m, "reminded"); n != 1 {
		t.Errorf("%d reminders audited, want 1", n)
	}
}

// TestHandoffOutsideWindow: an office phone that has not written in 24
// hours gets the digest's approved template naming the handle; once they
// write "H-1" they read the handoff in full.
func TestHandoffOutsideWindow(t *testing.T) {
	const template = "HX0123456789abcdef0123456789abcdef"
	s, tw, _ := handoffShop(t, handoffMorning, map[string]string{"MUNSHI_DIGEST_TEMPLATE_SID": template})
	s.sales("talk to someone")
	drained(t, s.m)
	var templates []string
	for _, f := range tw.Sent() {
		if f.Get("To") == "whatsapp:"+demo.OwnerPhone {
			if f.Get("ContentSid") != template || f.Get("Body") != "" {
				t.Fatalf("the owner outside the window was sent %v; want the template", f)
			}
			templates = append(templates, f.Get("ContentVariables"))
		}
	}
	if len(templates) != 1 || !strings.Contains(templates[0], "H-1: Ravi Kumar (sales)") {
		t.Fatalf("templates to the owner: %q", templates)
	}
	mustContain(t, "the owner asking to see it", s.as(demo.OwnerPhone, "H-1"), "*H-1*", "Ravi Kumar (sales)", "talk to someone")
}

// TestHandoffAcrossTwoInstances: two Munshis share one Redis and one
// database. The two messages not understood arrive one at each; one
// handoff opens, the owner is sent it once; the owner's answer, delivered
// to both (Twilio's retry), is relayed once.
func TestHandoffAcrossTwoInstances(t *testing.T) {
	env := redisConvEnv(t)
	clk := &testClock{fixed: handoffMorning}
	tw := newFakeTwilio(t)
	a, b := startMainAt(t, clk.Now, tw.URL, env), startMainAt(t, clk.Now, tw.URL, env)
	say(t, a, "SMho2a", demo.SalesPhone, "blue wala dabba bhi dekh lena")
	mustContain(t, "the second message, on B", say(t, b, "SMho2b", demo.SalesPhone, "woh wala kal jaisa"), "H-1")
	var wg sync.WaitGroup
	replies := make([]string, 2)
	for i, m := range []*Main{a, b} {
		wg.Go(func() { replies[i] = say(t, m, "SMho2c", demo.OwnerPhone, "H-1 haan, bhej do") })
	}
	wg.Wait()
	if !strings.Contains(strings.Join(replies, "|"), "Sent to Ravi (H-1)") {
		t.Fatalf("the deliveries of the owner's answer got %q", replies)
	}
	drained(t, b)
	if got := sentTo(t, a, tw, demo.OwnerPhone, "needs the office"); len(got) != 1 {
		t.Errorf("the owner was sent the handoff %d times: %q", len(got), got)
	}
	if got := sentTo(t, a, tw, demo.SalesPhone, "(office): haan, bhej do"); len(got) != 1 {
		t.Errorf("the answer was relayed %d times: %q", len(got), got)
	}
}

// BenchmarkHandoffRelay is an office reply relayed to the salesperson: from
// the owner's webhook "H-1 …" until the fake Twilio is asked to send it to
// the salesperson, through the outbox.
func BenchmarkHandoffRelay(b *testing.B) {
	tw := newFakeTwilio(b)
	m := startMain(b, tw.URL, nil)
	client := &http.Client{}
	if _, opened := post(b, client, m, "SMhb-open", demo.SalesPhone, "kisi insaan se baat karni hai"); !strings.Contains(opened, "H-1") {
		b.Fatalf("no handoff opened: %s", opened)
	}
	relayed := func(text string) bool {
		for _, f := range tw.Sent() {
			if f.Get("To") == "whatsapp:"+demo.SalesPhone && strings.HasSuffix(f.Get("Body"), text) {
				return true
			}
		}
		return false
	}
	var lat latencies
	for n := 0; b.Loop(); n++ {
		text := fmt.Sprintf("relay number %d", n)
		start := time.Now()
		if _, reply := post(b, client, m, fmt.Sprintf("SMhb%08d", n), demo.OwnerPhone, "H-1 "+text); !strings.Contains(reply, "Sent to") {
			b.Fatalf("office reply: %s", reply)
		}
		for deadline := start.Add(10 * time.Second); !relayed(text); time.Sleep(50 * time.Microsecond) {
			if time.Now().After(deadline) {
				b.Fatalf("%q was not relayed", text)
			}
		}
		lat = append(lat, time.Since(start))
	}
	lat.report(b)
}
