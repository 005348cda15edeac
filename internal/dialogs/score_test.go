package dialogs

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// books builds a snapshot by hand.
type books struct{ s Snapshot }

func newBooks() *books {
	return &books{s: Snapshot{Orders: map[string]Order{}, Paid: map[string]Paid{}, Stock: map[string]Stock{
		"GC500": {Ready: 2400, WIP: 480}, "PH1L": {Ready: 1800, WIP: 600},
	}}}
}

// copy returns an independent snapshot to change.
func (b *books) copy() *books {
	c := &books{s: Snapshot{Orders: map[string]Order{}, Paid: map[string]Paid{}, Stock: map[string]Stock{}}}
	for k, v := range b.s.Orders {
		c.s.Orders[k] = v
	}
	for k, v := range b.s.Paid {
		c.s.Paid[k] = v
	}
	for k, v := range b.s.Stock {
		c.s.Stock[k] = v
	}
	c.s.Payments = append([]Payment(nil), b.s.Payments...)
	return c
}

func (b *books) order(id, state, customer string, pay domain.PaymentMode, lines ...Item) *books {
	b.s.Orders[id] = Order{ID: id, State: state, Customer: customer, Payment: pay, Lines: lines}
	return b
}

func (b *books) pay(p Payment) *books {
	b.s.Payments = append(b.s.Payments, p)
	return b.paidOnly(p.Customer, p.Amount)
}

// paidOnly counts a payment the audit log does not describe.
func (b *books) paidOnly(customer string, amount domain.Paise) *books {
	c := b.s.Paid[customer]
	c.Count++
	c.Amount += amount
	b.s.Paid[customer] = c
	return b
}

func (b *books) stock(sku string, ready, wip int64) *books {
	b.s.Stock[sku] = Stock{Ready: ready, WIP: wip}
	return b
}

func gc(n int64) Item { return Item{SKU: "GC500", Qty: n} }
func ph(n int64) Item { return Item{SKU: "PH1L", Qty: n} }

func TestJudge(t *testing.T) {
	// The seed: a committed order of the history, and a payment.
	seed := newBooks().order("T-5531", StateCommitted, "C01", domain.PayCOD, gc(120), ph(24)).
		pay(Payment{Customer: "C02", Amount: 15000_00, Mode: domain.PayUPI, Reference: "UTR1"})
	before := seed.s
	order := Expect{Order: &OrderExpect{Customer: "C09", Payment: domain.PayCOD, Items: []Item{gc(120), ph(24)}}}
	payment := Expect{Payment: &PaymentExpect{Customer: "C03", Amount: 5000_00, Mode: domain.PayCheque, Reference: "CHQ-77"}}
	anyRef := Expect{Payment: &PaymentExpect{Customer: "C03", Amount: 5000_00, Mode: domain.PayCheque}}
	delivery := Expect{Delivery: &DeliveryExpect{Order: "T-5531"}}
	nothing := Expect{Nothing: true}
	cheque := Payment{Customer: "C03", Amount: 5000_00, Mode: domain.PayCheque, Reference: "chq-77"}
	for _, tc := range []struct {
		name        string
		expect      Expect
		after       *books
		reply       domain.Reply
		ok, wrong   bool
		foundHolds  string
		foundLeaves string
	}{
		{name: "right order", expect: order, after: seed.copy().order("ORD-1001", StateCommitted, "C09", domain.PayCOD, ph(24), gc(120)),
			ok: true, foundHolds: "order ORD-1001 for C09 (cod)"},
		{name: "right order sent for approval", expect: order, after: seed.copy().order("D-3", StateAwaitingApproval, "C09", domain.PayCOD, gc(120), ph(24)),
			ok: true, foundHolds: "draft sent for approval D-3"},
		{name: "customer id in another case", expect: order, after: seed.copy().order("ORD-1001", StateCommitted, "c09", domain.PayCOD, gc(120), ph(24)), ok: true},
		{name: "wrong qty", expect: order, after: seed.copy().order("ORD-1001", StateCommitted, "C09", domain.PayCOD, gc(24), ph(24)),
			wrong: true, foundHolds: "GC500 × 24"},
		{name: "missing line", expect: order, after: seed.copy().order("ORD-1001", StateCommitted, "C09", domain.PayCOD, gc(120)), wrong: true},
		{name: "extra line", expect: order, after: seed.copy().order("ORD-1001", StateCommitted, "C09", domain.PayCOD, gc(120), ph(24), ph(24)), wrong: true},
		{name: "wrong payment mode", expect: order, after: seed.copy().order("ORD-1001", StateCommitted, "C09", domain.PayCredit, gc(120), ph(24)), wrong: true},
		{name: "wrong customer", expect: order, after: seed.copy().order("ORD-1001", StateCommitted, "C04", domain.PayCOD, gc(120), ph(24)), wrong: true},
		{name: "extra order", expect: order, after: seed.copy().order("ORD-1001", StateCommitted, "C09", domain.PayCOD, gc(120), ph(24)).
			order("ORD-1002", StateCommitted, "C09", domain.PayCOD, gc(120), ph(24)), wrong: true},
		{name: "order and a payment", expect: order, after: seed.copy().order("ORD-1001", StateCommitted, "C09", domain.PayCOD, gc(120), ph(24)).pay(cheque),
			wrong: true, foundHolds: "payment from C03 of ₹5,000 by cheque"},
		{name: "order left open", expect: order, after: seed.copy(), foundHolds: "nothing placed or recorded"},
		{name: "order placed then cancelled", expect: order, after: seed.copy().order("ORD-1001", StateCancelled, "C09", domain.PayCOD, gc(120), ph(24)),
			wrong: true, foundHolds: "ORD-1001 cancelled"},
		{name: "draft refused by an owner", expect: order, after: seed.copy().order("D-4", StateRejected, "C09", domain.PayCOD, gc(120), ph(24))},
		{name: "seed order cancelled", expect: nothing, after: seed.copy().order("T-5531", StateCancelled, "C01", domain.PayCOD, gc(120), ph(24)), wrong: true},

		{name: "payment match", expect: payment, after: seed.copy().pay(cheque), ok: true},
		{name: "payment without reference", expect: anyRef, after: seed.copy().pay(Payment{Customer: "C03", Amount: 5000_00, Mode: domain.PayCheque}), ok: true},
		{name: "payment wrong reference", expect: payment, after: seed.copy().pay(Payment{Customer: "C03", Amount: 5000_00, Mode: domain.PayCheque, Reference: "CHQ-78"}), wrong: true},
		{name: "payment wrong amount", expect: payment, after: seed.copy().pay(Payment{Customer: "C03", Amount: 500_00, Mode: domain.PayCheque, Reference: "CHQ-77"}), wrong: true},
		{name: "payment wrong mode", expect: payment, after: seed.copy().pay(Payment{Customer: "C03", Amount: 5000_00, Mode: domain.PayUPI, Reference: "CHQ-77"}), wrong: true},
		{name: "two payments", expect: payment, after: seed.copy().pay(cheque).pay(cheque), wrong: true},
		{name: "payment the log does not describe", expect: anyRef, after: seed.copy().paidOnly("C03", 5000_00), wrong: true,
			foundHolds: "payment from C03 of ₹5,000", foundLeaves: " by "},
		{name: "no payment", expect: payment, after: seed.copy()},

		{name: "delivery", expect: delivery, after: seed.copy().order("T-5531", StateDelivered, "C01", domain.PayCOD, gc(120), ph(24)).stock("GC500", 2280, 480),
			ok: true, foundHolds: "T-5531 delivered"},
		{name: "delivered short", expect: delivery, after: seed.copy().order("T-5531", StateDelivered, "C01", domain.PayCOD, gc(100), ph(24)), ok: true},
		{name: "delivery and stock received", expect: delivery, after: seed.copy().order("T-5531", StateDelivered, "C01", domain.PayCOD, gc(120), ph(24)).stock("PH1L", 1900, 600),
			wrong: true, foundHolds: "stock of PH1L received"},
		{name: "delivery of a missing order", expect: Expect{Delivery: &DeliveryExpect{Order: "T-9999"}}, after: seed.copy(), foundHolds: "no order T-9999 in the books"},

		{name: "nothing", expect: nothing, after: seed.copy(), ok: true},
		{name: "nothing but an order", expect: nothing, after: seed.copy().order("ORD-1001", StateCommitted, "C09", domain.PayCOD, gc(120)), wrong: true},
		{name: "nothing but a draft for approval", expect: nothing, after: seed.copy().order("D-1", StateAwaitingApproval, "C09", domain.PayCOD, gc(120)), wrong: true},
		{name: "nothing but stock moved from WIP", expect: nothing, after: seed.copy().stock("GC500", 2880, 0), wrong: true},
		{name: "nothing, and ready stock down", expect: nothing, after: seed.copy().stock("GC500", 2000, 480), ok: true},

		{name: "reply with Indian grouping", expect: Expect{Reply: &ReplyExpect{Contains: []string{"210000", "mehta traders"}}},
			after: seed.copy(), reply: domain.Reply{Text: "*Mehta Traders* owes ₹2,10,000 (limit ₹5,00,000)"}, ok: true},
		{name: "reply grouping in the expectation", expect: Expect{Reply: &ReplyExpect{Contains: []string{"₹2,10,000"}}},
			after: seed.copy(), reply: domain.Reply{Text: "due: ₹210000"}, ok: true},
		{name: "reply lines and spaces", expect: Expect{Reply: &ReplyExpect{Contains: []string{"ready: 2400 bottles"}}},
			after: seed.copy(), reply: domain.Reply{Text: "*Glass Cleaner*\nReady:   2,400\tbottles"}, ok: true},
		{name: "reply lacks", expect: Expect{Reply: &ReplyExpect{Contains: []string{"2400", "phenyl"}}},
			after: seed.copy(), reply: domain.Reply{Text: "GC500: 2,400"}, foundHolds: `lacks "phenyl"`},
		{name: "a comma in words is kept", expect: Expect{Reply: &ReplyExpect{Contains: []string{"12 3"}}},
			after: seed.copy(), reply: domain.Reply{Text: "12, 3"}, foundHolds: `lacks "12 3"`},
		{name: "reply with excel", expect: Expect{Reply: &ReplyExpect{File: FileExcel}}, after: seed.copy(),
			reply: domain.Reply{Text: "attached", MediaURLs: []string{"http://127.0.0.1:8080/media/ABC/outstanding-2026-11-16.xlsx"}}, ok: true},
		{name: "reply with a png chart", expect: Expect{Reply: &ReplyExpect{File: FileChart, Contains: []string{"stock"}}}, after: seed.copy(),
			reply: domain.Reply{Text: "📈 Stock", MediaURLs: []string{"https://m.example/media/ABC/stock.PNG?x=1"}}, ok: true},
		{name: "reply with an html chart", expect: Expect{Reply: &ReplyExpect{File: FileChart}}, after: seed.copy(),
			reply: domain.Reply{MediaURLs: []string{"https://m.example/media/ABC/sales.html#top"}}, ok: true},
		{name: "reply with the wrong file", expect: Expect{Reply: &ReplyExpect{File: FileChart}}, after: seed.copy(),
			reply: domain.Reply{MediaURLs: []string{"https://m.example/media/ABC/dues.xlsx"}}, foundHolds: "carries excel (want chart)"},
		{name: "reply without a file", expect: Expect{Reply: &ReplyExpect{File: FileExcel}}, after: seed.copy(),
			reply: domain.Reply{Text: "here"}, foundHolds: "carries no file"},
		{name: "reply xlsx only in the name's middle", expect: Expect{Reply: &ReplyExpect{File: FileExcel}}, after: seed.copy(),
			reply: domain.Reply{MediaURLs: []string{"https://m.example/media/a.xlsx/b"}}},
		{name: "reply but an order placed", expect: Expect{Reply: &ReplyExpect{Contains: []string{"placed"}}},
			after: seed.copy().order("ORD-1001", StateCommitted, "C09", domain.PayCOD, gc(120)), reply: domain.Reply{Text: "Order placed"}, wrong: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Judge(tc.expect, before, tc.after.s, tc.reply)
			if v.OK != tc.ok || v.Wrong != tc.wrong {
				t.Fatalf("ok %v wrong %v, want ok %v wrong %v; found %s", v.OK, v.Wrong, tc.ok, tc.wrong, v.Found)
			}
			if !strings.Contains(v.Found, tc.foundHolds) || (tc.foundLeaves != "" && strings.Contains(v.Found, tc.foundLeaves)) {
				t.Fatalf("found %q, want it to hold %q", v.Found, tc.foundHolds)
			}
		})
	}
}

func TestScoreTurnsToSuccess(t *testing.T) {
	before := newBooks().s
	placed := newBooks().order("ORD-1001", StateCommitted, "C01", domain.PayCOD, gc(240)).s
	d := Dialog{ID: "o", As: "sales", Line: 4, Turns: []string{"10 carton GC for Rajesh", "cash", "ok", "thanks"},
		Expect: Expect{Order: &OrderExpect{Customer: "C01", Payment: domain.PayCOD, Items: []Item{gc(240)}}}}
	turns := []Turn{
		{Said: "10 carton GC for Rajesh", Reply: domain.Reply{Text: "Cash or credit?"}, After: before},
		{Said: "cash", Reply: domain.Reply{Text: "*Order D-1* … Reply *ok*"}, After: before},
		{Said: "ok", Reply: domain.Reply{Text: "✅ Order ORD-1001 placed"}, After: placed},
		{Said: "thanks", Reply: domain.Reply{Text: "🙏"}, After: placed},
	}
	r := Score(d, before, turns)
	if !r.Succeeded || r.TurnsToSuccess != 3 || r.WrongEntry || r.Kind != KindOrder || r.Line != 4 || len(r.Turns) != 4 {
		t.Fatalf("%+v", r)
	}
	// Placed, then cancelled: the end state decides.
	cancelled := newBooks().order("ORD-1001", StateCancelled, "C01", domain.PayCOD, gc(240)).s
	turns[3] = Turn{Said: "cancel ORD-1001", Reply: domain.Reply{Text: "Cancelled"}, After: cancelled}
	r = Score(d, before, turns)
	if r.Succeeded || r.TurnsToSuccess != 0 || !r.WrongEntry {
		t.Fatalf("%+v", r)
	}
	// A reply expectation is about each turn's own reply.
	rd := Dialog{ID: "r", As: "owner", Turns: []string{"GC", "stock?"}, Expect: Expect{Reply: &ReplyExpect{Contains: []string{"2400"}}}}
	r = Score(rd, before, []Turn{
		{Said: "GC", Reply: domain.Reply{Text: "GC500 ready 2,400"}, After: before},
		{Said: "stock?", Reply: domain.Reply{Text: "Ready: 2,400"}, After: before},
	})
	if !r.Succeeded || r.TurnsToSuccess != 1 {
		t.Fatalf("%+v", r)
	}
	if r := Score(rd, before, nil); r.Succeeded || r.Found == "" {
		t.Fatalf("no turns: %+v", r)
	}
}

func TestReport(t *testing.T) {
	var rep Report
	rep.LLMCounted = true
	rep.LLMCalls = 3
	rep.Add(Result{ID: "a", Kind: KindOrder, Succeeded: true, TurnsToSuccess: 2, Turns: make([]Exchange, 2)})
	rep.Add(Result{ID: "b", Kind: KindNothing, Succeeded: true, TurnsToSuccess: 1, Turns: make([]Exchange, 1)})
	rep.Add(Result{ID: "c", Kind: KindOrder, WrongEntry: true, Expected: "one order for C01", Found: "order ORD-1 for C02",
		Turns: []Exchange{{Said: "5 carton GC for Rajesh", Reply: strings.Repeat("long reply\n", 50)},
			{Said: "ok", Reply: "placed", Media: []string{"http://x/media/1/a.png"}}}})
	s := rep.Summary()
	if s.Total != 3 || s.Succeeded != 2 || s.WrongEntries != 1 || s.MeanTurns != 1.5 || s.Messages != 5 ||
		s.LLMPer100 == nil || *s.LLMPer100 != 60 || s.ByKind[KindOrder] != (KindCount{Total: 2, Succeeded: 1}) {
		t.Fatalf("%+v", s)
	}
	var text bytes.Buffer
	if err := rep.Write(&text); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, want := range []string{"FAIL, WRONG ENTRY  c", "> 5 carton GC for Rajesh", "< long reply long reply", "…", "[chart] http://x/media/1/a.png",
		"expected: one order for C01", "found:    order ORD-1 for C02",
		"success:          2/3 (66.7%)", "turns to success: 1.50 mean", "wrong entries:    1", "LLM calls:        60.0 per 100 messages (3 calls, 5 messages)"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "FAIL  a") || strings.Contains(out, "FAIL  b") {
		t.Errorf("a success is listed as a failure:\n%s", out)
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Total     int      `json:"total"`
		Succeeded int      `json:"succeeded"`
		Pct       float64  `json:"success_pct"`
		Per100    *float64 `json:"llm_calls_per_100_messages"`
		Results   []struct {
			ID string `json:"id"`
		} `json:"results"`
		Failures []Result `json:"failures"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Total != 3 || got.Succeeded != 2 || len(got.Results) != 3 || len(got.Failures) != 1 || got.Failures[0].ID != "c" ||
		got.Per100 == nil || *got.Per100 != 60 || len([]rune(got.Failures[0].Turns[0].Reply)) > replyWidth {
		t.Fatalf("%s", js.String())
	}
	if rep.Results[2].Turns[0].Reply != strings.Repeat("long reply\n", 50) {
		t.Fatal("WriteJSON shortened the report's own replies")
	}
	// Not counted: said so, not 0.
	var none Report
	none.Add(Result{ID: "x", Kind: KindNothing})
	if s := none.Summary(); s.LLMPer100 != nil {
		t.Fatalf("%+v", s)
	}
	text.Reset()
	none.Write(&text)
	if !strings.Contains(text.String(), "LLM calls:        not counted") || !strings.Contains(text.String(), "turns to success: - (none succeeded)") {
		t.Fatal(text.String())
	}
}

func TestDiffNewOrderDelivered(t *testing.T) {
	before := newBooks().s
	after := newBooks().order("ORD-1001", StateDelivered, "C01", domain.PayCOD, gc(24)).s
	c := Diff(before, after)
	if len(c.Placed) != 1 || len(c.Delivered) != 1 || c.Count() != 2 {
		t.Fatalf("%+v", c)
	}
	v := Judge(Expect{Order: &OrderExpect{Customer: "C01", Payment: domain.PayCOD, Items: []Item{gc(24)}}}, before, after, domain.Reply{})
	if v.OK || !v.Wrong {
		t.Fatalf("%+v", v)
	}
}
