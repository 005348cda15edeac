package orders

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestReadLabelledOrders(t *testing.T) {
	in := strings.Join([]string{
		`{"text":"Rajesh 5 ctn GC cash","intent":"order","customer":"C01","payment":"cod","items":[{"sku":"GC500","qty":120}]}`,
		``,
		`{"text":"GC ka stock kitna hai","intent":"stock"}`,
		`{"text":"5 ctn GC","intent":"order"}`,
		`{"text":"stock with items","intent":"stock","items":[{"sku":"GC500","qty":1}]}`,
		`  {"text":"Gupta ko 2 ctn TC","intent":"order","customer":null,"payment":null,"items":[{"sku":"TC500","qty":48},{"sku":"GC500","qty":6}]}  `,
		`{"text":"Rajesh 5 ctn maggi","intent":"order","customer":"C01","items":[]}`,
		`{"text":"Sharma 2 ctn TC","intent":"order","customer":"","payment":"","items":[{"sku":"TC500","qty":48.0}]}`,
	}, "\n")
	got, err := ReadLabelledOrders(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("read %d orders, want 4 (only order lines with items): %+v", len(got), got)
	}
	first := got[0]
	if first.Text != "Rajesh 5 ctn GC cash" || deref(first.Customer) != "C01" || deref(first.Payment) != "cod" ||
		len(first.Items) != 1 || first.Items[0] != (Item{SKU: "GC500", Qty: 120}) {
		t.Errorf("first = %+v", first)
	}
	second := got[1]
	if second.Customer != nil || second.Payment != nil || len(second.Items) != 2 || second.Items[1] != (Item{SKU: "GC500", Qty: 6}) {
		t.Errorf("second = %+v, want null customer and payment, two items", second)
	}
	third := got[2]
	if third.Items == nil || len(third.Items) != 0 || third.Payment != nil {
		t.Errorf("third = %+v, want an empty item list and no payment", third)
	}
	// Empty strings say what null says; a whole qty may be written 48.0.
	if fourth := got[3]; fourth.Customer != nil || fourth.Payment != nil || fourth.Items[0] != (Item{SKU: "TC500", Qty: 48}) {
		t.Errorf("fourth = %+v", fourth)
	}
}

func TestReadLabelledOrdersErrors(t *testing.T) {
	ok := `{"text":"Rajesh 5 ctn GC","intent":"order","items":[{"sku":"GC500","qty":120}]}`
	for _, c := range []struct {
		in, want string
	}{
		{ok + "\n" + ok + "\n" + `{"text":"broken", "intent":"order"`, "line 3"},
		{ok + "\n\n" + `not json at all`, "line 3"},
		{`{"text":"x","intent":"order","payment":"cash","items":[]}`, "line 1"},
		{`{"text":"x","intent":"order","payment":"cash","items":[]}`, "payment"},
		{ok + "\n" + `{"text":"x","intent":"order","items":[{"sku":"GC500","qty":0}]}`, "line 2"},
		{`{"text":"x","intent":"order","items":[{"sku":"GC500","qty":1.5}]}`, "line 1"},
		{`{"text":"x","intent":"order","items":[{"qty":5}]}`, "sku"},
		{`{"text":"x","intent":"order","items":{"sku":"GC500"}}`, "items"},
		{`{"text":"","intent":"order","items":[]}`, "text"},
		{`{"text":"x","intent":"order","customer":5,"items":[]}`, "customer"},
		{`{"text":"x","intent":"order","items":[{"sku":"GC500","qty":-3}]}`, "qty"},
		{`{"text":"x","intent":7,"items":[]}`, "intent"},
	} {
		_, err := ReadLabelledOrders(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadLabelledOrders(%q) = %v, want an error mentioning %q", c.in, err, c.want)
		}
	}
}

func ptr(s string) *string { return &s }

// evalSet has three orders labelled right and four labelled wrong on
// purpose, so that every count of the report is known.
func evalSet() []LabelledOrder {
	return []LabelledOrder{
		{Text: "Rajesh 5 ctn GC cash", Customer: ptr("C01"), Payment: ptr("cod"), Items: []Item{{SKU: "GC500", Qty: 120}}},
		// The order of the items does not matter.
		{Text: "5 ctn GC aur 2 ctn TC for Sharma", Customer: ptr("C02"), Items: []Item{{SKU: "TC500", Qty: 48}, {SKU: "GC500", Qty: 120}}},
		// Lines of one SKU are added up.
		{Text: "Rajesh: 2 carton GC, 6 bottle GC", Customer: ptr("C01"), Items: []Item{{SKU: "GC500", Qty: 48}, {SKU: "GC500", Qty: 6}}},
		// Wrong labels: customer, payment, quantity (all read silently)…
		{Text: "Sharma 1 ctn TC", Customer: ptr("C01"), Items: []Item{{SKU: "TC500", Qty: 24}}},
		{Text: "Mehta 1 ctn FC", Customer: ptr("C03"), Payment: ptr("credit"), Items: []Item{{SKU: "FC1L", Qty: 12}}},
		{Text: "Ashok 2 ctn GC", Customer: ptr("C08"), Items: []Item{{SKU: "GC500", Qty: 24}}},
		// … and one where the parser rightly asked.
		{Text: "Gupta ko 5 ctn GC", Customer: ptr("C04"), Items: []Item{{SKU: "GC500", Qty: 120}}},
	}
}

func TestEvaluateParsing(t *testing.T) {
	rep := EvaluateParsing(demoParser(t), evalSet())
	if rep.Total != 7 || rep.Exact != 3 {
		t.Fatalf("total %d exact %d, want 7 and 3; misses %+v", rep.Total, rep.Exact, rep.Misses)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if !near(rep.Accuracy, 3.0/7) {
		t.Errorf("accuracy %v, want 3/7", rep.Accuracy)
	}
	if rep.CustomerCorrect != 5 || !near(rep.CustomerAccuracy, 5.0/7) {
		t.Errorf("customer %d (%v), want 5", rep.CustomerCorrect, rep.CustomerAccuracy)
	}
	if rep.PaymentCorrect != 6 || !near(rep.PaymentAccuracy, 6.0/7) {
		t.Errorf("payment %d (%v), want 6", rep.PaymentCorrect, rep.PaymentAccuracy)
	}
	if rep.ItemsCorrect != 6 || !near(rep.ItemsAccuracy, 6.0/7) {
		t.Errorf("items %d (%v), want 6", rep.ItemsCorrect, rep.ItemsAccuracy)
	}
	if rep.Silent != 3 || rep.Asked != 1 {
		t.Errorf("silent %d asked %d, want 3 and 1", rep.Silent, rep.Asked)
	}
	if len(rep.Misses) != 4 {
		t.Fatalf("%d misses, want 4: %+v", len(rep.Misses), rep.Misses)
	}
	m := rep.Misses[0]
	if m.Text != "Sharma 1 ctn TC" || deref(m.Expected.Customer) != "C01" || m.Got.CustomerID != "C02" {
		t.Errorf("first miss = %+v", m)
	}
	last := rep.Misses[3]
	if last.Got.CustomerID != "" || len(last.Got.Unresolved) == 0 {
		t.Errorf("the Gupta miss should carry the parser's question: %+v", last.Got)
	}
}

func TestEvaluateParsingEmpty(t *testing.T) {
	rep := EvaluateParsing(demoParser(t), nil)
	if rep.Total != 0 || rep.Accuracy != 0 || len(rep.Misses) != 0 {
		t.Errorf("empty report = %+v", rep)
	}
	var b strings.Builder
	if err := rep.Write(&b); err != nil || !strings.Contains(b.String(), "Order parsing: 0 labelled orders") {
		t.Errorf("Write = %v, %q", err, b.String())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestParseReportWrite(t *testing.T) {
	rep := EvaluateParsing(demoParser(t), evalSet())
	var b strings.Builder
	if err := rep.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Order parsing: 7 labelled orders",
		"customer             0.714         5         7",
		"payment              0.857         6         7",
		"items                0.857         6         7",
		"exact                0.429         3         7",
		"silent mistakes (wrong, nothing asked): 3",
		"Misses (4)",
		`"Sharma 1 ctn TC"`,
		"want: customer C01, payment -, items TC500×24",
		"got:  customer C02, payment -, items TC500×24",
		"want: customer C03, payment credit, items FC1L×12",
		"want: customer C08, payment -, items GC500×24",
		"got:  customer C08, payment -, items GC500×48",
		"asked: Which one do you mean: Gupta Supermart (C04) or Gupta Brothers (C09)?",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Rajesh 5 ctn GC cash") {
		t.Errorf("an exact message is listed as a miss:\n%s", out)
	}
	if err := rep.Write(failingWriter{}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Write to a failing writer = %v, want the writer's error", err)
	}
}
