package intent

import (
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestOfficeModelReadsWhatIsLeft: messages for the office in words no
// rule lists, from the development splits, hand over through the office
// model; what the rules know is not the office stays unread by it.
func TestOfficeModelReadsWhatIsLeft(t *testing.T) {
	r := demoRouter(t)
	for text, kind := range map[string]string{
		"odonil ke 4 can pichke hue hain aur leak bhi kar rahe":                                                      "dispute",
		"ਇਹ ਆਰਡਰ ਮੈਂ ਦਿੱਤਾ ਹੀ ਨਹੀਂ ਸੀ, ਬਿੱਲ ਕਿਉਂ ਭੇਜਿਆ?":                                                             "dispute",
		"The invoice dated 12th charges 18% GST on brooms, whereas it should be 12%. Please rectify.":                "dispute",
		"Hello, City Hospital stores. The mops supplied last week are shedding badly, we need them replaced.":        "dispute",
		"ફિનાઇલના ૩ કાર્ટન ઓછા આવ્યા છે, બિલ ૧૫ નું છે ને માલ ૧૨ જ":                                                  "dispute",
		"Please ask Vikram sir to talk to Mehta ji, he wants new credit terms":                                       "asked",
		"This is to inform you that we did not place order ORD-1187. Kindly withdraw the invoice raised against it.": "dispute",
	} {
		d := r.Route(t.Context(), text)
		if d.Intent != domain.IntentHandoff || d.Tier != TierModel || HandoffReason(d) != kind {
			t.Errorf("Route(%q) = %s (%s, %s), want a handoff by the office model, %s", text, d.Intent, d.Tier, d.Reason, kind)
		}
	}
	// A complaint the main model reads as an order, for its goods, is
	// the office's; so is one it calls none of Munshi's that names a
	// figure of the books. An order stays one.
	byOfficeModel(t, r, "The consignment contained toilet cleaner bottles manufactured over two years ago. We will not accept these; please arrange a pickup.",
		"sat sri akal ji main keh reha si ki pichle hafte jehda maal aaya si ohde vich sabun de carton nu chooha kha gaya si te dabbe khulle hoye san main ta oh vech nahi sakda tusi kise nu bhejo te eh chakk lao",
		"सेल्समैन ने जो भाव बोला था वो बिल में नहीं लगा")
	// One it calls none of Munshi's that names the business's people or
	// papers is the office's too; "office" alone may be anyone's.
	byOfficeModel(t, r, "tamaro salesman 3 divas thi aavyo j nathi, malik ne fariyad karvi che",
		"Sir, manager garini okasari maa shop ki rammani cheppandi",
		"jo paisa humne diya wo kam dikha rahe ho statement me, 10000 ki jagah 1000 likha hai")
	// So is an order's status asked of an order the writer never
	// placed, and money charged that nothing else names.
	byOfficeModel(t, r, "is hafte ek bhi order nahi diya maine, fir ye ORD-1071 kahan se aaya?",
		"delivery wala 50 rupaye extra maang raha tha utaarne ke, ye kya tarika hai")
	notRoutedAs(t, r, domain.IntentHandoff, "office jaane keliye directions chahiye")
	routedAs(t, r, domain.IntentOrder, "Rajesh ke liye 5 GC aur 10 phenyl bhej do, cash payment")
	// The office model's surest readings of what the rules know is not
	// the office: someone sent to fetch goods, family.
	notRoutedAs(t, r, domain.IntentHandoff, "koi aadmi bhejo maal uthane godown se", "godown se kisi ko bhejo maal lene",
		"need someone to carry the cartons", "mummy ko call karo")
}

// byOfficeModel fails for each text r does not hand over by the office
// model.
func byOfficeModel(t *testing.T, r *Router, texts ...string) {
	t.Helper()
	for _, text := range texts {
		if d := r.Route(t.Context(), text); d.Intent != domain.IntentHandoff || d.Tier != TierModel {
			t.Errorf("Route(%q) = %s (%s, %s), want a handoff by the office model", text, d.Intent, d.Tier, d.Reason)
		}
	}
}

// TestOfficeModelOnTheDevelopmentSplits holds the office model to what it
// read when last measured: of the development messages every other tier
// left unread, the main model's orders, questions and orders' status,
// and its unknown naming something of the books or the business's
// people, it handed over 57, 53 of them the office's (the others: a
// credit note asked after, a customer to be called, a joke, a delivery
// left with a neighbour).
func TestOfficeModelOnTheDevelopmentSplits(t *testing.T) {
	r := demoRouter(t)
	read, right := 0, 0
	for _, path := range evidenceFiles {
		if path == "corpus/train.jsonl" || path == "corpus/train-handoff.jsonl" {
			continue
		}
		for _, ex := range readCorpus(t, path) {
			d := r.Route(t.Context(), ex.Text)
			if d.Tier != TierModel || !strings.HasPrefix(d.Reason, "model: handoff") {
				continue
			}
			read++
			if ex.Intent == domain.IntentHandoff {
				right++
			}
		}
	}
	t.Logf("the office model handed over %d development messages, %d of them the office's", read, right)
	if read < 53 || float64(right) < 0.85*float64(read) {
		t.Errorf("the office model handed over %d development messages, %d of them the office's (57 and 53 when measured)", read, right)
	}
}
