package main

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
)

// The books after an order, end to end through the webhook: a delivery
// takes stock out of the godown and tells the placer, a short one
// re-prices, a cancellation reverses the dues, a payment lowers them to
// the paisa, and nobody records what their role may not.

// placeAndOk sends an order as the salesperson, says ok, and returns the
// order as the books hold it.
func placeAndOk(t *testing.T, m *Main, tag, text string) domain.Order {
	t.Helper()
	summary := say(t, m, "SMplace"+tag, demo.SalesPhone, text)
	draft := draftRef.FindString(summary)
	if draft == "" || !strings.Contains(summary, "Reply *ok*") {
		t.Fatalf("summary:\n%s", summary)
	}
	reply := say(t, m, "SMplaceok"+tag, demo.SalesPhone, "ok")
	id := placedAs(t, m, draft)
	if id == "" || !strings.Contains(reply, "Order *"+id+"* placed") {
		t.Fatalf("ok: %s", reply)
	}
	o, ok, err := m.Store.Order(context.Background(), id)
	if err != nil || !ok || o.Status != domain.OrderCommitted {
		t.Fatalf("order %s: %+v %v %v", id, o, ok, err)
	}
	return o
}

func readyOf(t *testing.T, m *Main, sku string) int64 {
	t.Helper()
	ps, err := m.Store.Products(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.SKU == sku {
			return p.StockReady
		}
	}
	t.Fatalf("no %s", sku)
	return 0
}

func mustContain(t *testing.T, what, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Fatalf("%s lacks %q:\n%s", what, w, got)
		}
	}
}

func TestDeliveryEndToEnd(t *testing.T) {
	m, tw, _ := startShop(t)
	ctx := context.Background()
	held, _ := m.Store.Committed(ctx, "GC500", "PH1L")
	o := placeAndOk(t, m, "d1", "10 carton glass cleaner aur 10 pack phenyl for Mehta ji, cheque")
	ready := readyOf(t, m, "GC500")
	if now, _ := m.Store.Committed(ctx, "GC500"); now["GC500"] != held["GC500"]+240 {
		t.Fatalf("committed %v, want 240 more than %v", now, held)
	}
	shown := say(t, m, "SMd1d", demo.AccountsPhone, o.ID+" deliver ho gaya")
	mustContain(t, "delivery summary", shown, o.ID, "Mehta Traders", "Reply *ok*")
	if readyOf(t, m, "GC500") != ready {
		t.Fatal("stock moved before ok")
	}
	mustContain(t, "delivery ok", say(t, m, "SMd1k", demo.AccountsPhone, "ok"), o.ID, "delivered")
	if got := readyOf(t, m, "GC500"); got != ready-240 {
		t.Errorf("GC ready %d, want %d", got, ready-240)
	}
	if now, _ := m.Store.Committed(ctx, "GC500", "PH1L"); now["GC500"] != held["GC500"] || now["PH1L"] != held["PH1L"] {
		t.Errorf("committed %v after delivery, want %v again", now, held)
	}
	got, _, _ := m.Store.Order(ctx, o.ID)
	if got.Status != domain.OrderDelivered || got.Total != o.Total {
		t.Errorf("order %+v", got)
	}
	waitFor(t, tw, demo.SalesPhone, "Your order "+o.ID+" for Mehta Traders was delivered")
	// The stock answer knows.
	mustContain(t, "stock after", say(t, m, "SMd1s", demo.OwnerPhone, "GC ka stock kitna hai?"), "Ready: "+domain.Units(ready-240, "bottle"))
}

// deliveredByCustomer is a delivery named by its customer alone.
const deliveredByCustomer = "Rajesh ka maal de diya"

// listedAt finds "N. ORD-…" in a question listing orders, and returns N.
func listedAt(t *testing.T, question, id string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^(\d+)\. ` + regexp.QuoteMeta(id) + ` · `).FindStringSubmatch(question)
	if m == nil {
		t.Fatalf("%s is not listed:\n%s", id, question)
	}
	return m[1]
}

// TestDeliveryByCustomerEndToEnd: "Rajesh ka maal de diya" with two of
// Rajesh's orders open asks which one, the answer shows that order's
// summary with the shortfall said first, "ok" delivers it, and a second
// "ok" delivers nothing again.
func TestDeliveryByCustomerEndToEnd(t *testing.T) {
	m, tw, _ := startShop(t)
	ctx := context.Background()
	a := placeAndOk(t, m, "bc1", "10 carton glass cleaner for Rajesh, cash")
	b := placeAndOk(t, m, "bc2", "12 carton glass cleaner for Rajesh, cash")
	ready := readyOf(t, m, "GC500")

	question := say(t, m, "SMbc1", demo.AccountsPhone, deliveredByCustomer+", GC 2 carton kam")
	mustContain(t, "question", question, "Rajesh Kirana Store has", "open orders", a.ID, b.ID, a.Total.String(), "Reply 1, 2… or the order number")
	if readyOf(t, m, "GC500") != ready {
		t.Fatal("stock moved at the question")
	}
	shown := say(t, m, "SMbc2", demo.AccountsPhone, listedAt(t, question, a.ID))
	mustContain(t, "summary", shown, "Delivered: "+a.ID, "Rajesh Kirana Store", "8 of 10 cartons delivered, 2 cartons short", "Reply *ok*")
	mustContain(t, "ok", say(t, m, "SMbc3", demo.AccountsPhone, "ok"), a.ID, "delivered, short")
	again := say(t, m, "SMbc4", demo.AccountsPhone, "ok")
	if strings.Contains(again, "recorded as delivered") {
		t.Fatalf("a second ok delivered again: %s", again)
	}
	if got, _, _ := m.Store.Order(ctx, a.ID); got.Status != domain.OrderDelivered || got.Lines[0].Short != 48 {
		t.Errorf("%s %s, lines %+v; want delivered with 48 short", a.ID, got.Status, got.Lines)
	}
	if got, _, _ := m.Store.Order(ctx, b.ID); got.Status != domain.OrderCommitted {
		t.Errorf("%s is %s: only the order chosen is delivered", b.ID, got.Status)
	}
	if got := readyOf(t, m, "GC500"); got != ready-192 {
		t.Errorf("GC ready %d, want %d: 8 cartons out, once", got, ready-192)
	}
	waitFor(t, tw, demo.SalesPhone, "Your order "+a.ID+" for Rajesh Kirana Store was delivered")
	if n := countTo(tw, demo.SalesPhone, "Your order "+a.ID); n != 1 {
		t.Errorf("the placer was told %d times", n)
	}
}

func TestShortDeliveryAndCancelMoveTheDues(t *testing.T) {
	m, tw, _ := startShop(t)
	ctx := context.Background()
	due := outstanding(t, m, "C03")
	held, _ := m.Store.Committed(ctx, "GC500")
	a := placeAndOk(t, m, "s1", "10 carton glass cleaner aur 10 pack phenyl for Mehta ji, udhaar")
	b := placeAndOk(t, m, "s2", "12 carton glass cleaner for Mehta ji, udhaar")
	if got := outstanding(t, m, "C03"); got != due+a.Total+b.Total {
		t.Fatalf("dues %v, want %v", got, due+a.Total+b.Total)
	}
	// 5 of the 10 GC cartons did not go: 120 × ₹92 = ₹11,040 + 18% GST off.
	shown := say(t, m, "SMs1d", demo.AccountsPhone, a.ID+" delivered, GC 5 carton kam")
	mustContain(t, "short summary", shown, "5 of 10 cartons delivered, 5 cartons short", "Phenyl 1L: all 10 packs delivered", "re-priced")
	mustContain(t, "short ok", say(t, m, "SMs1k", demo.AccountsPhone, "ok"), "delivered, short")
	repriced := a.Total - domain.Paise(1104000+198720)
	if got, _, _ := m.Store.Order(ctx, a.ID); got.Total != repriced || got.Status != domain.OrderDelivered {
		t.Errorf("short order total %v (%s), want %v", got.Total, got.Status, repriced)
	}
	if got, _, _ := m.Store.Order(ctx, a.ID); len(got.Lines) != 2 || got.Lines[0].Qty != 240 || got.Lines[0].Short != 120 {
		t.Errorf("short order lines %+v, want GC's 240 ordered with 120 short, beside the phenyl", got.Lines)
	}
	if got := outstanding(t, m, "C03"); got != due+repriced+b.Total {
		t.Errorf("dues %v after the short delivery, want %v", got, due+repriced+b.Total)
	}
	// A salesperson cannot cancel a placed order; the owner can.
	mustContain(t, "sales cancel", say(t, m, "SMs2x", demo.SalesPhone, "cancel "+b.ID), "Only an owner")
	shown = say(t, m, "SMs2c", demo.OwnerPhone, "cancel "+b.ID+" — customer refused")
	mustContain(t, "cancel summary", shown, b.ID, "customer refused", "Reply *ok*")
	mustContain(t, "cancel ok", say(t, m, "SMs2k", demo.OwnerPhone, "ok"), "cancelled")
	if got := outstanding(t, m, "C03"); got != due+repriced {
		t.Errorf("dues %v after the cancellation, want %v", got, due+repriced)
	}
	if now, _ := m.Store.Committed(ctx, "GC500"); now["GC500"] != held["GC500"] {
		t.Errorf("committed %v after cancel, want %v again", now, held)
	}
	waitFor(t, tw, demo.SalesPhone, "Your order "+b.ID+" for Mehta Traders")
	waitFor(t, tw, demo.SalesPhone, "was cancelled by Vikram Singh (customer refused)")
}

func TestPaymentEndToEnd(t *testing.T) {
	m, _, _ := startShop(t)
	ctx := context.Background()
	due := outstanding(t, m, "C03")
	shown := say(t, m, "SMp1", demo.AccountsPhone, "Mehta ne 50,000.50 diya cheque 123456")
	mustContain(t, "payment summary", shown, "Mehta Traders", "₹50,000.50", "cheque", "123456", due.String(), (due - 5000050).String())
	mustContain(t, "payment ok", say(t, m, "SMp1k", demo.AccountsPhone, "ok"), "Recorded")
	if got := outstanding(t, m, "C03"); got != due-5000050 {
		t.Fatalf("dues %v, want %v", got, due-5000050)
	}
	mustContain(t, "outstanding question", say(t, m, "SMp1q", demo.OwnerPhone, "Mehta ji ka outstanding"), "Outstanding: "+(due-5000050).String())

	mustContain(t, "duplicate", say(t, m, "SMp2", demo.AccountsPhone, "received 20000 from Mehta by cheque no 123456"), "already recorded")
	mustContain(t, "sales payment", say(t, m, "SMp3", demo.SalesPhone, "Mehta ne 5000 diya cash"), "Only the accounts team or an owner", "Priya Nair")
	refusals, err := m.Store.AuditEntries(ctx, "refusal")
	if err != nil {
		t.Fatal(err)
	}
	audited := false
	for _, e := range refusals {
		audited = audited || e.Actor == demo.SalesPhone && e.Subject == "payment"
	}
	if !audited {
		t.Errorf("the salesperson's payment refusal is not audited: %+v", refusals)
	}

	// Two "ok"s at once (a double tap, two MessageSids) record it once.
	mustContain(t, "second payment", say(t, m, "SMp4", demo.AccountsPhone, "Mehta 1.2 lakh NEFT ref UTR991"), "₹1,20,000")
	var replies [2]string
	var wg sync.WaitGroup
	for i := range replies {
		wg.Go(func() { replies[i] = say(t, m, fmt.Sprintf("SMp4k%d", i), demo.AccountsPhone, "ok") })
	}
	wg.Wait()
	if n := strings.Count(replies[0]+replies[1], "Recorded"); n != 1 {
		t.Fatalf("two oks: %q; want one recorded", replies)
	}
	if got := outstanding(t, m, "C03"); got != due-5000050-12000000 {
		t.Errorf("dues %v, want %v", got, due-5000050-12000000)
	}
}

func TestGoodsReceivedEndToEnd(t *testing.T) {
	m, _, _ := startShop(t)
	ready := readyOf(t, m, "GC500")
	mustContain(t, "receipt", say(t, m, "SMg1", demo.OwnerPhone, "GC 100 carton aaya"), "+100 cartons", "Reply *ok*")
	mustContain(t, "receipt ok", say(t, m, "SMg1k", demo.OwnerPhone, "ok"), "Stock updated")
	if got := readyOf(t, m, "GC500"); got != ready+2400 {
		t.Errorf("ready %d, want %d", got, ready+2400)
	}
	mustContain(t, "sales receipt", say(t, m, "SMg2", demo.SalesPhone, "GC 100 carton aaya"), "Only")
	// A part that came damaged is said, and only the rest is added.
	ready = readyOf(t, m, "GC500")
	mustContain(t, "damaged receipt", say(t, m, "SMg3", demo.OwnerPhone, "GC 20 carton aaya, 2 carton leak"),
		"+18 cartons", "Came damaged, not added to stock: Glass Cleaner 500ml 2 cartons")
	mustContain(t, "damaged receipt ok", say(t, m, "SMg3k", demo.OwnerPhone, "ok"), "Stock updated")
	if got := readyOf(t, m, "GC500"); got != ready+18*24 {
		t.Errorf("ready %d after a damaged part, want %d", got, ready+18*24)
	}
}

// TestOkAfterAQuestionIsAboutTheQuestion: a blocked draft, then an
// incomplete order, then "ok": the ok speaks of the question, and nothing
// is placed.
func TestOkAfterAQuestionIsAboutTheQuestion(t *testing.T) {
	m, _, _ := startShop(t)
	blocked := say(t, m, "SMq1", demo.SalesPhone, "500 carton glass cleaner for Rajesh, COD")
	mustContain(t, "blocked summary", blocked, "cannot be placed")
	id := draftRef.FindString(blocked)
	question := say(t, m, "SMq2", demo.SalesPhone, "Rajesh ke liye 5 carton")
	reply := say(t, m, "SMq3", demo.SalesPhone, "ok")
	if strings.Contains(reply, id) || !strings.Contains(reply, strings.SplitN(question, "\n", 2)[0]) {
		t.Fatalf("ok after the question %q = %q; want it to speak of the question, not %s", question, reply, id)
	}
	if placedAs(t, m, id) != "" {
		t.Fatalf("%s placed", id)
	}
}

// BenchmarkPaymentRoundTrip is a payment message answered with its
// summary: reading the amount, mode and reference, the ledger read, the
// proposal stored, audit, TwiML.
func BenchmarkPaymentRoundTrip(b *testing.B) {
	m := startMain(b, newFakeTwilio(b).URL, nil)
	benchMessages(b, m, demo.AccountsPhone, "Mehta ne 50,000 diya cheque 123456",
		want{has: []string{"Payment from Mehta Traders", "₹50,000 by cheque", "Reply *ok*"}})
}

// BenchmarkPaymentOkRoundTrip is the "ok" that records a payment: the
// proposal claimed, the ledger judged again inside the transaction, the
// payment inserted and the dues lowered. Each iteration first shows a
// payment with a new reference (not timed), and checks after the "ok"
// that the dues fell by it (not timed).
func BenchmarkPaymentOkRoundTrip(b *testing.B) {
	m := startMain(b, newFakeTwilio(b).URL, nil)
	client := &http.Client{}
	lat := make(latencies, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		due := outstanding(b, m, "C03")
		_, shown := post(b, client, m, fmt.Sprintf("SMpay%09d", i), demo.AccountsPhone, fmt.Sprintf("Mehta 1000 UPI ref R%09d", i))
		want{has: []string{"Reply *ok*"}}.check(b, "payment", shown)
		b.StartTimer()
		took, reply := post(b, client, m, fmt.Sprintf("SMpayok%09d", i), demo.AccountsPhone, "ok")
		b.StopTimer()
		want{has: []string{"Recorded"}}.check(b, "ok", reply)
		if got := outstanding(b, m, "C03"); got != due-100000 {
			b.Fatalf("dues %v after the ok, want %v", got, due-100000)
		}
		lat = append(lat, took)
	}
	lat.report(b)
}

// BenchmarkDeliveryOkRoundTrip is "ORD-… delivered" and its "ok", each
// timed as one round trip: the order read, the summary, then the
// delivery applied (order delivered, stock out, placer's message in the
// outbox). Each iteration first places an order (not timed) and checks
// after the "ok" (not timed) that it is delivered, that its lines left
// the godown's ready stock, and that the placer's message is in the
// outbox.
func BenchmarkDeliveryOkRoundTrip(b *testing.B) {
	m := startMain(b, newFakeTwilio(b).URL, nil)
	ctx := context.Background()
	client := &http.Client{}
	products, err := m.Store.Products(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for i := range products {
		products[i].StockReady += int64(b.N+1) * 240
	}
	if err := m.Store.UpsertProducts(ctx, products); err != nil {
		b.Fatal(err)
	}
	var msgs, oks latencies
	b.ReportAllocs()
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		_, summary := post(b, client, m, fmt.Sprintf("SMdo%09d", i), demo.SalesPhone, confirmDraft)
		want{has: []string{"Mehta Traders", "Reply *ok*"}}.check(b, confirmDraft, summary)
		_, placed := post(b, client, m, fmt.Sprintf("SMdk%09d", i), demo.SalesPhone, "ok")
		id := orderID.FindString(placed)
		want{has: []string{"placed", id}}.check(b, "ok", placed)
		o, _, err := m.Store.Order(ctx, id)
		if err != nil || len(o.Lines) == 0 {
			b.Fatalf("order %s: %+v, %v", id, o, err)
		}
		before := readyStock(b, m)
		b.StartTimer()
		took, shown := post(b, client, m, fmt.Sprintf("SMdd%09d", i), demo.AccountsPhone, id+" delivered")
		tookOk, done := post(b, client, m, fmt.Sprintf("SMddk%09d", i), demo.AccountsPhone, "ok")
		b.StopTimer()
		want{has: []string{"Delivered: " + id, "Reply *ok*"}}.check(b, "delivery", shown)
		want{has: []string{id, "delivered"}}.check(b, "ok", done)
		if o, _, _ := m.Store.Order(ctx, id); o.Status != domain.OrderDelivered {
			b.Fatalf("%s is %s after the ok", id, o.Status)
		}
		after := readyStock(b, m)
		out := map[string]int64{}
		for _, l := range o.Lines {
			out[l.SKU] += l.Qty
		}
		for sku, was := range before {
			if was-after[sku] != out[sku] {
				b.Fatalf("%s: ready stock went from %d to %d on delivering %s, want %d out", sku, was, after[sku], id, out[sku])
			}
		}
		if !placerTold(b, m, demo.SalesPhone, "Your order "+id+" for Mehta Traders was delivered") {
			b.Fatalf("the placer's message about %s is not in the outbox", id)
		}
		msgs, oks = append(msgs, took), append(oks, tookOk)
	}
	msgs.reportAs(b, "msg-p99-µs")
	oks.reportAs(b, "ok-p99-µs")
}

// readyStock is the godown's ready stock by SKU.
func readyStock(b *testing.B, m *Main) map[string]int64 {
	ps, err := m.Store.Products(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	ready := make(map[string]int64, len(ps))
	for _, p := range ps {
		ready[p.SKU] = p.StockReady
	}
	return ready
}

// placerTold reports whether the outbox holds, sent or not, a WhatsApp
// message to phone that says text.
func placerTold(b *testing.B, m *Main, phone, text string) bool {
	rows, err := m.Store.OutboxMessages(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range rows {
		if r.Kind == domain.EffectWhatsApp && r.To == phone && strings.Contains(string(r.Payload), text) {
			return true
		}
	}
	return false
}
