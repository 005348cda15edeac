package main

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/conversation"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/redis/redistest"
	"github.com/munshi/munshi/orders"
)

// Conversations end to end, through the signed webhook: a question Munshi
// asks is answered by the next message, a shown draft takes corrections,
// and only an "ok" to the summary as it stands places anything. Every
// case is judged by the books (drafts, committed orders, payments), not
// only by the reply's words.
//
// The minimum order is ₹1,000 here, so that the small orders of these
// conversations are placed on the salesperson's "ok" instead of waiting
// for an owner (the minimum has tests of its own).

// convShop is one Munshi with the demo books and the conversation's SIDs.
type convShop struct {
	t       *testing.T
	m       *Main
	tag     string // makes the MessageSids of this shop its own
	n       int
	history int // orders in the books before the conversation
}

// convEnv is the configuration of a conversation shop, with extra.
func convEnv(extra map[string]string) map[string]string {
	env := map[string]string{"MUNSHI_MIN_ORDER": "1000"}
	maps.Copy(env, extra)
	return env
}

// newConvShop runs Munshi for one conversation.
func newConvShop(t *testing.T, extra map[string]string, configure ...func(*Main)) *convShop {
	t.Helper()
	return onShop(t, startMain(t, newFakeTwilio(t).URL, convEnv(extra), configure...), "")
}

// onShop is a conversation on a Munshi already running.
func onShop(t *testing.T, m *Main, tag string) *convShop {
	t.Helper()
	return &convShop{t: t, m: m, tag: tag, history: countOrders(t, m)}
}

// sales says body as the salesperson and returns the reply.
func (s *convShop) sales(body string) string {
	s.t.Helper()
	return s.as(demo.SalesPhone, body)
}

// as says body as phone, under a MessageSid of its own.
func (s *convShop) as(phone, body string) string {
	s.t.Helper()
	s.n++
	return say(s.t, s.m, fmt.Sprintf("SMcv%s%03d", s.tag, s.n), phone, body)
}

// drafts are every draft phone was shown, oldest first.
func (s *convShop) drafts(phone string) []orders.Draft {
	s.t.Helper()
	return draftsOf(s.t, s.m, phone)
}

func draftsOf(t *testing.T, m *Main, phone string) []orders.Draft {
	t.Helper()
	db, err := sql.Open("sqlite3", m.Config.DB)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT id FROM drafts WHERE placed_by = ? ORDER BY rowid`, phone)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	var out []orders.Draft
	for _, id := range ids {
		d, ok, err := m.Store.DraftByID(context.Background(), id)
		if err != nil || !ok {
			t.Fatalf("draft %s: %v %v", id, ok, err)
		}
		out = append(out, d)
	}
	return out
}

// draftsFor are the drafts shown for a customer, oldest first.
func draftsFor(t *testing.T, m *Main, customer string) []orders.Draft {
	t.Helper()
	var out []orders.Draft
	for _, d := range draftsOf(t, m, demo.SalesPhone) {
		if d.Customer.ID == customer {
			out = append(out, d)
		}
	}
	return out
}

// draft is the draft a summary shows, as the books hold it: open, for
// customer, paid by mode, with exactly lines.
func (s *convShop) draft(summary, customer string, mode domain.PaymentMode, lines map[string]int64) orders.Draft {
	s.t.Helper()
	ref := draftRef.FindString(summary)
	if ref == "" || !strings.Contains(summary, "Reply *ok*") {
		s.t.Fatalf("not a summary waiting for ok:\n%s", summary)
	}
	d, ok, err := s.m.Store.DraftByID(context.Background(), ref)
	if err != nil || !ok {
		s.t.Fatalf("draft %s not in the books: %v %v", ref, ok, err)
	}
	if d.Status != orders.DraftOpen || d.OrderID != "" || d.PlacedBy != demo.SalesPhone {
		s.t.Fatalf("draft %s is %s, placed as %q, by %s", ref, d.Status, d.OrderID, d.PlacedBy)
	}
	if d.Customer.ID != customer || d.Payment != mode || !maps.Equal(linesOf(d.Lines), lines) {
		s.t.Fatalf("draft %s is for %s (%s) with %v; want %s (%s) with %v", ref, d.Customer.ID, d.Payment, linesOf(d.Lines), customer, mode, lines)
	}
	return d
}

// placed are the orders Munshi committed in this conversation, in order.
func (s *convShop) placed() []domain.Order {
	s.t.Helper()
	commits, err := s.m.Store.AuditEntries(context.Background(), "commit")
	if err != nil {
		s.t.Fatal(err)
	}
	var out []domain.Order
	for _, c := range commits {
		o, ok, err := s.m.Store.Order(context.Background(), c.Subject)
		if err != nil || !ok {
			s.t.Fatalf("committed order %s not in the books: %v %v", c.Subject, ok, err)
		}
		out = append(out, o)
	}
	if n := countOrders(s.t, s.m) - s.history; n != len(out) {
		s.t.Fatalf("%d orders added to the books, %d commits audited", n, len(out))
	}
	return out
}

// nothingPlaced checks that no order was committed.
func (s *convShop) nothingPlaced(after string) {
	s.t.Helper()
	if got := s.placed(); len(got) != 0 {
		s.t.Fatalf("after %s, %d orders were placed: %+v", after, len(got), got)
	}
}

// placedOnly checks that the books hold exactly one new order, placed
// from draft, for customer, paid by mode, with exactly lines; the reply
// to the ok names it.
func (s *convShop) placedOnly(reply string, draft orders.Draft, customer string, mode domain.PaymentMode, lines map[string]int64) domain.Order {
	s.t.Helper()
	got := s.placed()
	if len(got) != 1 {
		s.t.Fatalf("%d orders placed, want 1 (the ok said %q)", len(got), reply)
	}
	o := got[0]
	if !strings.Contains(reply, "Order *"+o.ID+"* placed") {
		s.t.Fatalf("the ok's reply does not name %s: %s", o.ID, reply)
	}
	if id := placedAs(s.t, s.m, draft.ID); id != o.ID {
		s.t.Fatalf("draft %s placed as %q; the order placed is %s", draft.ID, id, o.ID)
	}
	if o.Status != domain.OrderCommitted || o.CustomerID != customer || o.Payment != mode || o.PlacedBy != demo.SalesPhone ||
		!maps.Equal(linesOf(o.Lines), lines) || o.Total != draft.Total {
		s.t.Fatalf("order %s is %s for %s (%s) by %s with %v, total %v; want committed for %s (%s) with %v, total %v",
			o.ID, o.Status, o.CustomerID, o.Payment, o.PlacedBy, linesOf(o.Lines), o.Total, customer, mode, lines, draft.Total)
	}
	return o
}

func linesOf(lines []domain.OrderLine) map[string]int64 {
	out := map[string]int64{}
	for _, l := range lines {
		out[l.SKU] += l.Qty
	}
	return out
}

// gc is n cartons of glass cleaner (24 bottles each).
func gc(cartons int64) map[string]int64 { return map[string]int64{"GC500": 24 * cartons} }

// TestConversationCustomerAnswer: "Gupta" is two customers; the question
// is answered by the full name, by a part of it, by the id or by its
// place in the question, and the ok places one order for Gupta Brothers.
func TestConversationCustomerAnswer(t *testing.T) {
	for _, c := range []struct {
		name, order, answer string
		mode                domain.PaymentMode
	}{
		{"full name", "Gupta ke liye 5 carton GC, credit", "Gupta Brothers", domain.PayCredit},
		{"part of the name", "Gupta ke liye 5 carton GC, cheque", "bros", domain.PayCheque},
		{"id", "Gupta ke liye 5 carton GC, credit", "C09", domain.PayCredit},
		{"position", "Gupta ke liye 5 carton GC, cheque", "dusra", domain.PayCheque},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newConvShop(t, nil)
			q := s.sales(c.order)
			mustContain(t, "question", q, "Gupta Supermart (C04) or Gupta Brothers (C09)")
			if ds := s.drafts(demo.SalesPhone); len(ds) != 0 {
				t.Fatalf("a question left drafts: %+v", ds)
			}
			summary := s.sales(c.answer)
			mustContain(t, "summary", summary, "for *Gupta Brothers*", "5 cartons (120 bottles)")
			d := s.draft(summary, "C09", c.mode, gc(5))
			if n := len(s.drafts(demo.SalesPhone)); n != 1 {
				t.Fatalf("%d drafts after the answer, want 1", n)
			}
			s.placedOnly(s.sales("ok"), d, "C09", c.mode, gc(5))
		})
	}
	// The catalog writes Supermart only in Latin letters: the answer in
	// Devanagari is read by its sound, among the two offered.
	t.Run("in Devanagari", func(t *testing.T) {
		s := newConvShop(t, nil)
		mustContain(t, "question", s.sales("Gupta ke liye 5 carton GC, cheque"), "Gupta Supermart (C04)")
		summary := s.sales("सुपरमार्ट वाले")
		mustContain(t, "summary", summary, "for *Gupta Supermart*", "5 cartons (120 bottles)")
		d := s.draft(summary, "C04", domain.PayCheque, gc(5))
		s.placedOnly(s.sales("ok"), d, "C04", domain.PayCheque, gc(5))
	})
	// Gupta Brothers do not pay cash: the answer shows the order and why
	// it cannot be placed, and the ok places nothing.
	t.Run("cash refused for Gupta Brothers", func(t *testing.T) {
		s := newConvShop(t, nil)
		mustContain(t, "question", s.sales("Gupta ke liye 5 carton GC, cash"), "Gupta Brothers (C09)")
		summary := s.sales("Gupta Brothers")
		mustContain(t, "summary", summary, "for *Gupta Brothers*", "cash on delivery is not allowed for Gupta Brothers", "cannot be placed")
		ds := draftsFor(t, s.m, "C09")
		if len(ds) != 1 || ds[0].Payment != domain.PayCOD || !maps.Equal(linesOf(ds[0].Lines), gc(5)) {
			t.Fatalf("drafts for C09: %+v", ds)
		}
		mustContain(t, "ok", s.sales("ok"), "cannot be placed")
		s.nothingPlaced("an ok to a blocked draft")
	})
}

// TestConversationPaymentAnswer: an order without the payment asks how
// the customer pays; each way of saying it is read as that mode.
func TestConversationPaymentAnswer(t *testing.T) {
	for answer, mode := range map[string]domain.PaymentMode{
		"credit":           domain.PayCredit,
		"UPI se":           domain.PayUPI,
		"उधार":             domain.PayCredit,
		"cash on delivery": domain.PayCOD,
	} {
		t.Run(answer, func(t *testing.T) {
			s := newConvShop(t, nil)
			mustContain(t, "question", s.sales("Rajesh ke liye 5 carton GC"), "How will Rajesh Kirana Store pay")
			d := s.draft(s.sales(answer), "C01", mode, gc(5))
			s.placedOnly(s.sales("ok"), d, "C01", mode, gc(5))
		})
	}
}

// TestConversationQuantityAnswer: a product without a quantity asks how
// many, and "2 carton" is 96 bottles of hand wash.
func TestConversationQuantityAnswer(t *testing.T) {
	s := newConvShop(t, nil)
	mustContain(t, "question", s.sales("Agarwal ke liye hand wash, cash"), "How many Handwash 200ml")
	want := map[string]int64{"HW200": 96}
	d := s.draft(s.sales("2 carton"), "C07", domain.PayCOD, want)
	s.placedOnly(s.sales("ok"), d, "C07", domain.PayCOD, want)
}

// TestConversationUnknownProductAnswer: a product Munshi does not know is
// asked about; the answer turns it down and names the product, which
// takes the quantity of the first message.
func TestConversationUnknownProductAnswer(t *testing.T) {
	s := newConvShop(t, nil)
	mustContain(t, "question", s.sales("Shivam ke liye dettol 5 carton, cash"), `"dettol"`)
	want := map[string]int64{"HW200": 240}
	d := s.draft(s.sales("dettol nahi, hand wash"), "C05", domain.PayCOD, want)
	s.placedOnly(s.sales("ok"), d, "C05", domain.PayCOD, want)
}

// TestConversationSizeAnswer: with a 5-litre phenyl imported beside the
// 1-litre one, "phenyl" is asked about and "5 litre wala" picks the
// 5-litre one, with the 2 cartons of the first message.
func TestConversationSizeAnswer(t *testing.T) {
	s := newConvShop(t, nil)
	csv := filepath.Join(t.TempDir(), "phenyl.csv")
	if err := os.WriteFile(csv, []byte("sku,name,aliases,unit,pack_sizes,price,gst_percent,stock_ready,stock_wip\n"+
		"PH5L,Phenyl 5L,phenyl,can,carton=4,250.00,18,400,0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	importCSV(t, s.m.Config.DB, "catalog", csv)
	if err := s.m.Catalog.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	mustContain(t, "question", s.sales("Rajesh ke liye 2 carton phenyl, cash"), "Phenyl 1L or Phenyl 5L")
	want := map[string]int64{"PH5L": 8}
	d := s.draft(s.sales("5 litre wala"), "C01", domain.PayCOD, want)
	s.placedOnly(s.sales("ok"), d, "C01", domain.PayCOD, want)
}

// TestConversationTwoQuestions: the customer is asked first, then how
// they pay; the ok places the order both answers made.
func TestConversationTwoQuestions(t *testing.T) {
	s := newConvShop(t, nil)
	mustContain(t, "customer question", s.sales("Gupta ke liye 5 carton GC"), "Gupta Supermart (C04) or Gupta Brothers (C09)")
	second := s.sales("Gupta Brothers")
	mustContain(t, "payment question", second, "✓ Gupta Brothers", "How will Gupta Brothers pay")
	if ds := s.drafts(demo.SalesPhone); len(ds) != 0 {
		t.Fatalf("the first answer made drafts: %+v", ds)
	}
	d := s.draft(s.sales("credit"), "C09", domain.PayCredit, gc(5))
	s.placedOnly(s.sales("ok"), d, "C09", domain.PayCredit, gc(5))
}

// TestConversationPaymentNoteAnswer: accounts say a payment came without
// how; the answer gives the mode and the cheque number, and the ok
// records one payment of ₹25,000 by cheque 778899 from Mehta Traders.
func TestConversationPaymentNoteAnswer(t *testing.T) {
	s := newConvShop(t, nil)
	due := outstanding(t, s.m, "C03")
	before := paymentRows(t, s.m, "C03")
	mustContain(t, "question", s.as(demo.AccountsPhone, "Mehta se 25000 mila"), "How was it paid")
	mustContain(t, "summary", s.as(demo.AccountsPhone, "cheque 778899"), "Mehta Traders", "₹25,000 by cheque (ref 778899)", "Reply *ok*")
	if got := paymentRows(t, s.m, "C03"); len(got) != len(before) {
		t.Fatalf("a payment was recorded before ok: %v", got)
	}
	mustContain(t, "ok", s.as(demo.AccountsPhone, "ok"), "Recorded ₹25,000 from Mehta Traders")
	got := paymentRows(t, s.m, "C03")
	if len(got) != len(before)+1 {
		t.Fatalf("%d payments recorded, want 1: %v", len(got)-len(before), got)
	}
	if p := got[len(got)-1]; p != (paymentRow{amount: 2500000, mode: "cheque", reference: "778899"}) {
		t.Fatalf("payment recorded: %+v", p)
	}
	if now := outstanding(t, s.m, "C03"); now != due-2500000 {
		t.Fatalf("outstanding %v, want %v", now, due-2500000)
	}
}

type paymentRow struct {
	amount          int64
	mode, reference string
}

// paymentRows are a customer's payments in the books, oldest first.
func paymentRows(t *testing.T, m *Main, customer string) []paymentRow {
	t.Helper()
	db, err := sql.Open("sqlite3", m.Config.DB)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT amount_paise, mode, reference FROM payments WHERE customer_id = ? ORDER BY id`, customer)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []paymentRow
	for rows.Next() {
		var p paymentRow
		if err := rows.Scan(&p.amount, &p.mode, &p.reference); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestConversationCorrections: each correction of a shown draft is shown
// as a new draft with what changed, and the ok places the corrected order
// and nothing else; the draft first shown is never placed.
func TestConversationCorrections(t *testing.T) {
	withHarpic := map[string]int64{"GC500": 120, "TC500": 120}
	for _, c := range []struct {
		name, order, correction string
		changed                 string
		customer                string
		mode                    domain.PaymentMode
		first, want             map[string]int64
		firstCustomer           string
		firstMode               domain.PaymentMode
	}{
		{name: "quantity", order: "Rajesh ke liye 5 carton GC, cash", correction: "nahi 15 carton kar do",
			changed: "Glass Cleaner 500ml 5 cartons → 15 cartons", first: gc(5), want: gc(15)},
		{name: "product and quantity", order: "Rajesh ke liye 5 carton GC, cash", correction: "GC 15 carton",
			changed: "Glass Cleaner 500ml 5 cartons → 15 cartons", first: gc(5), want: gc(15)},
		{name: "add", order: "Rajesh ke liye 5 carton GC, cash", correction: "aur 5 carton harpic",
			changed: "added Toilet Cleaner 500ml 5 cartons", first: gc(5), want: withHarpic},
		{name: "remove", order: "Rajesh ke liye 5 carton GC aur 5 carton harpic, cash", correction: "harpic hata do",
			changed: "removed Toilet Cleaner 500ml", first: withHarpic, want: gc(5)},
		// Harpic has no Devanagari spelling in the catalog.
		{name: "remove, in Devanagari", order: "Rajesh ke liye 5 carton GC aur 5 carton harpic, cash", correction: "हार्पिक हटा दो",
			changed: "removed Toilet Cleaner 500ml", first: withHarpic, want: gc(5)},
		{name: "not wanted", order: "Rajesh ke liye 5 carton GC aur 5 carton phenyl, cash", correction: "phenyl nahi chahiye",
			changed: "removed Phenyl 1L", first: map[string]int64{"GC500": 120, "PH1L": 60}, want: gc(5)},
		{name: "payment", order: "Sharma ke liye 5 carton GC, cash", correction: "payment cheque se hoga",
			changed: "payment cash on delivery → cheque", firstCustomer: "C02", customer: "C02", mode: domain.PayCheque, first: gc(5), want: gc(5)},
		{name: "customer", order: "Rajesh ke liye 5 carton GC, cash", correction: "Rajesh nahi, Shivam ke liye",
			changed: "customer Rajesh Kirana Store → Hotel Shivam", customer: "C05", first: gc(5), want: gc(5)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.firstCustomer == "" {
				c.firstCustomer = "C01"
			}
			if c.customer == "" {
				c.customer = c.firstCustomer
			}
			if c.firstMode == "" {
				c.firstMode = domain.PayCOD
			}
			if c.mode == "" {
				c.mode = c.firstMode
			}
			s := newConvShop(t, nil)
			shown := s.draft(s.sales(c.order), c.firstCustomer, c.firstMode, c.first)
			reply := s.sales(c.correction)
			if !strings.HasPrefix(reply, "✏️ Changed: "+c.changed) {
				t.Fatalf("correction %q: the reply does not start %q:\n%s", c.correction, "✏️ Changed: "+c.changed, reply)
			}
			corrected := s.draft(reply, c.customer, c.mode, c.want)
			if corrected.ID == shown.ID {
				t.Fatalf("the correction kept the draft %s", shown.ID)
			}
			if d, _, _ := s.m.Store.DraftByID(context.Background(), shown.ID); d.Status != orders.DraftReplaced || d.OrderID != "" {
				t.Fatalf("the draft first shown, %s, is %s (placed as %q) after the correction", shown.ID, d.Status, d.OrderID)
			}
			s.nothingPlaced("the correction")
			s.placedOnly(s.sales("ok"), corrected, c.customer, c.mode, c.want)
			if id := placedAs(t, s.m, shown.ID); id != "" {
				t.Fatalf("the draft first shown was placed as %s", id)
			}
		})
	}
}

// TestConversationOkAfterUnreadMessage: a message Munshi cannot read,
// after a summary, changes nothing; the ok after it shows the summary
// again and places nothing; the next ok places the draft shown.
func TestConversationOkAfterUnreadMessage(t *testing.T) {
	s := newConvShop(t, nil)
	d := s.draft(s.sales("Rajesh ke liye 5 carton GC, cash"), "C01", domain.PayCOD, gc(5))
	mustContain(t, "unread", s.sales("asdf qwe zzz"), "didn't understand", "changed nothing")
	again := s.sales("ok")
	mustContain(t, "ok after the unread message", again, "Your last message was not applied", "nothing was placed", d.ID,
		"Rajesh Kirana Store", "5 cartons (120 bottles)", "Reply *ok*")
	s.nothingPlaced("an ok after an unread message")
	if ds := s.drafts(demo.SalesPhone); len(ds) != 1 || ds[0].ID != d.ID || ds[0].Status != orders.DraftOpen {
		t.Fatalf("drafts after the re-shown summary: %+v", ds)
	}
	s.placedOnly(s.sales("ok"), d, "C01", domain.PayCOD, gc(5))
}

// TestConversationCorrectionAfterUnreadMessage: the summary a message
// Munshi could not read left open still takes corrections ("so I changed
// nothing. You can correct the order"): the corrected order is placed,
// never the one first shown.
func TestConversationCorrectionAfterUnreadMessage(t *testing.T) {
	s := newConvShop(t, nil)
	shown := s.draft(s.sales("Rajesh ke liye 5 carton GC, cash"), "C01", domain.PayCOD, gc(5))
	mustContain(t, "unread", s.sales("jklm"), "didn't understand", "changed nothing")
	corrected := s.draft(s.sales("8 carton kar do"), "C01", domain.PayCOD, gc(8))
	s.nothingPlaced("the correction")
	s.placedOnly(s.sales("ok"), corrected, "C01", domain.PayCOD, gc(8))
	if id := placedAs(t, s.m, shown.ID); id != "" {
		t.Fatalf("the draft first shown was placed as %s", id)
	}
}

// TestConversationOkWhileAsking: an ok while a question waits answers
// nothing and places nothing; the question still waits, and its answer
// then makes the order.
func TestConversationOkWhileAsking(t *testing.T) {
	s := newConvShop(t, nil)
	q := s.sales("Rajesh ke liye 5 carton GC")
	mustContain(t, "question", q, "How will Rajesh Kirana Store pay")
	mustContain(t, "ok", s.sales("ok"), "I still need an answer", "How will Rajesh Kirana Store pay")
	s.nothingPlaced("an ok to a question")
	if ds := s.drafts(demo.SalesPhone); len(ds) != 0 {
		t.Fatalf("an ok to a question made drafts: %+v", ds)
	}
	d := s.draft(s.sales("credit"), "C01", domain.PayCredit, gc(5))
	s.placedOnly(s.sales("ok"), d, "C01", domain.PayCredit, gc(5))
}

// monthEnd is 23:45 on the 31st in Kolkata: a question's wait that runs
// past it runs into the 1st of the next month.
var monthEnd = time.Date(2026, 3, 31, 23, 45, 0, 0, domain.DefaultLocation())

// handleAt answers a message received at the clock's time, through the
// webhook's pipeline (claim, dedupe, memory, reply record) as the
// webhook does, but with the time of arrival the clock gives: the way
// `munshi eval --dialogs` drives Munshi.
func handleAt(t *testing.T, m *Main, clk *testClock, sid, body string) string {
	t.Helper()
	reply, _, err := m.Pipeline.Handle(context.Background(), domain.Inbound{SID: sid, From: demo.SalesPhone, Body: body, Received: clk.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return reply.Text
}

// TestConversationAnswerAfterFrameTTL: an answer within the question's
// 30 minutes is read as the answer; one after them is a message of its
// own, and makes no order for Gupta Brothers.
func TestConversationAnswerAfterFrameTTL(t *testing.T) {
	clk := &testClock{fixed: monthEnd}
	m := startMainAt(t, clk.Now, newFakeTwilio(t).URL, convEnv(nil))

	mustContain(t, "question", handleAt(t, m, clk, "SMttl1", "Gupta ke liye 5 carton GC, cheque"), "Gupta Brothers (C09)")
	clk.Advance(conversation.FrameTTL - time.Minute)
	mustContain(t, "answer within the TTL", handleAt(t, m, clk, "SMttl2", "Gupta Brothers"), "for *Gupta Brothers*", "Reply *ok*")
	if n := len(draftsFor(t, m, "C09")); n != 1 {
		t.Fatalf("%d drafts for C09 after an answer within the TTL, want 1", n)
	}
	mustContain(t, "cancel", handleAt(t, m, clk, "SMttl3", "cancel"), "Cancelled")

	mustContain(t, "second question", handleAt(t, m, clk, "SMttl4", "Gupta ke liye 5 carton GC, cheque"), "Gupta Brothers (C09)")
	clk.Advance(conversation.FrameTTL + time.Minute)
	late := handleAt(t, m, clk, "SMttl5", "Gupta Brothers")
	t.Logf("the late answer got %q", late)
	if draftRef.MatchString(late) || strings.Contains(late, "Reply *ok*") || strings.Contains(late, "Payment:") {
		t.Fatalf("an answer %v after the question was read as its answer:\n%s", conversation.FrameTTL+time.Minute, late)
	}
	if n := len(draftsFor(t, m, "C09")); n != 1 {
		t.Fatalf("%d drafts for C09 after the late answer, want still 1 (the cancelled one)", n)
	}
}

// TestConversationAnswerAfterFrameTTLThroughWebhook is the same through
// the signed webhook with Munshi's clock moved 31 minutes: the webhook
// stamps a message's arrival by the pipeline's clock, so the question's
// wait ends by it too.
func TestConversationAnswerAfterFrameTTLThroughWebhook(t *testing.T) {
	clk := &testClock{fixed: monthEnd}
	s := onShop(t, startMainAt(t, clk.Now, newFakeTwilio(t).URL, convEnv(nil)), "web")
	mustContain(t, "question", s.sales("Gupta ke liye 5 carton GC, cash"), "Gupta Brothers (C09)")
	clk.Advance(conversation.FrameTTL + time.Minute)
	late := s.sales("Gupta Brothers")
	if draftRef.MatchString(late) || strings.Contains(late, "Payment:") {
		t.Errorf("an answer %v after the question (Main's clock moved) was read as its answer:\n%s", conversation.FrameTTL+time.Minute, late)
	}
	if ds := draftsFor(t, s.m, "C09"); len(ds) != 0 {
		t.Errorf("the late answer made %d drafts for C09", len(ds))
	}
}

// redisConvEnv is the configuration of shops sharing the tests' Redis,
// under a prefix of this test's own, and one database file.
func redisConvEnv(t *testing.T) map[string]string {
	t.Helper()
	raw := redistest.Need(t) // fails in CI (CI=true) when Redis is missing
	return convEnv(map[string]string{
		"REDIS_URL": redistest.URL(), "MUNSHI_REDIS_PREFIX": redistest.Prefix(t, raw),
		"MUNSHI_DB": filepath.Join(t.TempDir(), "shared.db"),
	})
}

// auditsOf counts the audit entries of a kind.
func auditsOf(t *testing.T, m *Main, kind string) int {
	t.Helper()
	entries, err := m.Store.AuditEntries(context.Background(), kind)
	if err != nil {
		t.Fatal(err)
	}
	return len(entries)
}

// TestConversationAcrossTwoInstances: two Munshis share one Redis and one
// database. The question is asked on one, the answer arrives at the
// other and fills the frame once; a redelivery of the answer (same
// MessageSid) gets the reply saved and makes no second draft; the ok on
// the first instance places the one order.
func TestConversationAcrossTwoInstances(t *testing.T) {
	t.Run("answer on the other instance", func(t *testing.T) {
		env := redisConvEnv(t)
		tw := newFakeTwilio(t)
		a := onShop(t, startMain(t, tw.URL, env), "a")
		b := startMain(t, tw.URL, env)

		mustContain(t, "question on A", say(t, a.m, "SMx2q", demo.SalesPhone, "Gupta ke liye 5 carton GC, credit"), "Gupta Brothers (C09)")
		summary := say(t, b, "SMx2a", demo.SalesPhone, "Gupta Brothers")
		d := a.draft(summary, "C09", domain.PayCredit, gc(5))
		for i, m := range []*Main{a.m, b, a.m} {
			if again := say(t, m, "SMx2a", demo.SalesPhone, "Gupta Brothers"); again != summary {
				t.Fatalf("redelivery %d of the answer got %q, want the saved summary %q", i+1, again, summary)
			}
		}
		if ds := draftsFor(t, a.m, "C09"); len(ds) != 1 {
			t.Fatalf("%d drafts for C09, want 1: %+v", len(ds), ds)
		}
		if n := auditsOf(t, a.m, "order_answer"); n != 1 {
			t.Fatalf("the answer filled the frame %d times, want once", n)
		}
		if n := auditCount(t, a.m, "inbound", "SMx2a"); n != 1 {
			t.Fatalf("the answer was processed %d times, want once", n)
		}
		a.placedOnly(say(t, a.m, "SMx2k", demo.SalesPhone, "ok"), d, "C09", domain.PayCredit, gc(5))
	})
	// The answer delivered to both instances at the same moment (Twilio's
	// retry racing the first delivery) is answered once.
	t.Run("answer at both at once", func(t *testing.T) {
		env := redisConvEnv(t)
		tw := newFakeTwilio(t)
		a, b := startMain(t, tw.URL, env), startMain(t, tw.URL, env)
		mustContain(t, "question on A", say(t, a, "SMx3q", demo.SalesPhone, "Gupta ke liye 5 carton GC, credit"), "Gupta Brothers (C09)")
		var replies [2]string
		var wg sync.WaitGroup
		for i, m := range []*Main{a, b} {
			wg.Go(func() { replies[i] = say(t, m, "SMx3a", demo.SalesPhone, "Gupta Brothers") })
		}
		wg.Wait()
		t.Logf("the two deliveries got %q", replies)
		summaries := 0
		for _, r := range replies {
			if strings.Contains(r, "for *Gupta Brothers*") {
				summaries++
			} else if r != "" {
				t.Errorf("a delivery of the answer got %q", r)
			}
		}
		if summaries == 0 {
			t.Fatalf("neither delivery got the summary: %q", replies)
		}
		if ds := draftsFor(t, a, "C09"); len(ds) != 1 {
			t.Fatalf("%d drafts for C09, want 1: %+v", len(ds), ds)
		}
		if n := auditsOf(t, a, "order_answer"); n != 1 {
			t.Fatalf("the answer filled the frame %d times, want once", n)
		}
		if n := auditCount(t, a, "inbound", "SMx3a"); n != 1 {
			t.Fatalf("the answer was processed %d times, want once", n)
		}
	})
}

// TestConversationFrameSurvivesRestart: with memory in Redis, a question
// asked before a restart is answered after it; with memory in the
// process, the restart forgets it and the answer makes no order.
func TestConversationFrameSurvivesRestart(t *testing.T) {
	t.Run("redis", func(t *testing.T) {
		env := redisConvEnv(t)
		tw := newFakeTwilio(t)
		first := startMain(t, tw.URL, env)
		mustContain(t, "question", say(t, first, "SMrsq", demo.SalesPhone, "Gupta ke liye 5 carton GC, credit"), "Gupta Brothers (C09)")
		if err := first.Close(); err != nil {
			t.Fatal(err)
		}
		s := onShop(t, startMain(t, tw.URL, env), "rs")
		d := s.draft(say(t, s.m, "SMrsa", demo.SalesPhone, "Gupta Brothers"), "C09", domain.PayCredit, gc(5))
		s.placedOnly(say(t, s.m, "SMrsk", demo.SalesPhone, "ok"), d, "C09", domain.PayCredit, gc(5))
	})
	t.Run("in-process", func(t *testing.T) {
		env := convEnv(map[string]string{"MUNSHI_DB": filepath.Join(t.TempDir(), "munshi.db")})
		tw := newFakeTwilio(t)
		first := startMain(t, tw.URL, env)
		mustContain(t, "question", say(t, first, "SMrpq", demo.SalesPhone, "Gupta ke liye 5 carton GC, credit"), "Gupta Brothers (C09)")
		if err := first.Close(); err != nil {
			t.Fatal(err)
		}
		m := startMain(t, tw.URL, env)
		r := say(t, m, "SMrpa", demo.SalesPhone, "Gupta Brothers")
		t.Logf("the answer after the restart got %q", r)
		if draftRef.MatchString(r) {
			t.Fatalf("a forgotten question was answered after the restart:\n%s", r)
		}
		if ds := draftsFor(t, m, "C09"); len(ds) != 0 {
			t.Fatalf("drafts for C09: %+v", ds)
		}
	})
}
