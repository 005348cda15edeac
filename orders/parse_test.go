package orders

import (
	"encoding/json"
	"maps"
	"os"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
)

var demoParserOnce = sync.OnceValues(func() (*Parser, error) {
	ps, cs, _, err := demo.Data()
	if err != nil {
		return nil, err
	}
	r, err := intent.NewRouter(intent.Vocabulary{Products: ps, Customers: cs}, intent.Options{})
	if err != nil {
		return nil, err
	}
	return NewParser(r, ps, cs), nil
})

// demoParser is a parser for the demo distributor's catalog and customers.
func demoParser(tb testing.TB) *Parser {
	tb.Helper()
	p, err := demoParserOnce()
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// parseCase is one message and what it must say. ask lists substrings the
// questions must contain; when it is nil, the message must raise none.
type parseCase struct {
	text     string
	customer string
	payment  domain.PaymentMode
	items    map[string]int64
	ask      []string
}

func checkParse(t *testing.T, p *Parser, c parseCase) {
	t.Helper()
	got := p.Parse(c.text)
	if got.CustomerID != c.customer {
		t.Errorf("%q: customer %q, want %q (unresolved %q)", c.text, got.CustomerID, c.customer, got.Unresolved)
	}
	if got.Payment != c.payment {
		t.Errorf("%q: payment %q, want %q (unresolved %q)", c.text, got.Payment, c.payment, got.Unresolved)
	}
	want := c.items
	if want == nil {
		want = map[string]int64{}
	}
	if have := itemTotals(got.Items); !maps.Equal(have, want) {
		t.Errorf("%q: items %v, want %v (unresolved %q)", c.text, have, want, got.Unresolved)
	}
	if c.ask == nil && len(got.Unresolved) > 0 {
		t.Errorf("%q: asked %q, want no question", c.text, got.Unresolved)
	}
	all := strings.Join(got.Unresolved, "\n")
	for _, s := range c.ask {
		if !strings.Contains(all, s) {
			t.Errorf("%q: questions %q do not mention %q", c.text, got.Unresolved, s)
		}
	}
	for _, it := range got.Items {
		if it.Qty <= 0 || it.Qty > MaxQty {
			t.Errorf("%q: item %+v out of range", c.text, it)
		}
	}
}

// noCustomer asks which customer and nothing else worth checking.
var noCustomer = []string{"Which customer"}

func TestParsePhrasings(t *testing.T) {
	p := demoParser(t)
	cases := []parseCase{
		// English, pack units, payment.
		{text: "5 carton glass cleaner and 10 pack phenyl for Rajesh, COD", customer: "C01", payment: domain.PayCOD,
			items: map[string]int64{"GC500": 120, "PH1L": 60}},
		{text: "send 2 cartons of toilet cleaner to Sharma", customer: "C02", items: map[string]int64{"TC500": 48}},
		{text: "Mehta Traders needs 10 cartons of floor cleaner, payment by cheque", customer: "C03", payment: domain.PayCheque,
			items: map[string]int64{"FC1L": 120}},
		{text: "Kindly dispatch 5 bags surf to Gupta Brothers, payment via NEFT", customer: "C09", payment: domain.PayBankTransfer,
			items: map[string]int64{"DP1KG": 100}},
		{text: "City Hospital 4 carton handwash bank transfer", customer: "C06", payment: domain.PayBankTransfer,
			items: map[string]int64{"HW200": 192}},
		// Customer first, with a colon, an alias, an honorific.
		{text: "Rajesh: 5 ctn GC", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "Sharma ji ko 50 bar soap bhejo cash", customer: "C02", payment: domain.PayCOD, items: map[string]int64{"SP75": 50}},
		{text: "Ashok bhai ko 3 peti sabun udhaar", customer: "C08", payment: domain.PayCredit, items: map[string]int64{"SP75": 432}},
		// Credit in Tamil and Telugu, and on the customer's account.
		{text: "Ashok bhai ko 3 peti sabun, kadan", customer: "C08", payment: domain.PayCredit, items: map[string]int64{"SP75": 432}},
		{text: "Ashok bhai ko 3 peti sabun appu", customer: "C08", payment: domain.PayCredit, items: map[string]int64{"SP75": 432}},
		{text: "Ashok bhai ko 3 peti sabun, khate mein likh do", customer: "C08", payment: domain.PayCredit, items: map[string]int64{"SP75": 432}},
		{text: "rajesh ke liye 2 dzn pocha", customer: "C01", items: map[string]int64{"MP01": 24}},
		{text: "Gupta bros 5 carton DW rtgs", customer: "C09", payment: domain.PayBankTransfer, items: map[string]int64{"DW500": 120}},
		{text: "Gupta Supermart 6 box GC gpay", customer: "C04", payment: domain.PayUPI, items: map[string]int64{"GC500": 36}},
		// Told on the phone is no PhonePe payment; paid by it is.
		{text: "Rajesh ne phone pe bola 5 carton GC bhej do", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "Rajesh 5 carton GC, phone pe", customer: "C01", payment: domain.PayUPI, items: map[string]int64{"GC500": 120}},
		// Product first, unit before the number, SKU codes, glued units.
		{text: "GC 5 carton Rajesh", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "Sharma - phenyl carton 3", customer: "C02", items: map[string]int64{"PH1L": 36}},
		{text: "Sharma: GC 5ctn, TC 2ctn", customer: "C02", items: map[string]int64{"GC500": 120, "TC500": 48}},
		{text: "GC500 5 carton for Rajesh", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "Rajesh 5ctn GC, 10pkt phenyl, 2dz broom, cod", customer: "C01", payment: domain.PayCOD,
			items: map[string]int64{"GC500": 120, "PH1L": 60, "BR01": 24}},
		{text: "Rajesh: GC x 10", customer: "C01", items: map[string]int64{"GC500": 10}},
		// The unit after the product's name.
		{text: "5 GC carton Rajesh", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "Rajesh ko 2 harpic peti aur 3 colin dabba", customer: "C01", items: map[string]int64{"TC500": 48, "GC500": 18}},
		// A bare number is the base unit, whatever the product's unit.
		{text: "Agarwal medical 24 odonil upi", customer: "C07", payment: domain.PayUPI, items: map[string]int64{"AF250": 24}},
		{text: "Mehta ko 200 goli bhejna hai", customer: "C03", items: map[string]int64{"NB100": 200}},
		{text: "sharma 60 DB", customer: "C02", items: map[string]int64{"DB200": 60}},
		// Several items, repeated items, parts of one quantity.
		{text: "for Shivam: 2 ctn GC, 1 ctn phenyl, 1 ctn TC, 1 ctn FC, cash", customer: "C05", payment: domain.PayCOD,
			items: map[string]int64{"GC500": 48, "PH1L": 12, "TC500": 24, "FC1L": 12}},
		{text: "Rajesh: 2 carton GC, 6 bottle GC", customer: "C01", items: map[string]int64{"GC500": 54}},
		{text: "Rajesh ko GC 2 ctn 6 pcs", customer: "C01", items: map[string]int64{"GC500": 54}},
		{text: "Mehta 1 carton + 6 pcs harpic", customer: "C03", items: map[string]int64{"TC500": 30}},
		// One quantity for every product of a list.
		{text: "Rajesh GC TC 2-2 ctn", customer: "C01", items: map[string]int64{"GC500": 48, "TC500": 48}},
		{text: "Rajesh ko GC aur TC dono 5 ctn", customer: "C01", items: map[string]int64{"GC500": 120, "TC500": 120}},
		{text: "Sharma 2 ctn each of GC and TC", customer: "C02", items: map[string]int64{"GC500": 48, "TC500": 48}},
		{text: "Mehta GC, TC, FC 1 ctn each", customer: "C03", items: map[string]int64{"GC500": 24, "TC500": 24, "FC1L": 12}},
		{text: "Order Rajesh kirana\nGC 5 ctn\nTC 2 ctn\nphenyl 10 pkt\ncash", customer: "C01", payment: domain.PayCOD,
			items: map[string]int64{"GC500": 120, "TC500": 48, "PH1L": 60}},
		// Numbered lists: the numbers that count the lines are no quantity.
		{text: "Sharma General Store\n1. Harpic - 2 ctn\n2. Lizol - 1 ctn\n3. Colin - 12 pcs", customer: "C02",
			items: map[string]int64{"TC500": 48, "FC1L": 12, "GC500": 12}},
		{text: "Order for Ashok\n1) phenyl 2 ctn\n2) surf 1 bag", customer: "C08", items: map[string]int64{"PH1L": 24, "DP1KG": 20}},
		// "order: 10 bag" is a quantity, not the reference ORDER-10.
		{text: "Mehta Traders order: 10 bag surf, 5 ctn DW", customer: "C03", items: map[string]int64{"DP1KG": 200, "DW500": 120}},
		// Sizes that agree with the product are no quantity.
		{text: "GC 500ml 5 ctn Sharma", customer: "C02", items: map[string]int64{"GC500": 120}},
		{text: "Rajesh ko 1L phenyl 2 peti", customer: "C01", items: map[string]int64{"PH1L": 24}},
		// Prices, durations, times and percentages are no quantity.
		{text: "Mehta 10 ctn TC, credit 15 days", customer: "C03", payment: domain.PayCredit, items: map[string]int64{"TC500": 240}},
		{text: "Rajesh ₹90 GC 5 ctn", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "Rajesh GC 5 ctn rate 90", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "Rajesh 5 ctn GC @ 90, 10% discount", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "Rajesh 5 ctn GC kal 5 baje tak", customer: "C01", items: map[string]int64{"GC500": 120}},
		// A scheme's counts are no quantity.
		{text: "Rajesh ko harpic 5 carton, 12+1 wali scheme lagana", customer: "C01", items: map[string]int64{"TC500": 120}},
		{text: "Sharma GC 2 ctn 10 + 2 scheme", customer: "C02", items: map[string]int64{"GC500": 48}},
		// Typos and abbreviations.
		{text: "Rajesh 5 ctn finyl", customer: "C01", items: map[string]int64{"PH1L": 60}},
		{text: "glas cleaner 3 carton for sharma", customer: "C02", items: map[string]int64{"GC500": 72}},
		{text: "5 crtn phenl for rajesh", customer: "C01", items: map[string]int64{"PH1L": 60}},
		{text: "sharma ji 2 cartn tiolet cleaner", customer: "C02", items: map[string]int64{"TC500": 48}},
		{text: "Sharma 3 carton harpik", customer: "C02", items: map[string]int64{"TC500": 72}},
		{text: "Hotel Shivam requires 2 dozen mops", customer: "C05", items: map[string]int64{"MP01": 24}},
		{text: "Agarwal: 20 soaps", customer: "C07", items: map[string]int64{"SP75": 20}},
		// Number words, English and Hindi.
		{text: "five cartons GC for Rajesh", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "twenty five bottles harpic Shivam", customer: "C05", items: map[string]int64{"TC500": 25}},
		{text: "Rajesh ke liye paanch carton GC aur das pack phenyl", customer: "C01", items: map[string]int64{"GC500": 120, "PH1L": 60}},
		{text: "Sharma ko bees pcs mop", customer: "C02", items: map[string]int64{"MP01": 20}},
		{text: "Shivam ke liye sau sabun, cash", customer: "C05", payment: domain.PayCOD, items: map[string]int64{"SP75": 100}},
		{text: "Shivam: do sau goli", customer: "C05", items: map[string]int64{"NB100": 200}},
		{text: "Sharma ji ke liye dhai dozen soap", customer: "C02", items: map[string]int64{"SP75": 30}},
		{text: "Ashok ko dedh carton phenyl", customer: "C08", items: map[string]int64{"PH1L": 18}},
		// A product turned down beside another is no line of the order.
		{text: "Rajesh ko GC nahi chahiye, 5 carton phenyl", customer: "C01", items: map[string]int64{"PH1L": 60}},
		{text: "Rajesh ko GC nahi, 5 carton phenyl bhejo", customer: "C01", items: map[string]int64{"PH1L": 60}},
		{text: "Rajesh ko saadhe teen carton GC", customer: "C01", items: map[string]int64{"GC500": 84}},
		{text: "Sharma ji ke liye paune do carton phenyl", customer: "C02", items: map[string]int64{"PH1L": 21}},
		{text: "aadha carton GC Mehta ko", customer: "C03", items: map[string]int64{"GC500": 12}},
		// The "do" trap: "bhej do" is "send", "do carton" is two cartons.
		{text: "5 GC bhej do Rajesh ko", customer: "C01", items: map[string]int64{"GC500": 5}},
		{text: "do carton GC Ashok ke liye", customer: "C08", items: map[string]int64{"GC500": 48}},
		{text: "Mehta ji ko do carton DW de do", customer: "C03", items: map[string]int64{"DW500": 48}},
		{text: "Rajesh ko do peti GC bhej do", customer: "C01", items: map[string]int64{"GC500": 48}},
		{text: "Rajesh ko GC do", customer: "C01", ask: []string{"How many Glass Cleaner 500ml"}},
		// Devanagari and mixed scripts, Devanagari digits.
		{text: "राजेश के लिए 5 कार्टन ग्लास क्लीनर", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "मेहता को दो पेटी टॉयलेट क्लीनर भेजो", customer: "C03", items: map[string]int64{"TC500": 48}},
		{text: "अशोक के लिए २० साबुन", customer: "C08", items: map[string]int64{"SP75": 20}},
		{text: "राजेश 2 दर्जन झाड़ू नकद", customer: "C01", payment: domain.PayCOD, items: map[string]int64{"BR01": 24}},
		{text: "शर्मा 1 दर्जन पोछा उधार", customer: "C02", payment: domain.PayCredit, items: map[string]int64{"MP01": 12}},
		{text: "मेहता जी के लिए फिनाइल गोली 2 कार्टन", customer: "C03", items: map[string]int64{"NB100": 200}},
		{text: "Rajesh ke liye 5 कार्टन GC", customer: "C01", items: map[string]int64{"GC500": 120}},
		{text: "Ashok ko १० pkt surf", customer: "C08", items: map[string]int64{"DP1KG": 10}},
	}
	for _, c := range cases {
		checkParse(t, p, c)
	}
}

func TestParseAsksInsteadOfGuessing(t *testing.T) {
	p := demoParser(t)
	cases := []parseCase{
		// Unknown products.
		{text: "Rajesh 5 carton maggi", customer: "C01", ask: []string{`"maggi"`}},
		{text: "Sharma ko 10 pack biscuit aur 2 ctn GC", customer: "C02", items: map[string]int64{"GC500": 48}, ask: []string{`"biscuit"`}},
		{text: "Rajesh: GC 5 ctn, maggi 3 ctn", customer: "C01", items: map[string]int64{"GC500": 120}, ask: []string{`"maggi"`}},
		{text: "Mehta 3 ctn vim", customer: "C03", ask: []string{`"vim"`}},
		{text: "Rajesh 5 ctn GC, 3 ctn", customer: "C01", ask: []string{"How many Glass Cleaner 500ml", "3 cartons"}},
		{text: "Rajesh 5 ctn", customer: "C01", ask: []string{"Which product are the 5 cartons for?"}},
		{text: "Rajesh ko kuch bhejo", customer: "C01", ask: []string{"Which products and how many?"}},
		// Unknown and ambiguous customers.
		{text: "for Verma Stores 5 ctn GC", items: map[string]int64{"GC500": 120}, ask: []string{`customer called "Verma Stores"`}},
		{text: "Kapoor ke liye 10 pack phenyl", items: map[string]int64{"PH1L": 60}, ask: []string{`"Kapoor"`}},
		{text: "Singh ko 2 carton harpic", items: map[string]int64{"TC500": 48}, ask: []string{`"Singh"`}},
		{text: "Verma ji ko 10 pcs broom, cash", payment: domain.PayCOD, items: map[string]int64{"BR01": 10}, ask: []string{`"Verma ji"`}},
		{text: "Verma 5 ctn GC", items: map[string]int64{"GC500": 120}, ask: []string{`"Verma"`}},
		{text: "5 ctn GC for tomorrow", items: map[string]int64{"GC500": 120}, ask: noCustomer},
		{text: "5 carton GC", items: map[string]int64{"GC500": 120}, ask: noCustomer},
		{text: "Gupta ko 5 carton GC", items: map[string]int64{"GC500": 120}, ask: []string{"Gupta Supermart (C04)", "Gupta Brothers (C09)"}},
		{text: "गुप्ता ji 2 ctn GC, Gupta bros ko bhi", ask: []string{"more than one customer"}, items: map[string]int64{"GC500": 48}},
		{text: "Rajesh 5 ctn GC, Sharma 2 ctn TC", items: map[string]int64{"GC500": 120, "TC500": 48},
			ask: []string{"Rajesh Kirana Store (C01)", "Sharma General Store (C02)"}},
		// Conflicting payment modes.
		{text: "Sharma 4 dozen DB cash ya credit", customer: "C02", items: map[string]int64{"DB200": 48},
			ask: []string{"cash on delivery or credit"}},
		{text: "Rajesh ko 5 ctn GC, payment cash nahi UPI", customer: "C01", items: map[string]int64{"GC500": 120},
			ask: []string{"cash on delivery or UPI"}},
		// Units a product does not come in.
		{text: "Rajesh 5 bag GC", customer: "C01", ask: []string{"does not come in bags", "carton of 24"}},
		{text: "Sharma 2 box harpic", customer: "C02", ask: []string{"does not come in boxes"}},
		{text: "Mehta 3 carton surf", customer: "C03", ask: []string{"Detergent Powder 1kg does not come in cartons", "bag of 20"}},
		// Zero, absurd and fractional quantities.
		{text: "Rajesh 0 carton GC", customer: "C01", ask: []string{"0 is not a quantity"}},
		{text: "Sharma 100000 carton GC", customer: "C02", ask: []string{"looks wrong"}},
		{text: "Sharma 2000000 GC", customer: "C02", ask: []string{"looks wrong"}},
		{text: "Ashok 1.5 bottle phenyl", customer: "C08", ask: []string{"not a whole number"}},
		{text: "Ashok 2.5 pack phenyl", customer: "C08", items: map[string]int64{"PH1L": 15}},
		{text: "Sharma 0.3 carton GC", customer: "C02", ask: []string{"0.3 cartons is 7.2 bottles, not a whole number"}},
		// Quantities that compete: ranges, corrections.
		{text: "GC 5-6 carton Rajesh", customer: "C01", ask: []string{"5 cartons or 6 cartons"}},
		{text: "Rajesh GC 5 se 6 peti", customer: "C01", ask: []string{"5 cartons or 6 cartons"}},
		{text: "Rajesh GC aur TC 5 ctn", customer: "C01", items: map[string]int64{"TC500": 120}, ask: []string{"How many Glass Cleaner 500ml"}},
		{text: "Rajesh GC 5 ctn nahi 6 ctn", customer: "C01", ask: []string{"5 cartons or 6 cartons"}},
		{text: "Rajesh 5 ctn GC 10", customer: "C01", ask: []string{"How many Glass Cleaner 500ml", "10"}},
		// A size the product does not come in.
		{text: "Rajesh 1L GC 2 ctn", customer: "C01", ask: []string{"comes in 500ml, not 1L"}},
		{text: "Rajesh 5 kg surf", customer: "C01", ask: []string{"comes in 1kg, not 5kg"}},
		// No quantity.
		{text: "Rajesh 2 ctn GC+TC", customer: "C01", items: map[string]int64{"GC500": 48}, ask: []string{"How many Toilet Cleaner 500ml"}},
		// Not an order at all: a reference to approve.
		{text: "approve ORD-1042", ask: []string{"Which products and how many?"}},
		{text: "ORD-1042 ok", ask: []string{"Which products and how many?"}},
	}
	for _, c := range cases {
		checkParse(t, p, c)
	}
}

func TestLabelledOrdersScore(t *testing.T) {
	f, err := os.Open("testdata/orders.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ex, err := ReadLabelledOrders(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex) < 170 {
		t.Fatalf("%d labelled orders, want at least 170", len(ex))
	}
	hard := 0
	for _, e := range ex {
		if e.Customer == nil || len(e.Items) == 0 {
			hard++
		}
	}
	if hard < 20 {
		t.Errorf("%d labelled orders without a customer or items, want at least 20 hard cases", hard)
	}
	rep := EvaluateParsing(demoParser(t), ex)
	var b strings.Builder
	if err := rep.Write(&b); err != nil {
		t.Fatal(err)
	}
	if rep.Accuracy < 0.95 {
		t.Errorf("exact accuracy %.3f, want at least 0.95\n%s", rep.Accuracy, b.String())
	}
	if rep.Silent > len(ex)/100 {
		t.Errorf("%d silent mistakes, want at most %d\n%s", rep.Silent, len(ex)/100, b.String())
	}
	t.Logf("%d labelled orders, exact %.3f, silent %d", rep.Total, rep.Accuracy, rep.Silent)
}

// paintCatalog is a paint and hardware distributor, nothing like the demo:
// products sold by the can, bucket, bag and kilogram, one name shared by
// three pack sizes, and two customers called Jain.
func paintCatalog() ([]domain.Product, []domain.Customer) {
	ps := []domain.Product{
		{SKU: "APX1L", Name: "Apex Emulsion 1L", Aliases: []string{"apex"}, Unit: "can", PackSizes: []domain.PackSize{{Name: "carton", Units: 12}}},
		{SKU: "APX4L", Name: "Apex Emulsion 4L", Aliases: []string{"apex"}, Unit: "can", PackSizes: []domain.PackSize{{Name: "carton", Units: 4}}},
		{SKU: "APX20L", Name: "Apex Emulsion 20L", Aliases: []string{"apex"}, Unit: "bucket"},
		{SKU: "TRC1L", Name: "Tractor Emulsion 1L", Aliases: []string{"tractor"}, Unit: "can", PackSizes: []domain.PackSize{{Name: "carton", Units: 12}}},
		{SKU: "PUT40", Name: "Wall Putty 40kg", Aliases: []string{"putty", "birla putty"}, Unit: "bag"},
		{SKU: "THN1L", Name: "Thinner 1L", Aliases: []string{"thinner", "tarpin"}, Unit: "bottle", PackSizes: []domain.PackSize{{Name: "carton", Units: 24}}},
		{SKU: "NAIL2", Name: "Wire Nails 2 inch", Aliases: []string{"nails", "keel", "कील"}, Unit: "kg", PackSizes: []domain.PackSize{{Name: "box", Units: 25}}},
		{SKU: "BIND", Name: "Binding Wire", Aliases: []string{"binding wire", "taar"}, Unit: "kg"},
		{SKU: "BRS4", Name: "Paint Brush 4 inch", Aliases: []string{"brush"}, Unit: "piece", PackSizes: []domain.PackSize{{Name: "box", Units: 10}}},
		{SKU: "TAPE1", Name: "Masking Tape 1 inch", Aliases: []string{"tape"}, Unit: "roll", PackSizes: []domain.PackSize{{Name: "box", Units: 48}}},
		{SKU: "ROPE", Name: "Nylon Rope", Aliases: []string{"rassi"}, Unit: "metre", PackSizes: []domain.PackSize{{Name: "bundle", Units: 100}}},
		// Units written the way this distributor writes them.
		{SKU: "SAND80", Name: "Sand Paper 80", Aliases: []string{"regmal"}, Unit: "pcs", PackSizes: []domain.PackSize{{Name: "pkt", Units: 50}, {Name: "ctn", Units: 500}}},
	}
	cs := []domain.Customer{
		{ID: "K01", Name: "Sai Hardware", Aliases: []string{"sai"}},
		{ID: "K02", Name: "New Bharat Paints", Aliases: []string{"bharat"}},
		{ID: "K03", Name: "Jain Sanitary and Paints", Aliases: []string{"jain"}},
		{ID: "K04", Name: "Jain Brothers", Aliases: []string{"jain"}},
		{ID: "K05", Name: "Om Colour House", Aliases: []string{"om colour"}},
	}
	return ps, cs
}

func TestParseOtherCatalog(t *testing.T) {
	ps, cs := paintCatalog()
	r, err := intent.NewRouter(intent.Vocabulary{Products: ps, Customers: cs}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := NewParser(r, ps, cs)
	cases := []parseCase{
		// A size settles which product a shared name means.
		{text: "Sai Hardware: apex 4 ltr 5 can, tractor 2 carton, cash", customer: "K01", payment: domain.PayCOD,
			items: map[string]int64{"APX4L": 5, "TRC1L": 24}},
		{text: "bharat ko 20 ltr apex 2 bucket", customer: "K02", items: map[string]int64{"APX20L": 2}},
		{text: "bharat ko 2 carton apex 1L", customer: "K02", items: map[string]int64{"APX1L": 24}},
		{text: "sai 5 apex", customer: "K01", ask: []string{`Which product do you mean by "apex"`, "Apex Emulsion 4L"}},
		{text: "sai 2 apex 10 ltr", customer: "K01", ask: []string{"Which product do you mean"}},
		// Products sold by the kilogram: "25 kg" is a quantity.
		{text: "Om colour 25 kg keel udhaar", customer: "K05", payment: domain.PayCredit, items: map[string]int64{"NAIL2": 25}},
		{text: "Om colour ke liye nails 2 box", customer: "K05", items: map[string]int64{"NAIL2": 50}},
		{text: "Om colour ke liye कील 500 gm", customer: "K05", ask: []string{"not a whole number"}},
		// Between two names, a weight is the quantity of the one sold by
		// weight, or of the one after when the first was counted before it.
		{text: "Om colour: 2 bag putty, 25 kg keel", customer: "K05", items: map[string]int64{"PUT40": 2, "NAIL2": 25}},
		{text: "Om colour: 1 carton tarpin, 10 kg keel", customer: "K05", items: map[string]int64{"THN1L": 24, "NAIL2": 10}},
		{text: "Om colour 20 kg keel 10 kg taar", customer: "K05", items: map[string]int64{"NAIL2": 20, "BIND": 10}},
		{text: "Om colour keel 20 kg taar 10 kg", customer: "K05", items: map[string]int64{"NAIL2": 20, "BIND": 10}},
		// A word of wanting between a name and its quantity.
		{text: "sai ko putty chahiye 10 bag", customer: "K01", items: map[string]int64{"PUT40": 10}},
		{text: "Om colour ko keel chahiye 25 kg", customer: "K05", items: map[string]int64{"NAIL2": 25}},
		// Pack units of this catalog, Hindi words for them, number words.
		{text: "bharat: tarpin 1 ctn, brush 3 dabba, tape 2 box", customer: "K02",
			items: map[string]int64{"THN1L": 24, "BRS4": 30, "TAPE1": 96}},
		{text: "sai ko das bag putty", customer: "K01", items: map[string]int64{"PUT40": 10}},
		{text: "sai ko 2 bundle rassi", customer: "K01", items: map[string]int64{"ROPE": 200}},
		{text: "sai ko 2 carton putty", customer: "K01", ask: []string{"Wall Putty 40kg does not come in cartons"}},
		{text: "sai ko 2 packet regmal aur 1 peti sand paper", customer: "K01", items: map[string]int64{"SAND80": 600}},
		{text: "sai ko 30 pcs regmal", customer: "K01", items: map[string]int64{"SAND80": 30}},
		{text: "Om colour house 10 rassi bundle", customer: "K05", items: map[string]int64{"ROPE": 1000}},
		// The words after a shared name settle it.
		{text: "Jain Sanitary ko 5 tape box", customer: "K03", items: map[string]int64{"TAPE1": 240}},
		// Shared and unknown customers.
		{text: "Jain ko 2 box brush", items: map[string]int64{"BRS4": 20}, ask: []string{"Jain Sanitary and Paints (K03)", "Jain Brothers (K04)"}},
		{text: "Jain Brothers ko 2 box brush neft", customer: "K04", payment: domain.PayBankTransfer, items: map[string]int64{"BRS4": 20}},
		{text: "Kohli Paints: 2 carton tractor", items: map[string]int64{"TRC1L": 24}, ask: []string{`"Kohli Paints"`}},
		// A product of the demo catalog means nothing here.
		{text: "sai 5 carton GC", customer: "K01", ask: []string{`"GC"`}},
	}
	for _, c := range cases {
		checkParse(t, p, c)
	}
}

func TestParsedMarshalJSON(t *testing.T) {
	p := demoParser(t)
	b, err := json.Marshal(p.Parse("Gupta ko 5 carton GC"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Errorf("keys %v, want customer_id, payment, items, unresolved", got)
	}
	if v, ok := got["customer_id"]; !ok || v != nil {
		t.Errorf("customer_id = %v (present %v), want null", v, ok)
	}
	if v, ok := got["payment"]; !ok || v != nil {
		t.Errorf("payment = %v (present %v), want null", v, ok)
	}
	items, _ := got["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("items = %v, want one", got["items"])
	}
	item := items[0].(map[string]any)
	if item["sku"] != "GC500" || item["qty"] != float64(120) || len(item) != 2 {
		t.Errorf("item = %v, want {sku: GC500, qty: 120}", item)
	}
	if qs, _ := got["unresolved"].([]any); len(qs) != 1 {
		t.Errorf("unresolved = %v, want the question about Gupta", got["unresolved"])
	}

	b, err = json.Marshal(p.Parse("Rajesh 5 ctn GC upi"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"customer_id":"C01","payment":"upi","items":[{"sku":"GC500","qty":120}],"unresolved":[]}`
	if string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}

	// The zero value still has the contract's shape: lists, not nulls.
	b, err = json.Marshal(Parsed{})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"customer_id":null,"payment":null,"items":[],"unresolved":[]}`; string(b) != want {
		t.Errorf("zero Parsed: got %s, want %s", b, want)
	}
}

func TestParsedComplete(t *testing.T) {
	p := demoParser(t)
	for text, want := range map[string]bool{
		"Rajesh 5 ctn GC cash":  true,
		"Rajesh 5 ctn GC":       true, // the payment mode is asked by the service
		"Gupta 5 ctn GC":        false,
		"Rajesh 5 ctn maggi":    false,
		"5 ctn GC":              false,
		"Rajesh ko GC bhej do":  false,
		"Rajesh 5 ctn GC 2 bag": false,
	} {
		if got := p.Parse(text); got.Complete() != want {
			t.Errorf("%q: Complete() = %v, want %v (%+v)", text, got.Complete(), want, got)
		}
	}
}

// The parser is shared by every webhook request: it must be safe and give
// the same answer for the same message under concurrency.
func TestParseConcurrent(t *testing.T) {
	p := demoParser(t)
	texts := []string{"Rajesh 5 ctn GC cash", "Gupta ko 2 peti TC", "शर्मा जी को 10 पेटी फिनाइल", "Mehta 3 ctn vim"}
	want := make([]string, len(texts))
	for i, s := range texts {
		b, _ := json.Marshal(p.Parse(s))
		want[i] = string(b)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 50; k++ {
				i := k % len(texts)
				b, _ := json.Marshal(p.Parse(texts[i]))
				if string(b) != want[i] {
					t.Errorf("%q: got %s, want %s", texts[i], b, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"5 carton glass cleaner and 10 pack phenyl for Rajesh, COD",
		"Gupta ko do sau goli bhej do",
		"राजेश के लिए ५ कार्टन ग्लास क्लीनर, नकद",
		"order: 10 bag surf\n1. GC 2 ctn\n2) TC 3.5 box",
		"GC 5-6 carton ₹90 @ 10% 15 days 5:30",
		"approve ORD-1042",
		"99999999999999999999 carton GC",
	} {
		f.Add(s)
	}
	p := demoParser(f)
	products := p.Products()
	f.Fuzz(func(t *testing.T, text string) {
		got := p.Parse(text)
		for _, it := range got.Items {
			if _, ok := products[it.SKU]; !ok {
				t.Fatalf("%q: SKU %q is not in the catalog", text, it.SKU)
			}
			if it.Qty <= 0 || it.Qty > MaxQty {
				t.Fatalf("%q: qty %d of %s outside (0, %d]", text, it.Qty, it.SKU, MaxQty)
			}
		}
		if got.CustomerID != "" {
			if _, ok := p.Customer(got.CustomerID); !ok {
				t.Fatalf("%q: unknown customer %q", text, got.CustomerID)
			}
		}
		if got.Payment != "" {
			if _, err := domain.ParsePaymentMode(string(got.Payment)); err != nil {
				t.Fatalf("%q: %v", text, err)
			}
		}
		b, err := json.Marshal(got)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if !json.Valid(b) || !utf8.Valid(b) {
			t.Fatalf("%q: invalid JSON %s", text, b)
		}
		if got.Complete() && (len(got.Items) == 0 || got.CustomerID == "") {
			t.Fatalf("%q: complete without a customer or items", text)
		}
	})
}

func BenchmarkParse(b *testing.B) {
	p := demoParser(b)
	texts := []string{
		"5 carton glass cleaner and 10 pack phenyl for Rajesh, COD",
		"Sharma ji ko 3 peti harpic aur do dozen sabun bhej do, udhaar",
		"राजेश के लिए 5 कार्टन ग्लास क्लीनर",
		"Sharma General Store\n1. Harpic - 2 ctn\n2. Lizol - 1 ctn\n3. Colin - 12 pcs",
		"Gupta ko 5 carton GC",
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p.Parse(texts[i%len(texts)])
	}
}
