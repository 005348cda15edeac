package orders

import (
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestReadDeliveryWithoutTheWord: goods handed over in the words people
// use ("saaman de aaye", "utaar diya", "hand over kar diye"), with the
// order named in any form or only its customer (a short name, a name
// followed by what kind of place it is, or Devanagari).
func TestReadDeliveryWithoutTheWord(t *testing.T) {
	p := demoParser(t)
	cases := []struct {
		text, order, customer string
		short                 []Item
	}{
		{"ORD-4101 ka maal de diya Gupta Supermart pe", "ORD-4101", "", nil},
		{"ord 4102 supply ho gaya sir", "ORD-4102", "", nil},
		{"4103 wala maal utaar diya Mehta ke godown mein", "ORD-4103", "", nil},
		{"माल दे दिया ऑर्डर ४१०७", "ORD-4107", "", nil},
		{"४१०९ वाले ऑर्डर का माल उतार दिया", "ORD-4109", "", nil},
		{"ORD-4112 wala dukaan pe de aaya", "ORD-4112", "", nil},
		{"dropped the stock at Agarwal medical, order 4106", "ORD-4106", "", nil},
		{"order #4122 supply hui aaj, 3 carton GC short", "ORD-4122", "", []Item{{SKU: "GC500", Qty: 72}}},
		{"Rajesh bhai ko 5124 handover kiya", "ORD-5124", "", nil},
		{"🚚 5116 pohonch gaya Sharma ji", "ORD-5116", "", nil},
		{"ORD-5120 delivered hai, lekin harpic ke 3 carton nahi gaye", "ORD-5120", "", []Item{{SKU: "TC500", Qty: 72}}},
		{"Rajesh bhai ka saaman de aaye", "", "C01", nil},
		{"Ashok provision ko samaan pahuncha diya", "", "C08", nil},
		{"hotel shivam wala order supply kar diya", "", "C05", nil},
		{"अग्रवाल को माल दे आए", "", "C07", nil},
		{"मेहता जी का माल गोदाम पर पहुंचा दिया", "", "C03", nil},
		{"Gupta bros ka order utaar diya aaj subah", "", "C09", nil},
		{"goods handed over at city hospital store room", "", "C06", nil},
		{"sharma ka saara samaan de diya bhai", "", "C02", nil},
	}
	for _, c := range cases {
		got := p.ReadDelivery(c.text)
		if got.OrderID != c.order || got.CustomerID != c.customer || !sameItems(got.Short, c.short) || len(got.Unresolved) > 0 {
			t.Errorf("ReadDelivery(%q) = %+v; want order %q customer %q short %v, no question", c.text, got, c.order, c.customer, c.short)
		}
	}
}

// TestReadPaymentInEveryScript: Devanagari names, verbs and digits
// (grouped or not), amounts in words, short names, and references after
// their mode even when the amount comes after them.
func TestReadPaymentInEveryScript(t *testing.T) {
	p := demoParser(t)
	rs := func(r int64) domain.Paise { return domain.Paise(r * 100) }
	cases := []struct {
		text     string
		customer string
		amount   domain.Paise
		mode     domain.PaymentMode
		ref      string
	}{
		{"शर्मा जी ने २५००० नकद जमा किए", "C02", rs(25000), domain.PayCOD, ""},
		{"गुप्ता जी से ५०००० का चेक मिला, चेक नं ११२२३३", "C04", rs(50000), domain.PayCheque, "112233"},
		{"शर्मा से १८,५०० का भुगतान मिला यूपीआई से", "C02", rs(18500), domain.PayUPI, ""},
		{"मेहता ने पच्चीस हज़ार का भुगतान किया NEFT से", "C03", rs(25000), domain.PayBankTransfer, ""},
		{"received twenty five thousand from Sharma ji in cash", "C02", rs(25000), domain.PayCOD, ""},
		{"Ashok ji 12k cash de gaye", "C08", rs(12000), domain.PayCOD, ""},
		{"Agarwal ji ne 6,500 phonepay kiya", "C07", rs(6500), domain.PayUPI, ""},
		{"Shivam hotel ne ₹७५०० UPI kiye", "C05", rs(7500), domain.PayUPI, ""},
		{"Mehta ji chq 220044 Rs 60000", "C03", rs(60000), domain.PayCheque, "220044"},
		{"City hospital se cheque no 667788 mila 85000 ka", "C06", rs(85000), domain.PayCheque, "667788"},
		{"sharma 8k gpay", "C02", rs(8000), domain.PayUPI, ""},
	}
	for _, c := range cases {
		got := p.ReadPayment(c.text)
		if got.CustomerID != c.customer || got.Amount != c.amount || got.Mode != c.mode || got.Reference != c.ref || len(got.Unresolved) > 0 {
			t.Errorf("ReadPayment(%q) = %+v (asks %q); want customer %q amount %v mode %q ref %q",
				c.text, got, strings.Join(got.Unresolved, " "), c.customer, c.amount, c.mode, c.ref)
		}
	}
}

// TestReadReceiptUnloaded: goods unloaded or made in the words people use.
func TestReadReceiptUnloaded(t *testing.T) {
	p := demoParser(t)
	cases := []struct {
		text  string
		items []Item
		wip   bool
	}{
		{"godown mein 50 peti phenyl utri", []Item{{SKU: "PH1L", Qty: 50 * unitsOf(t, p, "PH1L", "carton")}}, false},
		{"godown me 45 carton phenyl utar gayi", []Item{{SKU: "PH1L", Qty: 45 * unitsOf(t, p, "PH1L", "carton")}}, false},
		{"production mein 40 carton harpic ban gaya", []Item{{SKU: "TC500", Qty: 960}}, true},
		{"गोदाम में 40 पेटी फिनाइल आई", []Item{{SKU: "PH1L", Qty: 40 * unitsOf(t, p, "PH1L", "carton")}}, false},
	}
	for _, c := range cases {
		got := p.ReadReceipt(c.text)
		if !sameItems(got.Items, c.items) || got.FromWIP != c.wip || len(got.Unresolved) > 0 {
			t.Errorf("ReadReceipt(%q) = %+v; want items %v from_wip %v", c.text, got, c.items, c.wip)
		}
	}
}
