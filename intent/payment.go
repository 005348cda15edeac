package intent

// Payments received: money with its payer, how it was paid and that it
// came, and what makes money named no payment (goods beside it, family,
// money paid out, a promise, trouble with it).

// paymentSignal reports an amount, no goods, no word of dues, no family,
// no trouble and no money paid to a customer ("Rajesh ko 5000 ka cheque
// diya": a refund or money out), and either a
// customer with a word that they paid, it was received or how, or, without
// a customer, both a word that it was received (or that someone paid it)
// and how.
func paymentSignal(shape []string) bool {
	if !paidAmount(shape) || goodsBeside(shape) || owedOnly(shape) || placedOrder(shape) && !anyOf(shape, advanceWords) ||
		anyOf(shape, family) || anyOf(shape, othersMoney) || anyOf(shape, paymentTrouble) || sentTo(shape, customerWords) || promised(shape) ||
		anyOf(shape, sendAsked) {
		return false
	}
	for i, w := range shape {
		// "de diya", "de gaye" gave it; "de", "de do" ask for it to be
		// given; "receipt de di" gave the payer a receipt for it.
		if w == "de" && (i+1 == len(shape) || !payerWords[shape[i+1]] && shape[i+1] != "gaya") && !(i > 0 && receiptWords[shape[i-1]]) {
			return false
		}
	}
	received := anyOf(shape, receivedWords) || paidBy(shape) || customerPaid(shape) || takenFrom(shape)
	how := anyOf(shape, modeWords) || chequeSaid(shape)
	if anyOf(shape, customerWords) {
		return received || how || anyOf(shape, payerWords) || anyOf(shape, paymentWords)
	}
	// "payment aaya 10000": money said received as a payment, its payer
	// and how it came to be asked ("ORD-1042 ka payment kal mila, 5000"
	// may be the order's value).
	asPayment := anyOf(shape, paymentWords) && anyOf(shape, arrivalWords) && !anyOf(shape, orderRefWords)
	return (received || strangerPaid(shape)) && (how || asPayment)
}

// othersMoney is money that is no customer's payment: rent, wages, a
// refund, a gift ("I paid my house rent of Rs. 18,000 today").
var othersMoney = words("rent kiraya salary tankhwah shagun bhada refund")

// paidAmount reports a number that counts no goods and does not name the
// order paid for ("4,200 diye order 1187 ke").
func paidAmount(shape []string) bool { return amountBut(shape, true) }

// orderNumbered reports the number at i naming an order: "order 1187",
// "order no 1187", "1318 wala order".
func orderNumbered(shape []string, i int) bool {
	return i > 0 && orderWord(shape[i-1]) || i > 1 && refWords[shape[i-1]] && orderWord(shape[i-2]) ||
		i+2 < len(shape) && shape[i+1] == "wala" && orderWord(shape[i+2])
}

// placedOrder reports an order word that names no order by its number
// nor as the last one: "Sharma ji ne 20000 ka order diya" placed one,
// where "4,200 diye order 1187 ke", "1318 wale order ka pura payment" and
// "pichle order ka poora payment" pay for one.
func placedOrder(shape []string) bool {
	for i, w := range shape {
		if !orderWord(w) {
			continue
		}
		j := i + 1
		if j < len(shape) && refWords[shape[j]] {
			j++
		}
		if !(j < len(shape) && shape[j] == phNumber && !quantityAt(shape, j)) && !(i > 1 && shape[i-1] == "wala" && shape[i-2] == phNumber) &&
			!(i > 0 && lastWords[shape[i-1]]) {
			return true
		}
	}
	return false
}

// lastWords name the order before: "pichle order ka".
var lastWords = words("pichle last previous")

// chequeSaid reports "check" written for a cheque: of an amount ("1.5
// lakh ka check") or given, taken or got ("check de diya", "check
// liya"), where "check kar lo" asks to look.
func chequeSaid(shape []string) bool {
	for i, w := range shape {
		if w != "check" {
			continue
		}
		next, after := "", ""
		if i+1 < len(shape) {
			next = shape[i+1]
		}
		if i+2 < len(shape) {
			after = shape[i+2]
		}
		if i > 1 && ofWords[shape[i-1]] && shape[i-2] == phNumber || chequeHanded[next] ||
			(next == "de" || next == "le") && chequeHanded[after] {
			return true
		}
	}
	return false
}

// chequeHanded say a cheque changed hands.
var chequeHanded = words("diya liya mila")

// takenFrom reports money taken from a customer: "rajes kirana se 5
// hazar liye".
func takenFrom(shape []string) bool {
	for i := 0; i+1 < len(shape); i++ {
		if shape[i] == phCustomer && fromWords[shape[i+1]] {
			return anyOf(shape[i+2:], tookWords)
		}
	}
	return false
}

// tookWords say it was taken.
var tookWords = words("liya liye")

// goodsBeside reports goods named beside money, which make it no
// payment, except a bill named by its goods ("2700 de diye UPI se,
// handwash wala bill") or the goods an advance paid a way of paying is
// for ("advance 25,000 diya NEFT se, maal next week jayega").
func goodsBeside(shape []string) bool {
	forAdvance := anyOf(shape, advanceWords) && anyOf(shape, modeWords)
	for i, w := range shape {
		switch {
		case !goodsOnly[w]:
		case i+2 < len(shape) && shape[i+1] == "wala" && documentWords[shape[i+2]]:
		case forAdvance && !isPlaceholder(w):
		default:
			return true
		}
	}
	return false
}

// willPayWords say money will be paid: "Mehta ne bola 50000 kal NEFT
// karega" is a promise, not a payment, unless some of it came already
// ("das hazaar nakad diye, baaki agle hafte denge").
var willPayWords = words("karega karenge dega denge will")

// notPaidIn says why money a message names is surely no payment received
// (family's, paid out to a customer, still to come), or nothing. The
// model may read such a message as a payment; no reading makes it one,
// so it is answered as not understood without asking the LLM.
func notPaidIn(shape []string) string {
	switch {
	case !amount(shape):
		return ""
	case anyOf(shape, family):
		return "money within the family"
	case sentTo(shape, customerWords) || paidOut(shape):
		return "money paid out"
	case promised(shape):
		return "money still to come"
	}
	return ""
}

// repayWords say dues were paid off: "purana baaki 9,800 clear kiya UPI
// se", "पुराना बकाया ४८०० चुका दिया".
var repayWords = words("chukaya chukaye chuka chukta settle settled clear cleared")

// owedOnly reports dues said now with nothing paid: "Mehta ka 50000 baaki
// hai". Beside money paid ("75,000 NEFT kiye, ab sirf 45 baaki", "udhaar
// 15000 cash se chukaya") the dues are what is left or what was paid off.
func owedOnly(shape []string) bool {
	return saidNow(shape, dueWords, nextWords) &&
		!(anyOf(shape, repayWords) || anyOf(shape, receivedWords) || paidBy(shape) || customerPaid(shape))
}

// paidOut reports money given to someone named before ko ("Verma ji ko
// 3000 cash diye", "Jain Stores ko 12000 neft kar diye"): it went out.
func paidOut(shape []string) bool {
	for i := 1; i < len(shape); i++ {
		if w := shape[i-1]; shape[i] == "ko" && (w == phCustomer || shopEnds[w] || strangerWord(w) && !honorificOnly(shape, i-1)) {
			return anyOf(shape[i+1:], payerWords) || anyOf(shape[i+1:], modeWords)
		}
	}
	return false
}

// honorificOnly reports an honorific with no name before it ("ji ko").
func honorificOnly(shape []string, i int) bool {
	return honorifics[shape[i]] && (i == 0 || !strangerWord(shape[i-1]) && shape[i-1] != phCustomer)
}

// sendAsked asks for money to be sent: "Sharma ji 25k UPI bhejo" is an
// errand, not money received.
var sendAsked = words("bhejo")

// promised reports a payment still to come, and none made.
func promised(shape []string) bool {
	return anyOf(shape, willPayWords) && !anyOf(shape, receivedWords) && !paidBy(shape) && !customerPaid(shape)
}

// paysIn is a payment said in words no rule lists, as a rule: a named
// customer, an amount, how it was paid (or that it was a payment, where
// nothing is owed nor is a call about it) and that it came ("gpay pe 40k
// aaya Gupta Supermart ka, screenshot bhej raha", "collected 8k frm
// ashok provision, part payment"); not asked, not denied and no plan for
// it.
func paysIn(shape []string, n Normalized) bool {
	return len(shape) <= 20 && !asked(shape, n.Question) && !denied(shape) && (anyOf(shape, customerWords) || strangerPaid(shape)) &&
		(anyOf(shape, modeWords) || chequeSaid(shape) || anyOf(shape, paymentWords) && !anyOf(shape, dueWords) && !anyOf(shape, contactWords)) &&
		(anyOf(shape, receivedWords) || paidBy(shape) || customerPaid(shape) || takenFrom(shape)) &&
		!asksFor(shape) && paymentSignal(shape)
}

// paidUntold reports one customer said to have paid, without the amount:
// "Agarwal ne payment kiya", "Rajesh ne payment kar diya", "sharma ji ka
// payment aa gaya", "Mehta ka payment ho gaya". It is a payment whose
// amount is asked before anything is shown. Asked ("… kiya kya?"), it is
// a question of their account; denied, owed, promised, troubled, or
// beside goods or an order, no payment.
func paidUntold(shape []string, n Normalized) bool {
	if len(shape) > 10 || asked(shape, n.Question) || denied(shape) || amount(shape) || goodsBeside(shape) ||
		anyOf(shape, orderRefWords) || anyOf(shape, paymentTrouble) || anyOf(shape, dueWords) || promised(shape) {
		return false
	}
	customers := 0
	for _, w := range shape {
		if w == phCustomer {
			customers++
		}
	}
	if customers != 1 {
		return false
	}
	for i, w := range shape {
		if w != "payment" && w != "paise" {
			continue
		}
		if doneAfter(shape, i, paidDone) || i+2 < len(shape) && shape[i+1] == "ho" && shape[i+2] == "gaya" ||
			doneAfter(shape, i, sentDone) && anyOf(shape, sentBy) {
			return true
		}
	}
	return false
}

// paidDone say a payment was made, after its word: "kiya", "kar diya",
// "de diye", "aa gaya" (aaya), "mil gaya" (mila).
var paidDone = words("kiya diya aaya mila")

// sentDone say money was sent; sentBy that the customer sent it ("Vidya
// ne paise bheje", "Vidya se payment bheja gaya"), not that it went to
// them ("Rajesh ko paise bhejo" is none of Munshi's).
var (
	sentDone = words("bheja")
	sentBy   = words("ne se")
)

// asksFor reports a word that asks for something to be done, other than
// "de" in "de gaye" or "de diya": the payer came and gave it. ("Mehta ko 2000 de
// diya" may be money paid out.)
func asksFor(shape []string) bool {
	return imperativeBut(shape, func(next string) bool { return next == "gaya" || next == "diya" })
}

// customerPaid reports a customer named before a word that they paid:
// "Agarwal Medical paid us 4,300", "Ashok bhai … 15 hazaar nakad de gaye".
func customerPaid(shape []string) bool {
	named := false
	for i, w := range shape {
		switch {
		case w == phCustomer:
			named = true
		case named && payerWords[w], named && w == "de" && i+1 < len(shape) && shape[i+1] == "gaya":
			return true
		}
	}
	return false
}

// paymentTrouble are words of a payment gone wrong or given back: a
// matter for a person, not a record.
var paymentTrouble = words("fail error stuck refund kat wapas bounce missing")

// paidBy reports a payer who gave it: "Krishna ne 2,000 cash diya" says
// as much as "Krishna se 2,000 cash mila", a name before ne and a word
// that they paid after it, whether or not the name is a customer's (that
// is asked afterwards, the same for both).
func paidBy(shape []string) bool {
	for i, w := range shape {
		if w != "ne" || i == 0 {
			continue
		}
		for k, v := range shape[i+1:] {
			if payerWords[v] || modeDone(shape[i+1:], k) {
				return true
			}
		}
	}
	return false
}

// modeDone reports a way of paying done at position i: "gpay kiya", "upi
// kar diya", as good as a verb of paying.
func modeDone(shape []string, i int) bool {
	return i > 0 && (modeWords[shape[i-1]] || shape[i-1] == "payment") && (shape[i] == "kiya" || shape[i] == "kar" && i+1 < len(shape) && shape[i+1] == "diya")
}

// strangerPaid reports a payer the customer list does not know, named
// first and paying next: "Jain Medicos paid 32500 via NEFT", "Verma paid
// twenty thousand in cash". Who it is is asked afterwards, as for any
// name the list lacks.
func strangerPaid(shape []string) bool {
	for i, w := range shape {
		switch {
		case i > 0 && i <= maxStrangerWords && (w == "paid" || w == "gave" || w == "ne" && paidBy(shape)):
			return true
		case !strangerWord(w):
			return false
		}
	}
	return false
}

// receiptWords are what the payer is given for money paid.
var receiptWords = words("receipt")
