package intent

// Cancelling a placed order named by its number, with its reason: the
// words that cancel, those that turn the verb around, and those that
// make a message one about a cancellation rather than one.

// cancelVerbs cancel an order by its number; with one, the rest of the
// message is the reason ("cancel ORD-1042 — customer refused"), which no
// word list could hold. It still only shows a summary: an owner's "ok"
// cancels.
var cancelVerbs = words("cancel cancelled canceled radd reject")

// cancelNegations turn the verb around: "cancel mat karo", "don't
// cancel", "cancel nahi karna".
var cancelNegations = words("mat dont not never")

// cancelsNamedOrder: one order named by its number, a cancel verb, no
// negation, and no question.
func cancelsNamedOrder(shape []string, n Normalized) bool {
	if asked(shape, n.Question) || len(shape) > 24 {
		return false
	}
	refs, verb := 0, -1
	for i, w := range shape {
		switch {
		case w == phOrderRef, w == phNumber && i > 0 && orderWord(shape[i-1]) && !quantityAt(shape, i):
			refs++ // "ORD-1042", "order 6361"
		case cancelVerbs[w] && verb < 0:
			verb = i
		case cancelNegations[w]:
			return false
		case w == "nahi" && verb >= 0 && i > verb && i <= verb+2:
			return false // "cancel nahi karna"
		case aboutACancellation[w] && !(askedBefore[w] && verb >= 0):
			// "was", "did" and "has" ask only before the verb: "cancel
			// order 6361, customer has closed the shop" gives a reason.
			return false
		case cancelHappened[w] && (verb < 0 || i <= verb+3):
			return false // "ORD-1042 cancel ho gaya"
		}
	}
	return refs == 1 && verb >= 0
}

// aboutACancellation are the words, beyond asked's question words, of a
// message about a cancellation rather than one: "why was ORD-1042
// cancelled", "ORD-1042 cancel hua", "kisne cancel kiya".
var aboutACancellation = words("kyun kyu why was did has kisne who status")

// askedBefore are the words of aboutACancellation that ask only before
// the cancel verb.
var askedBefore = words("was did has")

// cancelHappened say a cancellation took place when they come before the
// verb or just after it ("ORD-1042 cancel hua"); further on they belong
// to the reason ("reject ORD-1042, credit limit cross ho gayi").
var cancelHappened = words("hua huwa gaya")
