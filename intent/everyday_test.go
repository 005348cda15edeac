package intent

import (
	"context"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestPaymentFromAStranger: a payment from a shop the customer list does
// not know is still a payment (who it was is asked afterwards); the same
// words that are not a payer paying, or a question, are not.
func TestPaymentFromAStranger(t *testing.T) {
	r := demoRouter(t)
	for text, want := range map[string]domain.Intent{
		"Jain Medicos paid 32500 via NEFT":           domain.IntentPayment,
		"Balaji ne teen hazaar GPay kiya":            domain.IntentPayment,
		"Mahalaxmi wale ne 6300 upi kiya abhi":       domain.IntentPayment,
		"Arora Stores paid 1800 in cash":             domain.IntentPayment,
		"Jain Medicos ne 32500 NEFT kiya kya?":       domain.IntentUnknown,
		"kal 5000 cash dena hai Jain ko":             domain.IntentUnknown,
		"gpay se payment fail ho gaya, 500 kat gaye": domain.IntentUnknown,
	} {
		d := r.Route(context.Background(), text)
		if want == domain.IntentPayment && d.Intent != want || want != domain.IntentPayment && d.Intent == domain.IntentPayment {
			t.Errorf("%q: %s (%s), want %s", text, d.Intent, d.Reason, want)
		}
	}
}

// TestCollectionsAskedInTheirWords: what came in over a period, asked by
// the mode, the month or the amount received; what is still owed is not.
func TestCollectionsAskedInTheirWords(t *testing.T) {
	r := demoRouter(t)
	for text, want := range map[string]bool{
		"December me ab tak RTGS se kitna aaya?":         true,
		"What was the total amount received last month?": true,
		"how much money came in this week":               true,
		"kitna paisa aana baaki hai is mahine":           false,
	} {
		if got := r.Route(context.Background(), text).Intent == domain.IntentPaymentsReceived; got != want {
			t.Errorf("%q: payments received %v, want %v", text, got, want)
		}
	}
}

// TestAnOrderWithGujaratisTo: Gujarati's "ne" is "to" ("Rajesh ne 5
// carton GC mokli do, udhar ma"); Hindi's "ne" of a customer who paid,
// returned or ordered is no order of Munshi's to draft.
func TestAnOrderWithGujaratisTo(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentOrder, "Rajesh ne 5 carton GC mokli do, udhar ma", "rajesh ne 200 GC udharo ma", "Rajesh ne 10 carton harpic ane 5 carton GC, NEFT thi")
	notRoutedAs(t, r, domain.IntentOrder, "Rajesh ne 5000 cash diye", "Rajesh ne 5 carton GC wapas kiye", "Rajesh ne 10 carton GC ka order diya tha kya")
}

// TestAnOrderWithBengalisCountWord: Bengali counts with "ta" ("Rajesh ke
// 10 ta GC"), which stands beside an order's count.
func TestAnOrderWithBengalisCountWord(t *testing.T) {
	routedAs(t, demoRouter(t), domain.IntentOrder, "Rajesh ke 10 ta harpic", "rajesh ke 5 ta GC, cash")
}

// TestAGreetingsNameTheGoodsAreFor: a customer named with greeting
// words ("Shree Ram Machine Tools") is the customer when goods are for
// them ("shree ram ne 30 FAG 6306"); said alone it greets.
func TestAGreetingsNameTheGoodsAreFor(t *testing.T) {
	r := routerFor(t, Vocabulary{
		Products:  []domain.Product{{SKU: "FAG6306", Name: "FAG 6306 ZZ C3 Bearing", Aliases: []string{"fag 6306"}, Unit: "piece"}},
		Customers: []domain.Customer{{ID: "R03", Name: "Shree Ram Machine Tools", Aliases: []string{"shree ram"}}},
	})
	routedAs(t, r, domain.IntentOrder, "shree ram ne 30 FAG 6306", "shree ram ko 30 fag 6306 bhejo")
	routedAs(t, r, domain.IntentGreeting, "jai shree ram", "shree ram")
}

// TestACustomerNamedByANumberWord: "Das", a customer's name, is also
// ten; alone beside an order it is the customer, and counting goods
// ("das peti") it is ten.
func TestACustomerNamedByANumberWord(t *testing.T) {
	r := routerFor(t, Vocabulary{
		Products:  []domain.Product{{SKU: "DBB85", Name: "Dollar Bigboss Brief 85", Aliases: []string{"dollar brief"}, Unit: "piece"}},
		Customers: []domain.Customer{{ID: "G03", Name: "Das Bastralaya", Aliases: []string{"das"}}},
	})
	if n := r.Normalize("Das 6 dozen dollar brief upi"); len(n.Entities) == 0 || n.Entities[0].Kind != EntityCustomer || n.Entities[0].ID != "G03" {
		t.Errorf("Das is no customer: %+v", n.Entities)
	}
	if n := r.Normalize("das peti dollar brief"); len(n.Entities) == 0 || n.Entities[0].Kind != EntityNumber || n.Entities[0].Value != 10 {
		t.Errorf("das peti is no count: %+v", n.Entities)
	}
}

// TestACustomerNamedByAWordARuleAllows: "Kalsi", a customer's name, is
// also a word the dues rule allows (Kannada's send); the name is kept,
// weak, so the dues asked of Kalsi are theirs, and routing still reads
// the word.
func TestACustomerNamedByAWordARuleAllows(t *testing.T) {
	r := routerFor(t, Vocabulary{
		Products:  []domain.Product{{SKU: "CW4", Name: "Cutting Wheel 4 inch", Aliases: []string{"cutting wheel"}, Unit: "piece"}},
		Customers: []domain.Customer{{ID: "J07", Name: "Kalsi Workshop (Phagwara)", Aliases: []string{"kalsi"}}},
	})
	if !allowedOnly["kalsi"] {
		t.Fatal("kalsi is no longer a word a rule only allows: the test names another")
	}
	for _, text := range []string{"kalsi ka baaki kitna hai", "aur kalsi ka?"} {
		n := r.Normalize(text)
		if len(n.Entities) == 0 || n.Entities[0].Kind != EntityCustomer || n.Entities[0].ID != "J07" || !n.Entities[0].Weak {
			t.Errorf("%q: Kalsi is no weak customer: %+v", text, n.Entities)
		}
	}
	routedAs(t, r, domain.IntentOutstanding, "kalsi ka baaki kitna hai")
}

// TestWhoOwesTheMost: who owes the most, asked without "how much", in
// Hinglish, Malayalam and Kannada, and everyone's dues with Hinglish's
// "saari"; who is to get the most goods is not a debt.
func TestWhoOwesTheMost(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentOutstanding, "kaun sabse zyada dena?", "aaranu ettavum kooduthal tharanullathu?",
		"namge yaaru jaasti duddu kodbeku?", "saari party ka baki excel mein de do")
	notRoutedAs(t, r, domain.IntentOutstanding, "kisko sabse zyada maal dena hai")
}

// TestGoodsTheCustomerGotOrTook: the customer received the items, or
// someone at the customer's took the goods; money taken or received is
// no delivery.
func TestGoodsTheCustomerGotOrTook(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentDelivery, "Rajesh Kirana done. all items received, no damages",
		"sharma ji ke yahan gaye the, maal unke bhai ne liya, sign bhi unhone kiya")
	notRoutedAs(t, r, domain.IntentDelivery, "Rajesh ne 5000 liya", "Rajesh ka payment received", "Rajesh ka cheque received")
}

// TestAnOrderWithPunjabisIs: Punjabi's "bhejni aa" (is to be sent) ends
// an order as "bhejna hai" does.
func TestAnOrderWithPunjabisIs(t *testing.T) {
	r := demoRouter(t)
	routedAs(t, r, domain.IntentOrder, "Rajesh nu GC 6 bhejni aa", "Rajesh nu phenyl 1L 6 bhejni aa")
}
