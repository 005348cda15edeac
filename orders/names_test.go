package orders

import (
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestNamesSideBySideAreOneProduct: two names side by side that share a
// product are one line of it: a brand and its product's word ("havells
// wire"), or a word two brands share and the brand ("cement
// ultratech"). Names that share none are two lines. A product named,
// then "bhi" and its quantity, takes it.
func TestNamesSideBySideAreOneProduct(t *testing.T) {
	ps := []domain.Product{
		{SKU: "WIR15", Name: "Havells Wire 1.5mm", Aliases: []string{"havells", "wire"}, Unit: "coil",
			PackSizes: []domain.PackSize{{Name: "box", Units: 5}}, Price: 145000},
		{SKU: "CEMUT", Name: "UltraTech Cement 50kg", Aliases: []string{"ultratech", "cement"}, Unit: "bag", Price: 39000},
		{SKU: "CEMACC", Name: "ACC Cement 50kg", Aliases: []string{"acc", "cement"}, Unit: "bag", Price: 37500},
		{SKU: "PUT20", Name: "Birla Wall Putty 20kg", Aliases: []string{"putty"}, Unit: "bag", Price: 72000},
	}
	cs := []domain.Customer{{ID: "H05", Name: "Sai Traders", Aliases: []string{"Sai"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Sai traders ko 2 box havells wire", customer: "H05", items: map[string]int64{"WIR15": 10}},
		{text: "Sai ko 300 bag cement ultratech", customer: "H05", items: map[string]int64{"CEMUT": 300}},
		{text: "Sai ko 300 bag acc cement", customer: "H05", items: map[string]int64{"CEMACC": 300}},
		{text: "Sai ko 300 bag cement", customer: "H05", ask: []string{"Which product do you mean", "ACC Cement 50kg", "UltraTech Cement 50kg"}},
		{text: "Sai 10 bag putty 5 box wire", customer: "H05", items: map[string]int64{"PUT20": 10, "WIR15": 25}},
		{text: "Sai ke liye 10 bag ultratech aur putty bhi 10 bag", customer: "H05", items: map[string]int64{"CEMUT": 10, "PUT20": 10}},
	} {
		checkParse(t, p, c)
	}
}

// TestNumberOfAName: a number just after a product's name that is a word
// of the name is the name's, not a quantity: "dolo 650" is Dolo 650
// Tablet, and "azithral 250" the Azithral whose name has 250. A number
// that is no word of the name is still a quantity.
func TestNumberOfAName(t *testing.T) {
	ps := []domain.Product{
		{SKU: "DOLO650", Name: "Dolo 650 Tablet", Aliases: []string{"dolo"}, Unit: "strip",
			PackSizes: []domain.PackSize{{Name: "box", Units: 10}}, Price: 3000},
		{SKU: "AZI500", Name: "Azithral 500 Tablet", Aliases: []string{"azithral"}, Unit: "strip",
			PackSizes: []domain.PackSize{{Name: "box", Units: 10}}, Price: 12000},
		{SKU: "AZI250", Name: "Azithral 250 Tablet", Aliases: []string{"azithral"}, Unit: "strip",
			PackSizes: []domain.PackSize{{Name: "box", Units: 10}}, Price: 7500},
	}
	cs := []domain.Customer{{ID: "M01", Name: "Shree Ram Medical Store", Aliases: []string{"Shree Ram"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Shree Ram ko 10 box dolo 650", customer: "M01", items: map[string]int64{"DOLO650": 100}},
		{text: "Shree Ram ko 5 box azithral 250 aur 2 box azithral 500", customer: "M01", items: map[string]int64{"AZI250": 50, "AZI500": 20}},
		{text: "Shree Ram ko dolo 650 10 box", customer: "M01", items: map[string]int64{"DOLO650": 100}},
		{text: "Shree Ram ko dolo 40", customer: "M01", items: map[string]int64{"DOLO650": 40}},
		{text: "Shree Ram ko 5 box azithral", customer: "M01", ask: []string{"Which product do you mean", "Azithral 250 Tablet", "Azithral 500 Tablet"}},
	} {
		checkParse(t, p, c)
	}
}

// TestThicknessTellsBarsApart: a thickness in millimetres is a size, as
// a volume or a weight is: "sariya" alone is either bar and is asked
// about, "sariya 8mm" and "12mm sariya" each name one.
func TestThicknessTellsBarsApart(t *testing.T) {
	ps := []domain.Product{
		{SKU: "TMT8", Name: "TMT Bar 8mm", Aliases: []string{"sariya 8mm", "8mm sariya"}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "bundle", Units: 10}}, Price: 31000},
		{SKU: "TMT12", Name: "TMT Bar 12mm", Aliases: []string{"sariya 12mm", "12mm sariya"}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "bundle", Units: 5}}, Price: 69000},
	}
	cs := []domain.Customer{{ID: "H02", Name: "New Bharat Hardware", Aliases: []string{"Bharat"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Bharat 2 bundle sariya", customer: "H02", ask: []string{"Which product do you mean", "TMT Bar 8mm", "TMT Bar 12mm"}},
		{text: "Bharat 2 bundle sariya 8mm", customer: "H02", items: map[string]int64{"TMT8": 20}},
		{text: "Bharat ko 12mm sariya 1 bundle", customer: "H02", items: map[string]int64{"TMT12": 5}},
	} {
		checkParse(t, p, c)
	}
}

// FuzzPaymentFix: whatever follows a payment's summary, reading it as a
// correction never panics, and what it reads is a sum of money in range,
// a way of paying Munshi knows, or a reference of the characters typed.
func FuzzPaymentFix(f *testing.F) {
	for _, seed := range []string{"nahi 12000 tha", "10000 nahi 12000", "cash nahi, upi se tha", "no 123987", "cheque no 445566",
		"amount 12,000 hai", "sorry 12k upi", "₹-5", "99999999999999 nahi 1", "\x00\u202e", "नहीं १२००० था", ""} {
		f.Add(seed)
	}
	p := demoParser(f)
	f.Fuzz(func(t *testing.T, text string) {
		for _, shown := range []domain.PaymentMode{domain.PayCOD, domain.PayCheque} {
			fix, ok := p.readPaymentFix(text, p.norm.Normalize(text), shown)
			if !ok {
				continue
			}
			if fix.amount < 0 || fix.amount > MaxAmount {
				t.Fatalf("%q: amount %d", text, fix.amount)
			}
			if _, err := domain.ParsePaymentMode(string(fix.mode)); fix.mode != "" && err != nil {
				t.Fatalf("%q: mode %q", text, fix.mode)
			}
			if fix.reference != "" && !strings.Contains(strings.ToUpper(text), fix.reference) {
				t.Fatalf("%q: reference %q", text, fix.reference)
			}
		}
	})
}

// TestABrandBesideANameTwoShare: "dewalt", the Dewalt drill's name
// shortened from its alias "dewalt 13mm", beside "angle grinder", which
// two grinders share, is Dewalt's grinder, before or after the name;
// "bosch angle grinder" the other's.
func TestABrandBesideANameTwoShare(t *testing.T) {
	ps := []domain.Product{
		{SKU: "DRL13DW", Name: "Dewalt DWD024 13 mm Impact Drill Machine", Aliases: []string{"impact drill", "dewalt 13mm"}, Unit: "piece"},
		{SKU: "GRBS", Name: "Bosch GWS 600 Angle Grinder 4 inch", Aliases: []string{"grinder", "angle grinder"}, Unit: "piece"},
		{SKU: "GRDW", Name: "Dewalt DWE4016 Angle Grinder 4 inch", Aliases: []string{"grinder", "angle grinder"}, Unit: "piece"},
	}
	cs := []domain.Customer{{ID: "J03", Name: "Bhatia Machinery Store", Aliases: []string{"bhatia"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "bhatia 15 dewalt angle grinders", customer: "J03", items: map[string]int64{"GRDW": 15}},
		{text: "bhatia 15 angle grinder dewalt", customer: "J03", items: map[string]int64{"GRDW": 15}},
		{text: "bhatia 5 bosch angle grinder", customer: "J03", items: map[string]int64{"GRBS": 5}},
		{text: "bhatia 2 dewalt 13mm", customer: "J03", items: map[string]int64{"DRL13DW": 2}},
	} {
		checkParse(t, p, c)
	}
}

// TestAWordOfTheOneNamedBeside: "cycle rose agarbatti" is the Cycle rose
// incense: "agarbatti" ends the other brand's names and names them, but
// is a word of the one named beside it.
func TestAWordOfTheOneNamedBeside(t *testing.T) {
	ps := []domain.Product{
		{SKU: "CYROSE", Name: "Cycle Agarbatti Rose 100g Packet", Aliases: []string{"cycle rose", "rose agarbatti"}, Unit: "packet",
			PackSizes: []domain.PackSize{{Name: "box", Units: 12}}},
		{SKU: "ZBSAN", Name: "Zed Black Sandal Agarbatti 100g Packet", Aliases: []string{"sandal agarbatti"}, Unit: "packet"},
		{SKU: "ZBMOG", Name: "Zed Black Mogra Agarbatti 100g Packet", Aliases: []string{"mogra agarbatti"}, Unit: "packet"},
	}
	cs := []domain.Customer{{ID: "K07", Name: "Annapoorna Stores", Aliases: []string{"annapoorna"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "annapoorna ko 5 box cycle rose agarbatti", customer: "K07", items: map[string]int64{"CYROSE": 60}},
		{text: "annapoorna ko 5 box agarbatti cycle rose", customer: "K07", items: map[string]int64{"CYROSE": 60}},
		{text: "annapoorna ko 10 agarbatti", customer: "K07", ask: []string{"Which product do you mean by \"agarbatti\""}},
	} {
		checkParse(t, p, c)
	}
}
