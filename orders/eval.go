package orders

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// LabelledOrder is an order message with what it says: the customer and
// payment mode (nil when the message does not settle them) and the items,
// quantities in the SKU's base unit.
type LabelledOrder struct {
	Text     string
	Customer *string
	Payment  *string
	Items    []Item
}

// ReadLabelledOrders reads the order lines of a JSONL evaluation file, the
// format `munshi eval` takes:
//
//	{"text":"5 ctn GC for Rajesh","intent":"order","customer":"C01","payment":null,"items":[{"sku":"GC500","qty":120}]}
//
// Only lines whose intent is "order" and that carry an "items" field are
// returned; other intents and orders labelled for routing only are skipped.
// Blank lines are skipped. A line that is not a JSON object, or whose order
// fields have the wrong shape, is an error naming its line.
func ReadLabelledOrders(r io.Reader) ([]LabelledOrder, error) {
	exs, err := intent.ReadExamples(r)
	if err != nil {
		return nil, err
	}
	return LabelledOrders(exs)
}

// LabelledOrders picks the order lines with an "items" field out of
// examples read for routing, so one file scores both.
func LabelledOrders(exs []intent.Example) ([]LabelledOrder, error) {
	var out []LabelledOrder
	for _, e := range exs {
		rawItems, hasItems := e.Fields["items"]
		if e.Intent != domain.IntentOrder || !hasItems {
			continue
		}
		ex, err := labelledOrder(e.Text, e.Fields, rawItems)
		if err != nil {
			return nil, fmt.Errorf("orders: line %d: %w", e.Line, err)
		}
		out = append(out, ex)
	}
	return out, nil
}

func labelledOrder(text string, fields map[string]json.RawMessage, rawItems json.RawMessage) (LabelledOrder, error) {
	ex := LabelledOrder{Text: text}
	if raw, ok := fields["customer"]; ok {
		if err := json.Unmarshal(raw, &ex.Customer); err != nil {
			return ex, fmt.Errorf("\"customer\" must be a customer id or null")
		}
		if ex.Customer != nil && strings.TrimSpace(*ex.Customer) == "" {
			ex.Customer = nil // "" says what null says
		}
	}
	if raw, ok := fields["payment"]; ok {
		if err := json.Unmarshal(raw, &ex.Payment); err != nil {
			return ex, fmt.Errorf("\"payment\" must be a payment mode or null")
		}
		if ex.Payment != nil && strings.TrimSpace(*ex.Payment) == "" {
			ex.Payment = nil
		}
		if ex.Payment != nil {
			m, err := domain.ParsePaymentMode(*ex.Payment)
			if err != nil {
				return ex, err
			}
			s := string(m)
			ex.Payment = &s
		}
	}
	var items []struct {
		SKU *string  `json:"sku"`
		Qty *float64 `json:"qty"`
	}
	if err := json.Unmarshal(rawItems, &items); err != nil {
		return ex, fmt.Errorf("\"items\" must be a list of {\"sku\":…,\"qty\":…}: %w", err)
	}
	ex.Items = make([]Item, 0, len(items))
	for k, it := range items {
		switch {
		case it.SKU == nil || strings.TrimSpace(*it.SKU) == "":
			return ex, fmt.Errorf("item %d has no \"sku\"", k+1)
		case it.Qty == nil || *it.Qty <= 0 || *it.Qty != math.Trunc(*it.Qty) || *it.Qty > math.MaxInt32:
			return ex, fmt.Errorf("item %d (%s) needs a whole \"qty\" above zero, in base units", k+1, *it.SKU)
		}
		ex.Items = append(ex.Items, Item{SKU: *it.SKU, Qty: int64(*it.Qty)})
	}
	return ex, nil
}

// ParseReport scores the order parser on labelled orders. A message is
// exact when the customer, the payment mode and the items all match.
type ParseReport struct {
	Total    int
	Exact    int
	Accuracy float64 // Exact / Total

	// Per field: how many messages had that field right, and the share.
	CustomerCorrect, PaymentCorrect, ItemsCorrect    int
	CustomerAccuracy, PaymentAccuracy, ItemsAccuracy float64

	// Silent counts misses where the parser asked nothing: a wrong answer
	// given with confidence, the costly kind.
	Silent int
	// Asked counts messages on which the parser asked at least one question.
	Asked  int
	Misses []ParseMiss
}

// ParseMiss is a message the parser did not read exactly as labelled.
type ParseMiss struct {
	Text     string
	Expected LabelledOrder
	Got      Parsed
}

// EvaluateParsing parses every labelled message and scores the results.
// Items are compared as a multiset of (sku, qty), in any order; lines of
// the same SKU are added up first, since "2 carton GC and 6 GC" is one line
// of 54 bottles however it is written.
func EvaluateParsing(p *Parser, ex []LabelledOrder) ParseReport {
	rep := ParseReport{Total: len(ex)}
	for _, e := range ex {
		got := p.Parse(e.Text)
		cust := deref(e.Customer) == got.CustomerID
		pay := deref(e.Payment) == string(got.Payment)
		items := sameItems(e.Items, got.Items)
		if cust {
			rep.CustomerCorrect++
		}
		if pay {
			rep.PaymentCorrect++
		}
		if items {
			rep.ItemsCorrect++
		}
		if len(got.Unresolved) > 0 {
			rep.Asked++
		}
		if cust && pay && items {
			rep.Exact++
			continue
		}
		if len(got.Unresolved) == 0 {
			rep.Silent++
		}
		rep.Misses = append(rep.Misses, ParseMiss{Text: e.Text, Expected: e, Got: got})
	}
	rep.Accuracy = share(rep.Exact, rep.Total)
	rep.CustomerAccuracy = share(rep.CustomerCorrect, rep.Total)
	rep.PaymentAccuracy = share(rep.PaymentCorrect, rep.Total)
	rep.ItemsAccuracy = share(rep.ItemsCorrect, rep.Total)
	return rep
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// sameItems compares two item lists as multisets after adding up each SKU.
func sameItems(a, b []Item) bool {
	return maps.Equal(itemTotals(a), itemTotals(b))
}

func itemTotals(items []Item) map[string]int64 {
	m := make(map[string]int64, len(items))
	for _, it := range items {
		m[it.SKU] += it.Qty
	}
	return m
}

func share(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Write prints the report as text: the per-field table, the exact-match
// accuracy, and every miss with what was expected and what the parser read.
func (rep ParseReport) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Order parsing: %d labelled orders\n\n", rep.Total)
	fmt.Fprintf(&b, "%-16s %9s %9s %9s\n", "field", "accuracy", "correct", "support")
	fmt.Fprintf(&b, "%-16s %9.3f %9d %9d\n", "customer", rep.CustomerAccuracy, rep.CustomerCorrect, rep.Total)
	fmt.Fprintf(&b, "%-16s %9.3f %9d %9d\n", "payment", rep.PaymentAccuracy, rep.PaymentCorrect, rep.Total)
	fmt.Fprintf(&b, "%-16s %9.3f %9d %9d\n", "items", rep.ItemsAccuracy, rep.ItemsCorrect, rep.Total)
	fmt.Fprintf(&b, "\n%-16s %9.3f %9d %9d\n", "exact", rep.Accuracy, rep.Exact, rep.Total)
	fmt.Fprintf(&b, "Asked a question on %d; silent mistakes (wrong, nothing asked): %d\n", rep.Asked, rep.Silent)

	fmt.Fprintf(&b, "\nMisses (%d)\n", len(rep.Misses))
	for _, m := range rep.Misses {
		fmt.Fprintf(&b, "  %q\n", m.Text)
		fmt.Fprintf(&b, "    want: %s\n", describe(deref(m.Expected.Customer), deref(m.Expected.Payment), m.Expected.Items))
		fmt.Fprintf(&b, "    got:  %s\n", describe(m.Got.CustomerID, string(m.Got.Payment), m.Got.Items))
		for _, q := range m.Got.Unresolved {
			fmt.Fprintf(&b, "    asked: %s\n", q)
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("orders: writing parse report: %w", err)
	}
	return nil
}

// describe writes one reading of an order on a line: "customer C01,
// payment cod, items GC500×120 PH1L×60", with "-" for what is unsettled.
func describe(customer, payment string, items []Item) string {
	orDash := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	totals := itemTotals(items)
	var parts []string
	for _, sku := range slices.Sorted(maps.Keys(totals)) {
		parts = append(parts, fmt.Sprintf("%s×%d", sku, totals[sku]))
	}
	list := "-"
	if len(parts) > 0 {
		list = strings.Join(parts, " ")
	}
	return fmt.Sprintf("customer %s, payment %s, items %s", orDash(customer), orDash(payment), list)
}
