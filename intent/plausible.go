package intent

import (
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// Plausibility: what a message must show before the model's reading of
// it is taken (an order its goods, a record its evidence, a yes or a no
// its words), the vetoes that rule a reading out, and the readings that
// are surely none, answered without the LLM.

// surelyNot says why a message the model read as a payment or a
// delivery, and that the checks refused, is surely none: no reading the
// LLM could give would make it one, so it is answered at once.
func surelyNot(in domain.Intent, shape []string) string {
	switch in {
	case domain.IntentPayment:
		return notPaidIn(shape)
	case domain.IntentDelivery:
		return notDelivered(shape)
	}
	return ""
}

// whereWords ask where.
var whereWords = words("kahan where")

// numberedOrder reports an order named by its reference or its number
// ("ORD-1042", "order no. 7316", "1318 wala order"), not by a count
// ("order 40 ctn floor cleaner").
func numberedOrder(shape []string) bool {
	for i, w := range shape {
		if w == phOrderRef || w == phNumber && !quantityAt(shape, i) && orderNumbered(shape, i) {
			return true
		}
	}
	return false
}

// goodsSized reports a size only goods have: a weight, a volume in ml, a
// thickness or a power ("9w"). A size in litres may be money ("2.5L" is
// lakh in a payment), and is not one of these.
func goodsSized(n Normalized) bool {
	for _, e := range n.Entities {
		if e.Kind == EntitySize && !strings.HasSuffix(e.ID, "l") {
			return true
		}
	}
	return false
}

// records are the intents that change the books after an order, once
// confirmed, each with its name and what is missing without the evidence
// its message must show (recordSignal).
var records = map[domain.Intent]struct{ name, missing string }{
	domain.IntentDelivery:      {"a delivery", "a delivery without an order reference and a word that it arrived"},
	domain.IntentPayment:       {"a payment", "a payment without an amount, a payer and how it was paid"},
	domain.IntentStockReceived: {"goods received", "goods received without a quantity, a product and a word that it arrived"},
}

// recordSignal reports the evidence a record's message must show. It
// calls each check directly: through a function value the message's
// shape would escape to the heap on every routing.
func recordSignal(in domain.Intent, shape []string, n Normalized) bool {
	switch in {
	case domain.IntentDelivery:
		return deliverySignal(shape, n)
	case domain.IntentPayment:
		return paymentSignal(shape)
	case domain.IntentStockReceived:
		return receivedSignal(shape)
	}
	return false
}

func isRecord(in domain.Intent) bool {
	_, ok := records[in]
	return ok
}

// asksIfCancelled reports a question whether, or why, a named order was
// cancelled: "ORD-1042 cancelled?", "ORD-6301 kyun cancel hua?", "why was
// ORD-6417 cancelled", "order 3058 cancel ayyinda?", "Sharma ji wala order
// cancel toh nahi hua na?". It asks after the order; "ORD-1042 cancel
// karo?" asks for it to be done.
func asksIfCancelled(shape []string, n Normalized) bool {
	named := n.Has(EntityOrderRef) || namedOrder(shape) || anyOf(shape, customerWords) && anyOf(shape, orderNouns) ||
		hasOrderRef(shape, n) // "#7731 cancel ho gaya kya?"
	return len(shape) <= 12 && named && anyOf(shape, cancelVerbs) && !requested(shape) &&
		(asked(shape, n.Question) || len(shape) > 1 && askingFirst[shape[0]] && shape[1] == phOrderRef)
}

// orderNouns name an order.
var orderNouns = words("order")

// askingFirst begin an English question about the order after them: "is
// ORD-1042 cancelled". (Hindi's "is" is "this": only before an order's
// reference is it asked.)
var askingFirst = words("is was has did")

// asksIfMet reports goods named with a question whether they can be
// given or are there: "50 carton GC de payenge kya?", "Mehta ko 80 ctn
// TC chahiye, hoga itna?", "can I promise Gupta 60 ctn GC by friday"
// ("can you send …" asks Munshi for an order).
func asksIfMet(shape []string, n Normalized) bool {
	return n.Question && anyOf(shape, askingWords) || asked(shape, n.Question) && anyOf(shape, canWords) ||
		len(shape) > 2 && shape[0] == "can" && weAsk[shape[1]]
}

// weAsk ask whether the business can: "can I", "can we".
var weAsk = words("i we")

// stockCheck reports stock asked to be checked: "stock check karo",
// "check stock".
func stockCheck(shape []string) bool {
	for i, w := range shape {
		if w == "stock" && (i+1 < len(shape) && shape[i+1] == "check" || i > 0 && shape[i-1] == "check") {
			return true
		}
	}
	return false
}

// asksAfterRef reports a question that names an order ("ORD1088
// approved?" asks after the order, where "ok" or "DRAFT-57 ok" answers a
// draft), or a placed order named with no word of approving: a draft or
// a payment waits for a yes, so "ORD-1225 ✅" says the order is done,
// where "approve ORD-1042" is still the owner's word on it.
func asksAfterRef(shape []string, n Normalized) bool {
	if !n.Has(EntityOrderRef) {
		return false
	}
	if asked(shape, n.Question) {
		return true
	}
	if anyOf(shape, approveWords) {
		return false
	}
	for _, e := range n.Entities {
		if e.Kind == EntityOrderRef && strings.HasPrefix(domain.OrderRef(e.ID), "ORD-") {
			return true
		}
	}
	return false
}

// implausible names what a message lacks for an intent that changes state:
// an order names a product or a quantity with a unit; a confirmation or a
// cancellation is a short reply with a word that says so; a delivery, a
// payment or goods received shows its evidence (lifecycle.go).
func implausible(in domain.Intent, n Normalized, shape []string) string {
	switch in {
	case domain.IntentOrder:
		// Without a catalog product, a quantity with a unit must be
		// addressed to someone, say how it is paid or list several
		// items: "ek bottle pani lao" is an errand, not an order.
		counted := countedUnits(shape)
		if !n.Has(EntityProduct) && !(counted >= 2 || counted == 1 && anyOf(shape, orderWords)) {
			return "an order without a product or a quantity with a unit"
		}
		// "50 carton GC de payenge kya?" asks whether an order could be
		// met: a stock question, or at least not an order to write.
		// "HW 5 ya HW 405 konsa raasta tez hai" asks which: an order
		// chooses nothing back.
		if asksIfMet(shape, n) || anyOf(shape, whichWords) {
			return "a question, not an order"
		}
		// "… order kuthe adakli aahe, gadi nighali ka nahi": where an
		// order is, asked, orders nothing.
		if anyOf(shape, whereWords) {
			return "asks where an order is, not an order"
		}
		// "Om Sai Kirana ko 12 dozen broom bhejna hai, stock check karo"
		// asks whether it can be met first.
		if stockCheck(shape) {
			return "a stock check, not an order"
		}
		// "GC 100 carton aaya" and "100 carton GC Rajesh ke yahan pahunch
		// gaye" say goods came in or went out.
		if receivedSignal(shape) || delivered(shape) || anyOf(shape, handedWords) {
			return "goods received or delivered, not an order"
		}
		// "company ko 50 carton phenyl ka order bhejo" buys from a
		// supplier: no customer's order.
		if sentTo(shape, suppliers) {
			return "an order to a supplier, not a customer's"
		}
		// "order 6068 maalu motham dinchesanu, soap, handwash anni correct
		// ga unnayi": an order named by its number was placed already; a
		// message about it reports or asks, it does not order again.
		if numberedOrder(shape) {
			return "an order named by its number, placed already"
		}
		// "Sharma ji ne 5 carton GC wapas bheja, defective tha": goods a
		// customer sent back. "please remind karaye muje laundry
		// detergent chahiye aaj 4 pm ko" asks to be reminded of an errand.
		if why := vetoed(shape, veto{returnWords, "goods sent back, not an order"},
			veto{reminderWords, "a reminder, not an order"}); why != "" {
			return why
		}
		// "Agarwal ji ko 10 bag surf diye", "company ko 10 carton harpic
		// bheja": goods given or sent, said in the past, with no order
		// named ("order diya" places one).
		if anyOf(shape, givenWords) && !anyOf(shape, orderWordsOnly) {
			return "goods given, not an order"
		}
		// "… ग्लास क्लीनरचे ४ बॉक्स फुटलेले होते, बदलून द्या": goods said
		// to have come broken are the office's to replace, not an order.
		if spoiltSaid(shape) || regionalSpoilt.in(shape) {
			return "goods said spoilt, not an order"
		}
	case domain.IntentDelivery, domain.IntentPayment, domain.IntentStockReceived:
		if asked(shape, n.Question) {
			return "a question, not " + records[in].name
		}
		// An order's number said done is evidence enough for the model's
		// delivery, not for a lower threshold (evidenced).
		if !recordSignal(in, shape, n) && !(in == domain.IntentDelivery && finishedOrder(shape)) {
			return records[in].missing
		}
		// "Sharma 50 bulb 9 watt cash": goods by their size, not money.
		if in == domain.IntentPayment && goodsSized(n) {
			return "goods by their size, not a payment"
		}
	case domain.IntentConfirm:
		if len(shape) > 8 || n.Has(EntityNumber) || !anyOf(shape, confirmWords) {
			return "not a short confirmation"
		}
		if asksAfterRef(shape, n) {
			return "a question about an order, not a confirmation"
		}
		// "ok wait" holds the draft back; "ok thanks" thanks, and
		// whether it also means yes, the person says.
		if why := vetoed(shape, veto{waitWords, "a draft held back, not confirmed"},
			veto{thanksWords, "thanks, not a confirmation"}, veto{wrongWords, "called wrong, not confirmed"}); why != "" {
			return why
		}
	case domain.IntentCancel:
		if len(shape) > 10 || !anyOf(shape, cancelWords) {
			return "not a short cancellation"
		}
		if deniedCancel(shape) {
			return "a cancellation denied"
		}
	case domain.IntentGreeting:
		if len(shape) > 8 {
			return "too long for a greeting"
		}
	}
	return ""
}

// A veto is a word set that, in a message, rules an intent out, and why.
type veto struct {
	words map[string]bool
	why   string
}

// vetoed says why the first veto whose words the shape holds rules the
// intent out, or nothing.
func vetoed(shape []string, vetoes ...veto) string {
	for _, v := range vetoes {
		if anyOf(shape, v.words) {
			return v.why
		}
	}
	return ""
}

var (
	confirmWords = words(`ok yes haan theek confirm approve done sahi chalega pakka proceed bilkul perfect
		correct accept accepted agreed fine final finalise finalize sure ahead bhejo go right good`)
	orderWords = words(`CUSTOMER bhejo dedo send chahiye order keliye for ko cod cash credit upi cheque
		payment neft rtgs udhaar supply dispatch deliver`)
	whichWords   = words("kaun which")
	givenWords   = words("diya bheja")
	approveWords = words("approve")
	// waitWords hold a draft back; thanksWords thank.
	waitWords   = words("wait ruko ruk hold")
	thanksWords = words("thanks thank shukriya")
	// reminderWords ask to be reminded: a phone's job, not Munshi's.
	reminderWords = words("remind reminder")
	returnWords   = words("wapas return returned defective lauta लौटा")
	// canWords ask whether an order can be met: "kya team Rajesh ke liye
	// 500 bag surf bhej sakti hai" is a stock question.
	canWords    = words("sakte possible payenge paoge payega")
	askingWords = words(`kya can could is are do does kitna itna how enough sakte milega hoga jayega available
		stock possible payenge paoge payega`)
	cancelWords = words(`cancel nahi no reject rehne mat chhodo drop nope discard abort hatao radd na
		dont stop band galat wrong`)
)

// countedUnits counts quantities with a unit: "5 carton", "carton 5".
func countedUnits(shape []string) int {
	n := 0
	for i := 1; i < len(shape); i++ {
		if (shape[i] == phUnit && shape[i-1] == phNumber) || (shape[i] == phNumber && shape[i-1] == phUnit) {
			n++
			i++
		}
	}
	return n
}
