package intent

import "github.com/munshi/munshi/internal/domain"

// Handing over, said in words the handoff rules do not list: a person of
// the office asked for ("accounts wale se baat karwao", "can someone from
// the office call me"), or a figure of the books disputed ("mera balance
// galat hai", "the total in this bill is wrong"). Only the office can
// settle either, so both hand the conversation over; neither changes the
// books.

var (
	// officePeople are who a person may ask for; contactWords how.
	officePeople = words("owner malik seth office insaan human person someone manager supervisor boss banda agent aadmi accounts staff team")
	contactWords = words("baat talk speak connect phone call contact number escalate milna")
	// anyone asks for someone ("kisi se baat karao"), with "se" (to talk
	// with them) or a word for the writer ("koi mujhe call karega?"):
	// "kisi ko call karo" asks Munshi to call someone else.
	anyone  = words("koi kisi")
	towards = words("se mujhe me")
	// humanWords ask for a person by themselves: "human agent please".
	humanWords = words("human agent insaan")
	// wrongWords say a figure is wrong; figureWords name what Munshi
	// showed.
	wrongWords  = words("galat wrong incorrect mistake twice double")
	figureWords = words(`price rate total amount bill dues gst hisab hisaab calculation quantity balance baaki
		stock figure entry charged`)
	// A negation beside a word of right makes it one of wrong: "sahi
	// nahi", "not correct", "match nahi kar raha".
	rightWords = words("sahi correct theek right match")
)

// asksForPerson reports a person of the office asked for, to speak with
// or to call back: not about family, a customer, goods or a number to
// dial.
func asksForPerson(shape []string) bool {
	if len(shape) > 14 || anyOf(shape, family) || anyOf(shape, goodsOnly) || anyOf(shape, customerWords) ||
		anyOf(shape, numberPlaceholder) {
		return false
	}
	if len(shape) <= 4 && anyOf(shape, humanWords) {
		return true
	}
	if !anyOf(shape, contactWords) {
		return false
	}
	return anyOf(shape, officePeople) || anyOf(shape, anyone) && anyOf(shape, towards)
}

// disputesFigure reports a figure of the books said to be wrong, with no
// record or cancellation in the message: "ye dues galat dikha rahe ho",
// "stock figure sahi nahi hai" ("reject D-52, rate galat hai" and "mat
// bhejo, rate wrong hai" give the reason to stop an order).
func disputesFigure(shape []string, n Normalized) bool {
	if len(shape) > 14 || !anyOf(shape, figureWords) || !saysWrong(shape) || anyOf(shape, cancelVerbs) || anyOf(shape, stopWords) {
		return false
	}
	return !deliverySignal(shape, n) && !paymentSignal(shape) && !receivedSignal(shape)
}

// saysWrong reports a word of wrong, or of right denied.
func saysWrong(shape []string) bool {
	for i, w := range shape {
		switch {
		case wrongWords[w]:
			return true
		case rightWords[w] && (i+1 < len(shape) && negations[shape[i+1]] || i > 0 && negations[shape[i-1]]):
			return true
		}
	}
	return false
}

var (
	numberPlaceholder = words("NUM")
	stopWords         = words("mat stop")
)

// handsOff is a handoff said in other words, as a rule, and why.
func handsOff(shape []string, n Normalized) (domain.Intent, string, bool) {
	switch {
	case disputesFigure(shape, n):
		return domain.IntentHandoff, handoffDisputed + ": a figure said to be wrong", true
	case asksForPerson(shape):
		return domain.IntentHandoff, handoffAsked + ": in other words", true
	}
	return domain.IntentUnknown, "", false
}
