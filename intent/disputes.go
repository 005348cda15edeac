package intent

// Disputes of what the books or a paper show, in the words people use:
// a figure denied or set against the writer's own reckoning, an order or
// a bill not theirs, money paid and not shown, goods that came after a
// cancellation or never came. Only the office can settle them.

// shownDenied reports a figure Munshi shows denied: "the amount you are
// showing is not what I owe".
func shownDenied(shape []string) bool {
	return anyOf(shape, shownWords) && anyOf(shape, figureWords) && anyOf(shape, negations) && anyOf(shape, owedWords)
}

// byMyReckoning reports a figure set against the writer's own account of
// it: "bill me jo total hai wo mere hisaab se zyada hai".
func byMyReckoning(shape []string) bool {
	for i := 0; i+2 < len(shape); i++ {
		if myWords[shape[i]] && shape[i+1] == "hisaab" && shape[i+2] == "se" {
			return anyOf(shape[:i], figureWords)
		}
	}
	return false
}

// cancelledStillCame reports goods that came, or were sent, after the
// writer cancelled: "maine order cancel kiya tha phir bhi maal aa gaya",
// "ऑर्डर कैंसल करवाया था फिर भी माल भेज दिया".
func cancelledStillCame(shape []string) bool {
	return anyOf(shape, cancelVerbs) && anyOf(shape, beforeWords) && stillSaid(shape) &&
		(anyOf(shape, arrivalWords) || anyOf(shape, deliveredWords) || anyOf(shape, sentGoods))
}

// notMine reports a paper or a figure of the books said not to be the
// writer's: "ye bill mera nahi hai", "ye outstanding mera nahi hai".
func notMine(shape []string) bool {
	if !anyOf(shape, figureWords) && !anyOf(shape, orderWordsOnly) && !anyOf(shape, documentWords) && !anyOf(shape, orderRefWords) {
		return false
	}
	return followedBy(shape, myWords, negations) || notOurPaper(shape)
}

// notOurPaper reports an order or a bill said not the writer's, and
// nothing more: "ये हमारा ऑर्डर नहीं", "ye mera bill nahi hai" ("mera
// order nahi aaya" asks where it is).
func notOurPaper(shape []string) bool {
	for i := 0; i+2 < len(shape); i++ {
		if !myWords[shape[i]] || !orderWordsOnly[shape[i+1]] && !documentWords[shape[i+1]] || !negations[shape[i+2]] {
			continue
		}
		if i+3 == len(shape) || shape[i+3] == "hai" {
			return true
		}
	}
	return false
}

// rupeeWords name money in rupees; unitOnly a count of goods.
var (
	rupeeWords = words("rupees")
	unitOnly   = words("UNIT")
)

// myWords are the writer's own.
var myWords = words("mera meri mere mine humara hamara")

// saidOtherwise reports what the writer said before set against a paper:
// "maine 10 carton bola tha, order me 100 kaise aa gaye?", "rate 95 ka
// bola tha, bill me 110 laga diya", "order galat bana diya, maine kuch
// aur bola tha". ("Sharma ji ne 10 carton bola tha, bhej do" orders.)
func saidOtherwise(shape []string) bool {
	k := -1
	for i := 0; i+1 < len(shape); i++ {
		if saidWords[shape[i]] && beforeWords[shape[i+1]] {
			k = i
			break
		}
	}
	if k > 1 && shape[k-1] == phNumber && anyOf(shape[:k-1], rupeeWords) && !anyOf(shape, unitOnly) {
		return true // "₹92 ka GC? Ravi ne 85 bola tha": a price set against the one said
	}
	if k < 0 || !anyOf(shape, orderWordsOnly) && !anyOf(shape, documentWords) {
		return false
	}
	after := shape[k+2:]
	paper := anyOf(after, orderWordsOnly) || anyOf(after, documentWords)
	return saysWrong(shape) || paper && (anyOf(after, howCome) || anyOf(after, whoDid) ||
		anyOf(shape[:k], numberPlaceholder) && anyOf(after, numberPlaceholder))
}

var (
	// saidWords say what the writer asked for; whoDid asks who changed it.
	saidWords = words("bola kaha said told")
	whoDid    = words("kisne")
)

// notAdjusted reports money paid said not to show in the books:
// "mera payment adjust nahi hua abhi tak", "cheque ki entry nahi hui",
// "my payment is not reflected in the account".
func notAdjusted(shape []string) bool {
	if !anyOf(shape, paymentWords) && !anyOf(shape, modeWords) {
		return false
	}
	for i, w := range shape {
		near := anyOf(shape[max(0, i-2):min(len(shape), i+3)], negations)
		if adjustWords[w] && near {
			return true
		}
		// "25k UPI kiya tha, ledger me dikh nahi raha", "cheque ledger
		// me nahi chadha": shown nowhere, of money paid before or in the
		// books ("payment ka option dikh nahi raha" is an app's).
		if shownIn[w] && near && (anyOf(shape, beforeWords) || anyOf(shape, ledgers) || stillSaid(shape)) && !anyOf(shape, family) {
			return true
		}
	}
	// "We paid your delivery man 4200 cash … it is not in the
	// statement", "khate me nahi hai": missing from the books, the denial
	// up to three words before or two after.
	return (shortlyBefore(shape, negations, ledgers, 3) || shortlyBefore(shape, ledgers, negations, 2)) && !anyOf(shape, family)
}

var (
	// shownIn say money shows in the books; ledgers name them.
	shownIn = words("dikh dikhao show showing chadha appear")
	ledgers = words("ledger khata khate statement hisaab")
)

// adjustWords say money was set against the dues.
var adjustWords = words("adjust adjusted entry reflect reflected updated")

// shownBut reports a figure the books or a paper show, set against what
// the writer says is so: "Glass cleaner is showing 92 but we agreed 85
// per bottle", "invoice me jhadu 2 dozen likha hai, maine 1 dozen liya
// tha", "system says 0 but 10 cartons came in yesterday".
func shownBut(shape []string) bool {
	shown, against := setAgainst(shape, shownWords)
	// "bill me 26 carton likha hai par 25 hi aaye": goods that came short
	// of a supplier's bill are goods received, with a note for the office.
	if shown < 0 || against < 0 || anyOf(shape, documentWords) && receivedSignal(shape) {
		return false
	}
	return anyOf(shape[:against], numberPlaceholder) && anyOf(shape[against:], numberPlaceholder)
}

var (
	shownWords    = words("showing shows says likha dikha dikhaya")
	contrastWords = words("but lekin par maine")
)

var (
	complaintWords = words("complaint shikayat complain badtameezi rude")
	complaintAbout = words("CUSTOMER ORDERREF order delivery maal bill invoice rate salesman staff damaged leak quality owner")
	ownWords       = words("maine humne i we")
	neverWords     = words("never kabhi hi")
	orderedWords   = words("ordered")
	chargedWords   = words("charged billed")
	promisedWords  = words("promised")
)

// paidStillOwed reports money said paid before and dues, a reminder or
// the ledger still showing it owed: "cash diya tha delivery wale ko 12000,
// phir bhi baki kyu dikha rahe ho", "maine kal 25000 UPI kiya tha, abhi
// tak account me nahi dikh raha", "Cheque cleared on the 5th but my ledger
// still shows it unpaid". Only the office can find where the money went.
func paidStillOwed(shape []string) bool {
	if len(shape) > 30 || anyOf(shape, family) {
		return false
	}
	paid := anyOf(shape, payerWords) || anyOf(shape, modeWords) || anyOf(shape, repayWords)
	before := anyOf(shape, beforeWords) || anyOf(shape, clearWords) // "cheque clear ho gaya, phir bhi baaki dikha rahe ho"
	return paid && (before && (stillSaid(shape) && anyOf(shape, owedShown) || owedAskedWhy(shape) || shownThenPaid(shape) ||
		anyOf(shape, whyWords) && anyOf(shape, shownNow) || anyOf(shape, owedWords) && saysWrong(shape)) ||
		anyOf(shape, ownWords) && owedClaimed(shape)) ||
		postedNowhere(shape, paid || anyOf(shape, paymentWords))
}

// shownNow are the books showing it: "ye purana kyu dikha raha" (read
// as "dikhao").
var shownNow = words("dikhao dikh shows showing")

// entryWords post money to the books.
var entryWords = words("entry chadha")

// postedNowhere reports money paid and its entry in the books said
// missing, or asked after: "payment kiya, entry kahan?", "cheque … clear
// ho gaya bank se, aapke hisaab me chadha hi nahi", "advance diya tha
// 10000, wo kaha gaya"), paid saying money was paid or a payment named.
// An entry asked for ("5000 diya, entry kar do") records the payment.
func postedNowhere(shape []string, paid bool) bool {
	if !paid {
		return false
	}
	for i, w := range shape {
		switch {
		case entryWords[w] && (anyOf(shape[i+1:min(len(shape), i+4)], negations) || anyOf(shape[i+1:min(len(shape), i+3)], whereWords)):
			return true
		case (whereWords[w] || w == "kaha") && i+1 < len(shape) && goneWords[shape[i+1]] && anyOf(shape[:i], beforeWords):
			return true
		}
	}
	return false
}

var clearWords = words("clear")

// owedClaimed reports the writer's own figure of what is owed: "so
// balance should be 55,000 only" after what they paid.
func owedClaimed(shape []string) bool {
	for i := 0; i+3 < len(shape); i++ {
		if owedWords[shape[i]] && shape[i+1] == "should" && shape[i+2] == "be" && numberPlaceholder[shape[i+3]] {
			return true
		}
	}
	return false
}

// shownThenPaid reports the books' figure set against a payment: "my
// account shows 45000 due but I paid everything last week".
func shownThenPaid(shape []string) bool {
	if _, against := setAgainst(shape, owedShown); against >= 0 {
		return anyOf(shape[against:], payerWords) || anyOf(shape[against:], repayWords) || anyOf(shape[against:], modeWords)
	}
	return false
}

// setAgainst finds the first word of shown and the first word of
// contrast after it ("but", "lekin", "maine"); -1 for either missing.
func setAgainst(shape []string, shown map[string]bool) (at, against int) {
	at, against = -1, -1
	for i, w := range shape {
		switch {
		case shown[w] && at < 0:
			at = i
		case contrastWords[w] && at >= 0:
			return at, i
		}
	}
	return at, against
}

// owedAskedWhy reports dues with their amount asked how they can be:
// "Gupta Brothers ka outstanding 40000 kaise?? sab clear kiya tha"
// ("baaki kaise bharu" asks how to pay the rest).
func owedAskedWhy(shape []string) bool {
	dues, amount := false, false
	for _, w := range shape {
		switch {
		case owedWords[w]:
			dues = true
		case w == phNumber && dues:
			amount = true
		case howCome[w] && amount:
			return true
		}
	}
	return false
}

var (
	// owedWords name dues; howCome ask how they can be so.
	owedWords = words("outstanding balance dues baaki owe")
	howCome   = words("kaise kyu kyun how why क्यों keno yaake")
)

var (
	// beforeWords put the payment in the past.
	beforeWords = words("tha thi the paid cleared already pehle")
	// stillWords: "phir bhi", "still", "yet", "abhi tak".
	stillWords = words("phir fir still yet")
	// owedShown are what shows it owed: the books' figures, not dues
	// said ("5000 diye the, baaki abhi tak nahi aaya" reports the rest
	// still to come).
	owedShown = words("unpaid reminder ledger account dikh dikha shows showing")
)

// stillSaid reports a word of still: "phir bhi", "still", "abhi tak".
func stillSaid(shape []string) bool {
	for i, w := range shape {
		if stillWords[w] || w == "abhi" && i+1 < len(shape) && shape[i+1] == "tak" {
			return true
		}
	}
	return false
}

// neverCame reports goods said not to have come: "maal aaya hi nahi",
// "never reached", "nahi pahuncha".
func neverCame(shape []string) bool {
	for i, w := range shape {
		if !arrivalWords[w] && !deliveredWords[w] && !handedWords[w] && w != "pahuncha" {
			continue
		}
		if negatedBeside(shape, i) || i+2 < len(shape) && shape[i+1] == "hi" && negations[shape[i+2]] {
			return true
		}
	}
	return false
}

// myDuesAskedWhy reports the writer's own dues, with their amount, asked
// how they can be: "mera balance 120000 kaise ho gaya?? itna to banta hi
// nahi". An owner asking how a customer's dues came to be wants them
// shown, and is not.
func myDuesAskedWhy(shape []string) bool {
	return anyOf(shape, myWords) && owedAskedWhy(shape)
}

// booksDiffer reports the writer's books said not to match the
// business's: "hamara khata aapke system se match nahi kar raha, 8000 ka
// fark hai".
func booksDiffer(shape []string) bool {
	return (anyOf(shape, ledgers) || anyOf(shape, owedWords) || anyOf(shape, documentWords)) && shortlyBefore(shape, matchWords, negations, 2)
}

// creditNoteMissing reports a credit note not received, not set off or
// asked for: "last month maal return kiya tha, credit note abhi tak nahi
// mila", "previous credit note has not been adjusted in this month's
// bill".
func creditNoteMissing(shape []string) bool {
	return followedBy(shape, creditWords, noteWords) && (anyOf(shape, negations) || noteAsked(shape))
}

// noteAsked reports a credit note asked of the office: "office credit
// note bana de", "credit note banao", "issue a credit note" ("Sharma ji
// ko 500 credit note dena hai" is the office's own errand).
func noteAsked(shape []string) bool {
	for i := 0; i+1 < len(shape); i++ {
		if !creditWords[shape[i]] || !noteWords[shape[i+1]] || i > 0 && shape[i-1] == "ko" {
			continue
		}
		if i > 0 && issueVerbs[shape[i-1]] || i+2 < len(shape) && issueVerbs[shape[i+2]] {
			return true
		}
	}
	return false
}

// issueVerbs ask a paper made: "banao", "bana de", "issue".
var issueVerbs = words("banao bana issue")

var (
	matchWords  = words("match")
	creditWords = words("credit")
	noteWords   = words("note")
)

// disagreeWords are all a bare disagreement is made of; soWords say it is
// so, and with a negation beside, that it is not.
var (
	disagreeWords = words("ye yeh this that thats it its is hai bilkul totally galat wrong not nahi sahi right correct sach aisa")
	soWords       = words("sach aisa")
)

// bareDisagreement reports what Munshi said called wrong, and nothing
// more: "ye galat hai", "That's not right.", "ये सही नहीं है", "Aisa
// nahi hai", "bilkul galat". A correction says what is right instead,
// and is read as one.
func bareDisagreement(shape []string) bool {
	if len(shape) > 5 || !allIn(shape, disagreeWords) {
		return false
	}
	for i, w := range shape {
		if wrongWords[w] || (rightWords[w] || soWords[w]) && negatedBeside(shape, i) {
			return true
		}
	}
	return false
}
