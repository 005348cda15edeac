package orders

import (
	"context"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

var (
	gc = domain.Product{SKU: "GC500", Name: "Glass Cleaner 500ml", Unit: "bottle", Price: 9200, GSTPercent: 1800,
		PackSizes: []domain.PackSize{{Name: "carton", Units: 24}, {Name: "box", Units: 6}}, StockReady: 2400, StockWIP: 480}
	ph = domain.Product{SKU: "PH1L", Name: "Phenyl 1L", Unit: "bottle", Price: 6500, GSTPercent: 1800,
		PackSizes: []domain.PackSize{{Name: "carton", Units: 12}, {Name: "pack", Units: 6}}, StockReady: 1800}
	broom  = domain.Product{SKU: "BR01", Name: "Floor Broom", Unit: "piece", Price: 8000, GSTPercent: 1200, StockReady: 0, StockWIP: 100}
	rajesh = domain.Customer{ID: "C01", Name: "Rajesh Kirana Store", CreditLimit: 10000000, Outstanding: 3500000,
		PaymentModes: []domain.PaymentMode{domain.PayCOD, domain.PayCredit, domain.PayUPI}}
	catalog = map[string]domain.Product{gc.SKU: gc, ph.SKU: ph, broom.SKU: broom}
)

func snapshot() Snapshot {
	return Snapshot{Customer: rajesh, Products: catalog, Committed: map[string]int64{"GC500": 400}, MinimumOrder: 2500000}
}

func priced(t *testing.T, pay domain.PaymentMode, items ...Item) Draft {
	t.Helper()
	d, err := Price(rajesh, pay, items, catalog)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestPriceIsExactToThePaisa(t *testing.T) {
	// 10 carton GC = 240 × ₹92 = ₹22,080; 10 pack phenyl = 60 × ₹65 = ₹3,900.
	d := priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 240}, Item{SKU: "PH1L", Qty: 60})
	if d.Subtotal != 2598000 || d.GST != 467640 || d.Total != 3065640 {
		t.Fatalf("subtotal %d gst %d total %d", d.Subtotal, d.GST, d.Total)
	}
	if d.Lines[0].Amount != 2208000 || d.Lines[0].GSTAmount != 397440 || d.Lines[1].GSTAmount != 70200 {
		t.Fatalf("lines %+v", d.Lines)
	}
	// Rounding is per line, half up: 3 bars at ₹0.25 and 18% is 13.5 paise → 14.
	odd := domain.Product{SKU: "X", Unit: "bar", Price: 25, GSTPercent: 1800}
	d2, _ := Price(rajesh, domain.PayCOD, []Item{{SKU: "X", Qty: 3}}, map[string]domain.Product{"X": odd})
	if d2.GST != 14 || d2.Total != 89 {
		t.Fatalf("odd rounding: gst %d total %d", d2.GST, d2.Total)
	}
	if _, err := Price(rajesh, domain.PayCOD, []Item{{SKU: "NOPE", Qty: 1}}, catalog); err == nil {
		t.Fatal("unknown SKU priced")
	}
	if _, err := Price(rajesh, domain.PayCOD, []Item{{SKU: "GC500", Qty: 0}}, catalog); err == nil {
		t.Fatal("zero quantity priced")
	}
}

func TestFingerprintBindsWhatWasShown(t *testing.T) {
	a := priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 240}, Item{SKU: "PH1L", Qty: 60})
	b := priced(t, domain.PayCOD, Item{SKU: "PH1L", Qty: 60}, Item{SKU: "GC500", Qty: 240})
	if a.Fingerprint != b.Fingerprint {
		t.Fatal("item order changed the fingerprint")
	}
	for name, other := range map[string]Draft{
		"quantity": priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 241}, Item{SKU: "PH1L", Qty: 60}),
		"payment":  priced(t, domain.PayCredit, Item{SKU: "GC500", Qty: 240}, Item{SKU: "PH1L", Qty: 60}),
	} {
		if other.Fingerprint == a.Fingerprint {
			t.Errorf("%s change kept the fingerprint", name)
		}
	}
	dearer := map[string]domain.Product{"GC500": gc, "PH1L": ph}
	p := dearer["GC500"]
	p.Price++
	dearer["GC500"] = p
	c, _ := Price(rajesh, domain.PayCOD, []Item{{SKU: "GC500", Qty: 240}, {SKU: "PH1L", Qty: 60}}, dearer)
	if c.Fingerprint == a.Fingerprint {
		t.Error("a price change kept the fingerprint")
	}
	other := rajesh
	other.ID = "C02"
	e, _ := Price(other, domain.PayCOD, []Item{{SKU: "GC500", Qty: 240}, {SKU: "PH1L", Qty: 60}}, catalog)
	if e.Fingerprint == a.Fingerprint {
		t.Error("another customer kept the fingerprint")
	}
}

func result(rs []RuleResult, rule string) RuleResult {
	for _, r := range rs {
		if r.Rule == rule {
			return r
		}
	}
	return RuleResult{}
}

func TestRules(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name    string
		draft   Draft
		snap    func(*Snapshot)
		rule    string
		outcome Outcome
		words   string
	}{
		{"minimum met", priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 240}, Item{SKU: "PH1L", Qty: 60}), nil, RuleMinimumOrder, Pass, "meets"},
		{"below minimum", priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 24}), nil, RuleMinimumOrder, Escalate, "below the ₹25,000 minimum"},
		{"minimum exactly", priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 24}), func(s *Snapshot) { s.MinimumOrder = 260544 }, RuleMinimumOrder, Pass, ""},
		{"cash skips credit", priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 2400}), nil, RuleCreditLimit, Pass, "not a credit order"},
		{"credit within limit", priced(t, domain.PayCredit, Item{SKU: "GC500", Qty: 240}), nil, RuleCreditLimit, Pass, "within"},
		// ₹35,000 outstanding + 720 × ₹92 × 1.18 = ₹78,163.20 → ₹1,13,163.20 > ₹1,00,000.
		{"credit over limit", priced(t, domain.PayCredit, Item{SKU: "GC500", Qty: 720}), nil, RuleCreditLimit, Escalate, "over the ₹1,00,000 credit limit by ₹13,163.20"},
		// A customer ₹15,000 in advance: 240 × ₹92 × 1.18 = ₹26,054.40 leaves ₹11,054.40 owed.
		{"credit against an advance", priced(t, domain.PayCredit, Item{SKU: "GC500", Qty: 240}), func(s *Snapshot) { s.Customer.Outstanding = -1500000 },
			RuleCreditLimit, Pass, "advance ₹15,000 against this order leaves ₹11,054.40 owed, within"},
		{"stock enough", priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 2000}), nil, RuleInventory, Pass, ""},
		// 2,400 ready − 400 committed = 2,000 available.
		{"stock short", priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 2016}), nil, RuleInventory, Block, "available 2,000 bottles"},
		{"stock suggestion in packs", priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 2400}), nil, RuleInventory, Block, "available now: 2,000 bottles of Glass Cleaner 500ml (83 full cartons)"},
		{"out of stock with WIP", priced(t, domain.PayCOD, Item{SKU: "BR01", Qty: 5}), nil, RuleInventory, Block, "in production"},
		{"mode allowed", priced(t, domain.PayUPI, Item{SKU: "GC500", Qty: 24}), nil, RulePaymentMode, Pass, "UPI allowed"},
		{"mode not allowed", priced(t, domain.PayCheque, Item{SKU: "GC500", Qty: 24}), nil, RulePaymentMode, Block, "use cash on delivery, credit, UPI"},
		{"gst per SKU", priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 24}, Item{SKU: "BR01", Qty: 1}), nil, RuleGST, Pass, "12%, 18%"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := snapshot()
			if c.snap != nil {
				c.snap(&s)
			}
			got := result(CheckRules(ctx, c.draft, s), c.rule)
			if got.Outcome != c.outcome || !strings.Contains(got.Reason+" "+got.Suggestion, c.words) {
				t.Fatalf("%s: got %s %q / %q", c.rule, got.Outcome, got.Reason, got.Suggestion)
			}
		})
	}
}

func TestGSTRuleCatchesAWrongRate(t *testing.T) {
	d := priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 24})
	d.Lines[0].GSTRate = 500
	if r := result(CheckRules(context.Background(), d, snapshot()), RuleGST); r.Outcome != Block {
		t.Fatalf("a line at the wrong GST passed: %+v", r)
	}
}

func TestVerdict(t *testing.T) {
	d := Draft{Results: []RuleResult{{Outcome: Pass}, {Outcome: Escalate}}}
	if d.Verdict() != Escalate {
		t.Fatal("escalate expected")
	}
	d.Results = append(d.Results, RuleResult{Outcome: Block})
	if d.Verdict() != Block {
		t.Fatal("block wins")
	}
}

func TestRulesRunInParallelUnderTheRace(t *testing.T) {
	d := priced(t, domain.PayCredit, Item{SKU: "GC500", Qty: 240})
	s := snapshot()
	done := make(chan []RuleResult)
	for i := 0; i < 50; i++ {
		go func() { done <- CheckRules(context.Background(), d, s) }()
	}
	for i := 0; i < 50; i++ {
		rs := <-done
		if len(rs) != 5 || rs[0].Rule != RuleMinimumOrder || rs[4].Rule != RuleGST {
			t.Fatalf("results %+v", rs)
		}
	}
}

func TestUncheckedRuleBlocks(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// With the context already over, any rule that has not reported blocks;
	// none may be missing or counted as passed without running.
	rs := CheckRules(ctx, priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 240}), snapshot())
	if len(rs) != 5 {
		t.Fatalf("%d results", len(rs))
	}
	for _, r := range rs {
		if r.Rule == "" || (r.Outcome != Pass && r.Outcome != Block && r.Outcome != Escalate) {
			t.Fatalf("bad result %+v", r)
		}
	}
}

func TestSummaryShowsUnitsPricesAndRules(t *testing.T) {
	d := priced(t, domain.PayCOD, Item{SKU: "GC500", Qty: 240, SaidQty: 10, SaidUnit: "carton"}, Item{SKU: "PH1L", Qty: 60, SaidQty: 10, SaidUnit: "pack"})
	d.ID = "ORD-1042"
	d.Results = CheckRules(context.Background(), d, snapshot())
	s := Summary(d, catalog)
	for _, want := range []string{"ORD-1042", "Rajesh Kirana Store", "10 cartons (240 bottles)", "10 packs (60 bottles)",
		"₹22,080", "GST: ₹4,676.40", "Total: ₹30,656.40", "cash on delivery", "Reply *ok*"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
}

// A credit order is bound to the dues and limit it was judged against; a
// cash order is not, so a payment elsewhere does not disturb it. The
// minimum binds both.
func TestFingerprintBindsTheJudgement(t *testing.T) {
	ctx := context.Background()
	for _, pay := range []domain.PaymentMode{domain.PayCredit, domain.PayCOD} {
		d := priced(t, pay, Item{SKU: "GC500", Qty: 240})
		base := Judge(ctx, d, snapshot())
		moved := snapshot()
		moved.Customer.Outstanding += 100
		owes := Judge(ctx, d, moved)
		if (owes.Fingerprint != base.Fingerprint) != (pay == domain.PayCredit) {
			t.Errorf("%s: outstanding change moved the fingerprint: %v", pay, owes.Fingerprint != base.Fingerprint)
		}
		limit := snapshot()
		limit.Customer.CreditLimit -= 100
		if l := Judge(ctx, d, limit); (l.Fingerprint != base.Fingerprint) != (pay == domain.PayCredit) {
			t.Errorf("%s: limit change", pay)
		}
		min := snapshot()
		min.MinimumOrder++
		if m := Judge(ctx, d, min); m.Fingerprint == base.Fingerprint {
			t.Errorf("%s: a new minimum kept the fingerprint", pay)
		}
		if base.Basis != (Basis{Outstanding: rajesh.Outstanding, CreditLimit: rajesh.CreditLimit, MinimumOrder: 2500000}) {
			t.Errorf("basis %+v", base.Basis)
		}
	}
}

// An approval covers the exceptions the approver read, figure for figure,
// and nothing more.
func TestCovers(t *testing.T) {
	ctx := context.Background()
	d := priced(t, domain.PayCredit, Item{SKU: "GC500", Qty: 24}) // under the minimum
	shown := Judge(ctx, d, snapshot())
	if shown.Verdict() != Escalate {
		t.Fatalf("verdict %s", shown.Verdict())
	}
	if !covers(shown, shown) {
		t.Fatal("a draft must cover itself")
	}
	over := snapshot()
	over.Customer.Outstanding = over.Customer.CreditLimit // now the credit limit too
	if covers(shown, Judge(ctx, d, over)) {
		t.Fatal("a new exception was covered")
	}
	more := snapshot()
	more.MinimumOrder += 100 // the same rule, other figures
	if covers(shown, Judge(ctx, d, more)) {
		t.Fatal("other figures were covered")
	}
	met := snapshot()
	met.MinimumOrder = 100
	if !covers(shown, Judge(ctx, d, met)) {
		t.Fatal("no exception left must be covered")
	}
}
