package orders

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

func TestReadPayment(t *testing.T) {
	p := demoParser(t)
	rs := func(r int64) domain.Paise { return domain.Paise(r * 100) }
	cases := []struct {
		text     string
		customer string
		amount   domain.Paise
		mode     domain.PaymentMode
		ref      string
		ask      []string
	}{
		{"Mehta ne 50,000 diya cheque 123456", "C03", rs(50000), domain.PayCheque, "123456", nil},
		{"received 1.2 lakh from Mehta by NEFT ref UTR991", "C03", rs(120000), domain.PayBankTransfer, "UTR991", nil},
		{"Sharma ji 25k UPI", "C02", rs(25000), domain.PayUPI, "", nil},
		// A UTR in groups of digits is one reference, and a transfer.
		{"Gupta ji (supermart) ne 30,000 bank me daale hain, UTR 4199 0021 7733", "C04", rs(30000), domain.PayBankTransfer, "419900217733", nil},
		{"अशोक प्रोव्हिजन कडून ३००० रुपये मिळाले, गुगल पे वर", "C08", rs(3000), domain.PayUPI, "", nil},
		{"Rajesh se pachas hazaar cash mila", "C01", rs(50000), domain.PayCOD, "", nil},
		// A cheque's amount in lakhs is no reference; its number is.
		{"Mehta cheque 1.2 lakh received chq no 004587", "C03", rs(120000), domain.PayCheque, "004587", nil},
		{"Mehta ka cheque 1.5 lakh mila, chq no 004417", "C03", rs(150000), domain.PayCheque, "004417", nil},
		// Fifty-five thousand; twenty-five in Punjabi; eighteen in Telugu.
		{"Mehta ka cheque aaya pachpan hazaar, cheque number 558201", "C03", rs(55000), domain.PayCheque, "558201", nil},
		{"Mehta ton pachi hazaar aaye cash", "C03", rs(25000), domain.PayCOD, "", nil},
		{"Mehta nundi 18 వేలు cash ichcharu", "C03", rs(18000), domain.PayCOD, "", nil},
		// A thousand after a word nobody knows is asked, not taken as one.
		{"Mehta se zorbu hazaar cash mila", "C03", 0, domain.PayCOD, "", []string{"How much"}},
		{"Mehta ne hazaar rupaye diye cash", "C03", rs(1000), domain.PayCOD, "", nil},
		// Ten thousand in Marathi, twenty-five thousand in Bengali.
		{"मेहता कडून दहा हजार रोख मिळाले", "C03", rs(10000), domain.PayCOD, "", nil},
		{"Mehta pochish hajar UPI te dilo", "C03", rs(25000), domain.PayUPI, "", nil},
		{"hotel shivam paid ₹12,500.50 via gpay txn id 4417889911", "C05", domain.Paise(1250050), domain.PayUPI, "4417889911", nil},
		{"मेहता ने डेढ़ लाख का चेक दिया चेक नंबर 778812", "C03", rs(150000), domain.PayCheque, "", nil},
		{"Agarwal ka payment aaya 8000 rupees cash", "C07", rs(8000), domain.PayCOD, "", nil},
		{"city hospital rtgs 3,45,000 utr HDFC0001234", "C06", rs(345000), domain.PayBankTransfer, "HDFC0001234", nil},
		// What is not said is asked.
		{"Mehta ne payment kiya cheque se", "C03", 0, domain.PayCheque, "", []string{"How much"}},
		{"Mehta ne 50000 diya", "C03", rs(50000), "", "", []string{"How was it paid"}},
		{"50000 mile UPI se", "", rs(50000), domain.PayUPI, "", []string{"Which customer"}},
		{"Gupta ne 20000 diya upi", "", rs(20000), domain.PayUPI, "", []string{"Gupta Supermart", "Gupta Brothers"}},
		{"Mehta 20000 aur 30000 cash", "C03", 0, domain.PayCOD, "", []string{"How much was paid: ₹20,000 or ₹30,000"}},
		// Devanagari names, verbs and digits (grouped or not), amounts in words,
		// short names, and references after their mode even when the amount
		// comes after them.
		{"शर्मा जी ने २५००० नकद जमा किए", "C02", rs(25000), domain.PayCOD, "", nil},
		{"गुप्ता जी से ५०००० का चेक मिला, चेक नं ११२२३३", "C04", rs(50000), domain.PayCheque, "112233", nil},
		{"शर्मा से १८,५०० का भुगतान मिला यूपीआई से", "C02", rs(18500), domain.PayUPI, "", nil},
		{"मेहता ने पच्चीस हज़ार का भुगतान किया NEFT से", "C03", rs(25000), domain.PayBankTransfer, "", nil},
		{"received twenty five thousand from Sharma ji in cash", "C02", rs(25000), domain.PayCOD, "", nil},
		{"Ashok ji 12k cash de gaye", "C08", rs(12000), domain.PayCOD, "", nil},
		{"Agarwal ji ne 6,500 phonepay kiya", "C07", rs(6500), domain.PayUPI, "", nil},
		{"Shivam hotel ne ₹७५०० UPI kiye", "C05", rs(7500), domain.PayUPI, "", nil},
		{"Mehta ji chq 220044 Rs 60000", "C03", rs(60000), domain.PayCheque, "220044", nil},
		{"mehta cheque 40000 bandide chq no 220915", "C03", rs(40000), domain.PayCheque, "220915", nil},
		{"City hospital se cheque no 667788 mila 85000 ka", "C06", rs(85000), domain.PayCheque, "667788", nil},
		{"sharma 8k gpay", "C02", rs(8000), domain.PayUPI, "", nil},
		// The number of the order paid for is not the amount.
		{"agarwal ji ne 1800 cash de diye order 2045 ke against", "C07", rs(1800), domain.PayCOD, "", nil},
		{"rajesh bhai ne 1318 wale order ka pura payment kar diya 11,400 upi se", "C01", rs(11400), domain.PayUPI, "", nil},
		{"ord no 1203 ka payment mil gaya sharma ji se 9,360 cash", "C02", rs(9360), domain.PayCOD, "", nil},
		// A cheque written "check", its number after it; the road's spellings.
		{"Sharma general se 15k ka check liya no 663120", "C02", rs(15000), domain.PayCheque, "663120", nil},
		{"ashok ji ne das hazar thamaye kesh", "C08", rs(10000), domain.PayCOD, "", nil},
		{"shivam hotal wale ne 7500 fonpe kiya", "C05", rs(7500), domain.PayUPI, "", nil},
		// A shop the list does not know yet is named in the question.
		{"Laxmi Stores ne 6,500 cash diye aaj", "", rs(6500), domain.PayCOD, "", []string{`I don't know a customer called "Laxmi Stores"`}},
		{"Payment of 1,50,000 from Kapoor Supermart by RTGS", "", rs(150000), domain.PayBankTransfer, "", []string{`"Kapoor Supermart"`}},
	}
	for _, c := range cases {
		got := p.ReadPayment(c.text)
		if got.CustomerID != c.customer || got.Amount != c.amount || got.Mode != c.mode || (c.ref != "" && got.Reference != c.ref) {
			t.Errorf("ReadPayment(%q) = %+v; want customer %q amount %v mode %q ref %q", c.text, got, c.customer, c.amount, c.mode, c.ref)
		}
		asked := strings.Join(got.Unresolved, "\n")
		if len(c.ask) == 0 && asked != "" {
			t.Errorf("ReadPayment(%q) asks %q, want no question", c.text, asked)
		}
		for _, a := range c.ask {
			if !strings.Contains(asked, a) {
				t.Errorf("ReadPayment(%q) asks %q, want it to mention %q", c.text, asked, a)
			}
		}
	}
}

func TestReadDelivery(t *testing.T) {
	p := demoParser(t)
	cases := []struct {
		text  string
		order string
		short []Item
		only  []Item
		ask   string
	}{
		{"ORD-1042 delivered", "ORD-1042", nil, nil, ""},
		{"1042 deliver ho gaya", "ORD-1042", nil, nil, ""},
		{"ORD-1042 pahunch gaya", "ORD-1042", nil, nil, ""},
		{"order 1042 delivered to Mehta", "ORD-1042", nil, nil, ""},
		{"ORD-1042 delivered, GC 5 carton kam", "ORD-1042", []Item{{SKU: "GC500", Qty: 120}}, nil, ""},
		{"ord-1042 delivered but 2 pack phenyl short", "ORD-1042", []Item{{SKU: "PH1L", Qty: 2 * unitsOf(t, p, "PH1L", "pack")}}, nil, ""},
		{"ORD-1042 gaya, sirf 3 carton GC", "ORD-1042", nil, []Item{{SKU: "GC500", Qty: 72}}, ""},
		{"ORD-1042 delivered 5 carton GC", "ORD-1042", nil, nil, "short"},
		{"delivered ho gaya", "", nil, nil, "Which order"},
		{"ORD-1042 aur ORD-1043 delivered", "", nil, nil, "one order"},
		{"1042 wala aur 1043 wala de diya", "", nil, nil, "one order"},
		// An order in each of the forms people write it.
		{"ORD 1042 delivered", "ORD-1042", nil, nil, ""},
		{"ord1042 delivered", "ORD-1042", nil, nil, ""},
		{"order no 1042 delivered", "ORD-1042", nil, nil, ""},
		{"order number 1042 pahunch gaya", "ORD-1042", nil, nil, ""},
		{"#1042 delivered", "ORD-1042", nil, nil, ""},
		{"Rajesh ka maal de diya #1042", "ORD-1042", nil, nil, ""},
		{"1042 wala de diya", "ORD-1042", nil, nil, ""},
		{"Rajesh ka 1042 vala order de diya", "ORD-1042", nil, nil, ""},
		{"१०४२ डिलीवर हो गया", "ORD-1042", nil, nil, ""},
		{"ऑर्डर १०४२ पहुंच गया", "ORD-1042", nil, nil, ""},
		{"१०४२ वाला दे दिया, GC ५ carton कम", "ORD-1042", []Item{{SKU: "GC500", Qty: 120}}, nil, ""},
		{"order 42 delivered", "ORD-42", nil, nil, ""},
		{"maal de diya\n1042", "ORD-1042", nil, nil, ""},
		// Ticked off by the bare number given, or taken by the shop; a
		// round number given may be money, and two joined are two orders.
		{"sharmaji ko de diya 3342", "ORD-3342", nil, nil, ""},
		{"unka 1127 de diya", "ORD-1127", nil, nil, ""},
		{"ashok bhai ne 1202 receive kar liya", "ORD-1202", nil, nil, ""},
		{"Rajesh ko 5000 de diya", "", nil, nil, "Which product"},
		{"1871 aur 1874 dono de diye", "", nil, nil, "one order"},
		// Goods named without a quantity describe the order; without a
		// quantity, goods that did not go are still asked about.
		{"ORD-1042 wala harpic ka order deliver ho gaya", "ORD-1042", nil, nil, ""},
		{"ORD-1042 delivered, harpic nahi gaya", "ORD-1042", nil, nil, "How many"},
	}
	for _, c := range cases {
		got := p.ReadDelivery(c.text)
		if got.OrderID != c.order || !sameItems(got.Short, c.short) || !sameItems(got.Only, c.only) {
			t.Errorf("ReadDelivery(%q) = %+v; want order %q short %v only %v", c.text, got, c.order, c.short, c.only)
		}
		asked := strings.Join(got.Unresolved, "\n")
		if (c.ask == "") != (asked == "") || !strings.Contains(asked, c.ask) {
			t.Errorf("ReadDelivery(%q) asks %q, want %q", c.text, asked, c.ask)
		}
	}
}

// TestReadDeliveryByCustomer: a delivery that names its customer, not its
// order, says who (or asks which one), keeps any shortfall, and never
// takes a quantity, a size or an amount for an order number.
func TestReadDeliveryByCustomer(t *testing.T) {
	p := demoParser(t)
	cases := []struct {
		text       string
		customer   string
		candidates []string
		short      []Item
		ask        string
	}{
		{"Rajesh ka maal de diya", "C01", nil, nil, ""},
		{"Sharma ji ka order pahuncha diya", "C02", nil, nil, ""},
		{"Gupta ji ko supply ho gayi", "C04", nil, nil, ""},
		{"delivered Mehta's order", "C03", nil, nil, ""},
		{"राजेश का माल दे दिया", "C01", nil, nil, ""},
		{"Rajesh ka maal de diya, 3 carton GC kam", "C01", nil, []Item{{SKU: "GC500", Qty: 72}}, ""},
		{"3 carton GC kam, Rajesh ko de diya", "C01", nil, []Item{{SKU: "GC500", Qty: 72}}, ""},
		{"GC 500ml wala 2 carton kam, Rajesh ko de diya", "C01", nil, []Item{{SKU: "GC500", Qty: 48}}, ""},
		// A number that is no order is read as what it is, or asked about.
		{"GC 500 wala 2 carton kam, Rajesh ko de diya", "C01", nil, nil, "500 cartons or 2 cartons"},
		{"Rajesh ko ₹1042 ka maal de diya", "C01", nil, nil, "Which products"},
		{"Rajesh ko 1042 rupees ka maal diya", "C01", nil, nil, "Which products"},
		{"25 din pehle Rajesh ko maal de diya", "C01", nil, nil, "Which products"},
		{"Rajesh nahi, Mehta ka maal de diya", "C03", nil, nil, ""},
		{"Gupta ka maal de diya", "", []string{"C04", "C09"}, nil, "Gupta Supermart or Gupta Brothers"},
		{"Rajesh aur Mehta ka maal de diya", "", []string{"C01", "C03"}, nil, "one customer at a time"},
		{"Ramesh ko maal de diya", "", nil, nil, `I don't know a customer called "Ramesh"`},
		{"Kohli Traders ko 8 carton harpic de diye", "", nil, nil, `I don't know a customer called "Kohli Traders"`},
		{"सैनी स्टोर्स को साबुन के 5 कार्टन पहुंचा दिए", "", nil, nil, `I don't know a customer called "सैनी स्टोर्स"`},
		{"3 carton GC kam", "", nil, nil, "Which order"},
	}
	for _, c := range cases {
		got := p.ReadDelivery(c.text)
		if got.OrderID != "" || got.CustomerID != c.customer || strings.Join(got.Candidates, ",") != strings.Join(c.candidates, ",") ||
			!sameItems(got.Short, c.short) {
			t.Errorf("ReadDelivery(%q) = %+v; want no order, customer %q (candidates %v), short %v", c.text, got, c.customer, c.candidates, c.short)
		}
		asked := strings.Join(got.Unresolved, "\n")
		if (c.ask == "") != (asked == "") || !strings.Contains(asked, c.ask) {
			t.Errorf("ReadDelivery(%q) asks %q, want %q", c.text, asked, c.ask)
		}
	}
}

func TestReadReceipt(t *testing.T) {
	p := demoParser(t)
	cases := []struct {
		text  string
		items []Item
		wip   bool
	}{
		{"GC 100 carton aaya", []Item{{SKU: "GC500", Qty: 2400}}, false},
		{"production se 20 carton phenyl ready", []Item{{SKU: "PH1L", Qty: 20 * unitsOf(t, p, "PH1L", "carton")}}, true},
		{"maal aa gaya: 50 pack phenyl aur 10 carton harpic", []Item{{SKU: "PH1L", Qty: 50 * unitsOf(t, p, "PH1L", "pack")},
			{SKU: "TC500", Qty: 10 * unitsOf(t, p, "TC500", "carton")}}, false},
		{"फैक्ट्री से 30 carton GC तैयार", []Item{{SKU: "GC500", Qty: 720}}, true},
		// Goods unloaded or made in the words people use.
		{"godown mein 50 peti phenyl utri", []Item{{SKU: "PH1L", Qty: 50 * unitsOf(t, p, "PH1L", "carton")}}, false},
		{"godown me 45 carton phenyl utar gayi", []Item{{SKU: "PH1L", Qty: 45 * unitsOf(t, p, "PH1L", "carton")}}, false},
		{"production mein 40 carton harpic ban gaya", []Item{{SKU: "TC500", Qty: 960}}, true},
		{"गोदाम में 40 पेटी फिनाइल आई", []Item{{SKU: "PH1L", Qty: 40 * unitsOf(t, p, "PH1L", "carton")}}, false},
		{"फैक्ट्री में आज 30 कार्टन GC पैक हो गया", []Item{{SKU: "GC500", Qty: 720}}, true},
		{"shift 2 ne 600 bottle phenyl bhara", []Item{{SKU: "PH1L", Qty: 600}}, true},
		{"night shift output: 40 carton GC", []Item{{SKU: "GC500", Qty: 960}}, true},
		// A name the catalog writes only in Latin letters, heard by its sound.
		{"गोदाम में 10 कार्टन हार्पिक आया", []Item{{SKU: "TC500", Qty: 10 * unitsOf(t, p, "TC500", "carton")}}, false},
		{"गोदाम में 5 बैग डिटर्जेंट आए", []Item{{SKU: "DP1KG", Qty: 5 * unitsOf(t, p, "DP1KG", "bag")}}, false},
	}
	for _, c := range cases {
		got := p.ReadReceipt(c.text)
		if !sameItems(got.Items, c.items) || got.FromWIP != c.wip || len(got.Unresolved) > 0 {
			t.Errorf("ReadReceipt(%q) = %+v; want items %v from_wip %v", c.text, got, c.items, c.wip)
		}
	}
	// A part that came damaged is read apart and taken off what came, in
	// its own unit and goods or in those named before it.
	carton := func(sku string) int64 { return unitsOf(t, p, sku, "carton") }
	for _, c := range []struct {
		text           string
		items, damaged []Item
	}{
		{"FC 1L 45 ctn aa gaya, 1 ctn leak, baki sab ok", []Item{{SKU: "FC1L", Qty: 44 * carton("FC1L")}}, []Item{{SKU: "FC1L", Qty: carton("FC1L")}}},
		// The damage said before the part it took: "seal tuta hua 1 carton".
		{"handwash 5 ctn received, seal tuta hua 1 carton me", []Item{{SKU: "HW200", Qty: 4 * carton("HW200")}}, []Item{{SKU: "HW200", Qty: carton("HW200")}}},
		{"handwash 200ml 12 ctn aaye, 4 bottle ka pump tuta", []Item{{SKU: "HW200", Qty: 12*carton("HW200") - 4}}, []Item{{SKU: "HW200", Qty: 4}}},
		{"received 45 cartons of phenyl, 2 leaking so 43 good", []Item{{SKU: "PH1L", Qty: 43 * carton("PH1L")}}, []Item{{SKU: "PH1L", Qty: 2 * carton("PH1L")}}},
		{"harpic 20 carton aur GC 10 carton aaya, GC 2 carton leak", []Item{{SKU: "TC500", Qty: 20 * carton("TC500")}, {SKU: "GC500", Qty: 8 * carton("GC500")}},
			[]Item{{SKU: "GC500", Qty: 2 * carton("GC500")}}},
		{"300 ctn phenyl arrived from Ahmedabad, 5 ctn leaking, 295 ok", []Item{{SKU: "PH1L", Qty: 295 * carton("PH1L")}}, []Item{{SKU: "PH1L", Qty: 5 * carton("PH1L")}}},
		{"GC 100 carton aaya, harpic 50 carton aaya", []Item{{SKU: "GC500", Qty: 100 * carton("GC500")}, {SKU: "TC500", Qty: 50 * carton("TC500")}}, nil},
	} {
		got := p.ReadReceipt(c.text)
		if !sameItems(got.Items, c.items) || !sameItems(got.Damaged, c.damaged) || len(got.Unresolved) > 0 {
			t.Errorf("ReadReceipt(%q) = %+v; want items %v, damaged %v", c.text, got, c.items, c.damaged)
		}
	}
	if got := p.ReadReceipt("10 carton GC aaya, 20 carton GC leak"); len(got.Unresolved) == 0 {
		t.Errorf("more damaged than came must be asked about: %+v", got)
	}
	if got := p.ReadReceipt("maal aa gaya"); len(got.Unresolved) == 0 {
		t.Errorf("a receipt without products must ask which: %+v", got)
	}
}

func unitsOf(t *testing.T, p *Parser, sku, pack string) int64 {
	t.Helper()
	ps, ok := p.Products()[sku].Pack(pack)
	if !ok {
		t.Fatalf("%s has no %s", sku, pack)
	}
	return ps.Units
}

func TestNotesJSON(t *testing.T) {
	p := demoParser(t)
	for _, c := range []struct {
		got  any
		want string
	}{
		{p.ReadPayment("Mehta ne 50,000 diya cheque 123456"), `{"customer_id":"C03","amount_paise":5000000,"mode":"cheque","reference":"123456"}`},
		{p.ReadPayment("50000 mile"), `{"customer_id":null,"amount_paise":5000000,"mode":null,"reference":null}`},
		{p.ReadDelivery("ORD-1042 delivered, GC 5 carton kam"), `{"order_id":"ORD-1042","short":[{"sku":"GC500","qty":120}]}`},
		{p.ReadDelivery("delivered"), `{"order_id":null,"short":[]}`},
		{p.ReadReceipt("production se 2 carton GC ready"), `{"items":[{"sku":"GC500","qty":48}],"from_wip":true}`},
	} {
		b, err := json.Marshal(c.got)
		if err != nil || string(b) != c.want {
			t.Errorf("json = %s, %v; want %s", b, err, c.want)
		}
	}
}

// FuzzReaders: hostile, oversized and unicode-heavy text never panics, and
// what is read stays inside the books' bounds.
func FuzzReaders(f *testing.F) {
	for _, s := range []string{"Mehta ne 50,000 diya cheque 123456", "received 1.2 lakh from Gupta by NEFT ref UTR991",
		"ORD-1042 delivered, GC 5 carton kam", "1042 deliver ho gaya", "production se 20 carton phenyl ready",
		"मेहता ने डेढ़ लाख का चेक दिया", "ORD-99999999999999999999 delivered", "=cmd|' /C calc'!A0 50000 cash", "\x00\xff₹₹₹",
		"ORD-1042 सिर्फ ३ carton GC गया", "ORD-1042 sirf 3 carton GC aur GC 30 bottle kam", "ORD-1042 GC 99999999999 bottle kam",
		"ORD-1042 bas 0 carton GC", "ORD-1042 GC 1.5 box kam", "ORD-1042 \u202esirf 3 carton GC\u202c", "ORD-1042 only only sirf 🙏 GC 5 peti",
		"Rajesh ka maal de diya", "Gupta ka maal de diya, 2 carton GC kam", "राजेश का माल दे दिया", "१०४२ वाला डिलीवर",
		"ऑर्डर १०४२ पहुंच गया", "#1042 de diya", "#", "# # 12 wala", "ORD 1042\n2", "₹1042 Rajesh", "Rajesh ko 99999999999999 wala",
		"\u202eRajesh ka maal\u202c", "राजेश 𝟏𝟎𝟒𝟐 wala", "order no ٣٤٥ delivered", "1042 wala 1043 wala", "wala wala wala",
		"Rajesh nahi nahi Gupta", "Gupta Gupta Gupta Brothers ka maal", "order order order 0 wala", "-1042 wala", "1042.5 wala",
		"Sharma\u200d ji ka माल", "Rajesh ka maal\x00 de diya 3 carton GC kam",
		"FC 1L 45 ctn aa gaya, 1 ctn leak", "GC 10 carton aaya, GC 20 carton leak", "45 cartons of phenyl, 2 leaking so 43 good"} {
		f.Add(s)
	}
	p := demoParser(f)
	f.Fuzz(func(t *testing.T, s string) {
		pay := p.ReadPayment(s)
		if pay.Amount < 0 || pay.Amount > MaxAmount {
			t.Fatalf("ReadPayment(%q) amount %v", s, pay.Amount)
		}
		if len(pay.Unresolved) == 0 && (pay.CustomerID == "" || pay.Amount == 0 || pay.Mode == "") {
			t.Fatalf("ReadPayment(%q) = %+v: incomplete without a question", s, pay)
		}
		del := p.ReadDelivery(s)
		if len(del.Unresolved) == 0 && del.OrderID == "" && del.CustomerID == "" {
			t.Fatalf("ReadDelivery(%q) = %+v: neither an order nor a customer, without a question", s, del)
		}
		if del.OrderID != "" && del.CustomerID != "" {
			t.Fatalf("ReadDelivery(%q) = %+v: a customer is read only when no order is named", s, del)
		}
		for _, id := range append([]string{del.CustomerID}, del.Candidates...) {
			if _, known := p.customers[id]; id != "" && !known {
				t.Fatalf("ReadDelivery(%q) = %+v: customer %q is not in the books", s, del, id)
			}
		}
		if len(del.Candidates) > 0 && (del.CustomerID != "" || len(del.Unresolved) == 0) {
			t.Fatalf("ReadDelivery(%q) = %+v: candidates without their question", s, del)
		}
		rec := p.ReadReceipt(s)
		for _, it := range append(append(append(del.Short, del.Only...), rec.Items...), rec.Damaged...) {
			if it.Qty <= 0 || it.Qty > MaxQty {
				t.Fatalf("%q: item %+v out of bounds", s, it)
			}
		}
		for _, it := range append(del.Short, del.Only...) {
			if _, ok := del.Units[it.SKU]; !ok {
				t.Fatalf("ReadDelivery(%q) = %+v: no unit said for %s", s, del, it.SKU)
			}
		}
	})
}
