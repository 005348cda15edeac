package intent

// Help and cancellations said in words the rules do not list. "naye
// customer ka order kaise punch karu yahan" asks how to use Munshi for
// something of the books; "cancel karo bhai, quantity galat daal di"
// cancels, whatever reason follows. Both are read as rules after the
// word rules, and neither changes the books: help answers with the menu,
// and a cancellation only ever asks for an owner's "ok".

var (
	// howWords ask how something is done.
	// Telugu's ela, Kannada's hege and Odia's kemiti ask how.
	howWords = words(`kaise tarika process procedure step tutorial samjhao samjhana samjavo kevi kasa
		kiddan ela hege kemiti`)
	// howTo are what "how" asks how with: "how to", "how do I", not "how
	// much" or "how many".
	howTo = words("to do does can should i")
	// bookObjects are the things of the books or of Munshi one asks how
	// to handle: "How do I use the Google Pay scanner?" names none.
	bookObjects = words(`order orders stock payment report dues baaki customer product delivery entry bot munshi
		isme yahan godown cancel approve item items collection hisaab goods`)
	// askHere asks what may be asked: "What all can I ask here?".
	askHere = words("ask puch")
)

// asksHowTo reports a question of how to use Munshi for something of the
// books: a word of how and one of the books, or of what may be asked, or
// where its menu's option for the office is; no order in it, and no other
// service.
func asksHowTo(shape []string) bool {
	if len(shape) > 18 || anyOf(shape, otherServices) || countedUnits(shape) > 0 {
		return false
	}
	if anyOf(shape, whatWords) && anyOf(shape, canAsk) && anyOf(shape, askHere) {
		return true
	}
	// Munshi's own ways: "menu me 'talk to agent' ka option kahan hai",
	// "Munshi pe human se connect hone ka tarika kya hai?"; a restaurant's
	// menu, a machine's or an app's is not one.
	ours := anyOf(shape, itself) || anyOf(shape, contactWords) || anyOf(shape, humanWords) || anyOf(shape, officeRoles) ||
		anyOf(shape, bookObjects)
	if anyOf(shape, menuWords) && ours && !anyOf(shape, appWords) && !anyOf(shape, theirs) && (asked(shape, false) || anyOf(shape, howWords)) ||
		anyOf(shape, howWords) && anyOf(shape, itself) {
		return true
	}
	return asksHow(shape) && anyOf(shape, bookObjects)
}

// ownWays reports Munshi's own ways named: its menu, an option, the bot.
func ownWays(shape []string) bool { return anyOf(shape, menuWords) || anyOf(shape, itself) }

// menuWords and itself name Munshi's own ways and Munshi; appWords
// another app's.
var (
	menuWords = words("menu option")
	itself    = words("bot munshi")
	appWords  = words("app whatsapp")
)

// doingWords are what one asks how to do: "dekhne ka tarika", "kaise
// punch karu". "stock kaisa hai" asks how the stock is, not how to see it.
var doingWords = words(`dekhu dekhe dekhna dekhne dekhein karu kare karein karna karni karte hoga hota daalu dalu
	dalna daalna bheju bhejna punch add edit use check likhna chalauna chalana vaparvano vaparaycha chudali haakodu lekhibi`)

// asksHow reports "how" asking how something is done ("how to", "how
// do I"), or a word of how with one of doing.
func asksHow(shape []string) bool {
	for i, w := range shape {
		if i+1 < len(shape) && cameAbout[shape[i+1]] {
			continue // "ye interest kaise laga" asks how it came about
		}
		if howWords[w] && anyOf(shape, doingWords) || w == "how" && i+1 < len(shape) && howTo[shape[i+1]] {
			return true
		}
	}
	return false
}

// cameAbout say, after "kaise", what came about: "kaise laga".
var cameAbout = words("laga lagaya hua")

// orderAnchors tie a cancellation to an order, whatever else it says:
// "Please cancel this, customer changed his mind".
var orderAnchors = words("order orders draft maal party customer quantity rate payment CUSTOMER PRODUCT ORDERREF NUM")

// allOurs reports every word one Munshi reads: a placeholder, a word of a
// rule or of the spelling table. "please saare alarms cancel kardo" and
// "gym membership cancel karna hai" cancel something Munshi does not know.
func allOurs(shape []string) bool {
	for _, w := range shape {
		if isPlaceholder(w) || known[w] {
			continue
		}
		if _, ok := canonicalWords[w]; ok {
			continue
		}
		return false
	}
	return true
}

// deniedCancel reports a word that cancels, denied: "cancel mat karo",
// "dont cancel", "cancel nahi karna".
func deniedCancel(shape []string) bool {
	for i, w := range shape {
		if dropWords[w] && (i > 0 && cancelNegations[shape[i-1]] ||
			i+1 < len(shape) && (cancelNegations[shape[i+1]] || shape[i+1] == "nahi")) {
			return true
		}
	}
	return false
}

var (
	whatWords = words("what kya")
	canAsk    = words("can sakta sakte")
)

var (
	// dropWords cancel by themselves; sendWords are what "mat" (do not)
	// stops: "mat bhejo", "order mat daalo", "dont place it".
	dropWords = words("cancel radd reject scrap nako")
	sendWords = words("bhejo bhejna daalo daal place karna jaana")
	// goodsCounted count goods just before a word.
	goodsCounted = words("NUM PRODUCT UNIT")
	// elsewhere are what people cancel that is not the books': a cab, a
	// ticket, a meeting, a timer.
	elsewhere = words("cab ticket movie meeting appointment booking subscription timer alarm")
)

// cancelsInWords reports a cancellation with its reason: a word that
// cancels, or "mat"/"dont" before a word of sending, not denied ("cancel
// mat karo", "never cancel"), not asked or asking why ("why was ORD-6417
// cancelled"), about no other service, and either tied to an order or
// made only of words Munshi reads.
func cancelsInWords(shape []string, n Normalized) bool {
	if len(shape) > 16 || asked(shape, n.Question) || anyOf(shape, otherServices) || anyOf(shape, elsewhere) ||
		anyOf(shape, aboutACancellation) || formatOf(shape) != FormatText {
		return false // "file cancel karo" cancels no order
	}
	if deniedCancel(shape) || !allOurs(shape) && !anyOf(shape, orderAnchors) {
		return false
	}
	for i, w := range shape {
		switch {
		case dropWords[w] && !(w == "reject" && i > 0 && goodsCounted[shape[i-1]]):
			// "10 mop me se 2 reject kiye": goods a shop refused, not
			// the order.
			return true
		case (w == "mat" || w == "dont") && i+1 < len(shape) && (sendWords[shape[i+1]] || i+2 < len(shape) && sendWords[shape[i+2]]):
			return true
		}
	}
	return false
}

// confirmsLast reports a draft confirmed in the last words, after whatever
// the writer says first: "party ne haan bol diya, confirm karo", "Rajesh
// bhai se baat ho gayi, woh ready hai, confirm", "ya ya its fine, confirm
// it". A quantity, goods, money, a rate or a delivery named makes it
// something else to confirm ("rate confirm karo", "payment confirm
// karo"); a denial, a question, a yes put off or waiting on something
// first is no yes.
func confirmsLast(shape []string, n Normalized) bool {
	k := len(shape) - 1
	if k >= 1 && confirmedHow[shape[k]] {
		k--
	}
	if k < 0 || shape[k] != "confirm" || len(shape) > 14 || asked(shape, n.Question) || anyOf(shape, negations) ||
		anyOf(shape, cancelNegations) || anyOf(shape, notTheDraft) || anyOf(shape, notYet) || anyOf(shape, waitWords) ||
		k > 0 && afterWords[shape[k-1]] {
		return false
	}
	return !n.Has(EntityNumber) && !n.Has(EntityProduct) && !n.Has(EntityUnit) && !n.Has(EntitySize)
}

var (
	// confirmedHow may follow the last "confirm": "confirm karo", "confirm
	// it".
	confirmedHow = words("karo kar it please kijiye karein")
	// notTheDraft are what else a message may ask confirmed.
	notTheDraft = words("payment rate price delivery stock dispatch amount bill")
	// notYet put the yes off ("kal confirm"); afterWords make it wait on
	// something first ("customer se puch ke confirm", "check karke
	// confirm karo").
	notYet     = words("kal baad later tomorrow parso shaam")
	afterWords = words("ke karke phir then")
)
