package orders

import (
	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// payment reads the payment mode from the words outside the products' and
// customers' names; two modes are asked about.
func payment(r *reading, out *Parsed) {
	found := map[domain.PaymentMode]bool{}
	toks := r.toks
	named := func(i int) bool { // inside a product's or customer's name
		k := r.kind(i)
		return k == intent.EntityProduct || k == intent.EntityCustomer
	}
	for i, t := range toks {
		if named(i) || r.turnDown && (negations[r.word(i+1)] && !refusesNext(r, i+1) || refusals[r.word(i-1)]) {
			continue // "cheque nahi, RTGS karenge", "not cash, gpay": not that mode
		}
		if m, ok := paymentWords[t.Text]; ok && !weakPaymentWords[t.Text] {
			found[m] = true
		}
		if i+1 < len(toks) && !named(i+1) {
			if m, ok := paymentPhrases[[2]string{t.Text, toks[i+1].Text}]; ok {
				found[m] = true
			}
		}
		if weakPaymentWords[t.Text] && (r.word(i-1) == "payment" || r.word(i+1) == "payment" || r.word(i+1) == "se" ||
			r.word(i-1) == "by" || r.word(i-1) == "via" || willGive[r.word(i+1)]) {
			found[paymentWords[t.Text]] = true
		}
	}
	switch len(found) {
	case 0:
	case 1:
		for m := range found {
			out.Payment = m
		}
	default:
		var names []string
		for _, m := range domain.PaymentModes {
			if found[m] {
				names = append(names, ModeName(m))
			}
		}
		out.ask(Ask{Slot: SlotPayment, Text: "Which payment mode: " + orList(names) + "?"})
	}
}

// refusals turn down the mode said after them: "not cash, gpay", "नको
// cash, चेक ने देणार" (where "nahi, cash" may answer no with the mode).
var refusals = words(`not nako nakko नको`)

// refusesNext reports the refusal at i turning down the mode just after
// it, not the one before: "cheque, not credit" pays by cheque.
func refusesNext(r *reading, i int) bool {
	_, mode := paymentWords[r.word(i+1)]
	return refusals[r.word(i)] && mode
}

// willGive say a payment will be made, naming a weak word's mode: "check
// denge", Gujarati's "check aapse".
var willGive = words(`denge dega aapse`)
