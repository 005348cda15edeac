package intent

import "unicode"

// The books after an order: deliveries, payments and goods received change
// them, so a message is read as one only when it shows the evidence a
// person recording it would give. Anything less abstains to a lower tier
// (and, for the model and the LLM, to unknown): a question back costs far
// less than a payment recorded from "salary aayi".
//
//   - delivery: an order reference and a word that it arrived
//     ("ORD-1042 delivered", "1042 deliver ho gaya");
//   - payment: an amount, who paid or that it was received, and how
//     ("Mehta ne 50,000 diya cheque 123456", "Sharma ji 25k UPI");
//   - stock_received: a quantity of a product (or of maal, stock) and a
//     word that it arrived or was made ("GC 100 carton aaya",
//     "production se 20 carton phenyl ready").
//
// None of them is ever a question: "ORD-1042 deliver hua kya?" asks for an
// order's status, "Mehta ne payment diya?" for a customer's dues.

// Word lists the rules also allow (rules.go), as text.
const (
	doneList     = "gaya hua diya kardiya done complete completed successful successfully over ho gayu gayo gelo gia didhu didho geche jhala dilam ditta diyechi aaytu आयितु hela dn chesanu panniachu ayipoyindi अयिपोयिंदि चेय्तु होइगला maadidini zala ge aachu आच्चु"
	receivedList = "received mila jama collected collect credited aaya uthaya ghetle milale got"
	payerList    = "diya paid pay bheja transfer transferred handed ditta ditte gave thamaye dila"
	modeList     = "cash cheque neft rtgs imps upi gpay phonepe paytm online dd draft bhugtan transfer utr"
	arrivalList  = "aaya aale aala aavi aavyo elo asigala arrived received ready pahuncha mila unloaded inward utra utaar grn bana bane bani banke manufactured produced packed packing jama completed receipt consignment"
	goodsList    = "PRODUCT maal stock goods"
)

var (
	// deliveredWords say an order arrived by themselves; deliveryStems
	// need a word that the delivery happened ("deliver ho gaya",
	// "delivery done").
	deliveredWords = words("delivered")
	deliveryStems  = words("deliver delivery pahunch pahuncha handover handed pohchadi pohchi pohochi pahonchi pouche pahochi")
	doneWords      = words(doneList)
	finishedWords  = words("done complete completed successful successfully")
	// partWords before a delivery say part of it went: "half deliver hua".
	partWords = words("half partial")

	// imperatives after a verb make it a request, not a record:
	// "pahuncha dena", "ready karo".
	imperatives = words("dena dedo de karo do denge kardo rakho rakhna karna hoga hona chahiye")

	// receivedWords say money or goods came in; payerWords that a customer
	// paid; modeWords how.
	receivedWords = words(receivedList)
	payerWords    = words(payerList)
	modeWords     = words(modeList)

	// dueWords make a message about money a question of dues, whatever
	// else it says: "Mehta ka 50,000 baaki hai".
	dueWords = words("baaki outstanding udhaar due dues pending balance overdue owes owe remaining")

	// arrivalWords say goods came in or were made; goodsWords name goods
	// without naming a product.
	arrivalWords = words(arrivalList)
	goodsWords   = words(goodsList)

	// questionWords make a message a question even without a question mark.
	// Telugu's "eppudu" and Tamil's "eppo" ask when as "kab" does.
	questionWords = words("kya kab kahan where when what which whats how kaise kitna kaun kiska whether why kyun eppudu eppo")
)

// asked reports a question: a question mark, a question word, a message
// ending "… ki nahi" / "… ya nahi" / "… or not" (whether or not), "kaha tak" (how
// far), one thing or another ("rastey me hai ya pahunch gaya"), or
// English's asking whether ("kindly confirm if … reached").
func asked(shape []string, question bool) bool {
	if question || anyOf(shape, questionWords) {
		return true
	}
	k := len(shape)
	if k >= 2 && (shape[k-1] == "nahi" && (shape[k-2] == "ki" || shape[k-2] == "ya") || shape[k-1] == "not" && shape[k-2] == "or") ||
		k >= 3 && englishAsks[shape[0]] {
		return true
	}
	for i := 1; i < k; i++ {
		switch {
		case shape[i] == "tak" && shape[i-1] == "kaha",
			shape[i] == "ya" && shape[i-1] == "hai" && i+1 < k && !isPlaceholder(shape[i+1]),
			shape[i] == "if" && askWhether[shape[i-1]]:
			return true
		}
	}
	return false
}

// askWhether ask whether before "if": "confirm if", "check if".
var askWhether = words("confirm check know")

// Asks reports a message that asks: a question mark, a word that asks
// ("kitna", "kya", "how"), or one that ends "… ki nahi".
func (n Normalized) Asks() bool {
	var buf [48]string
	return asked(shapeOf(n, buf[:0]), n.Question)
}

// englishAsks begin an English question: "has 2290 been delivered yet",
// "did Sharma ji get their goods". ("is" is Hindi's "this" too.)
var englishAsks = words("has did")

// notAnOrder are words that make a message naming a customer and a
// product something else than an order for it: a question of stock,
// dues, price or sales.
var notAnOrder = words(`stock available kitna price rate sales bika bikri report chart excel outstanding baaki
	due dues payment wapas return damaged`)

// ordersByName is an order that names its customer and products and no
// quantity yet ("sharma hardware ko phenyl 5L, udhaar", "city hospital
// needs brooms"): the order reader asks how many. A word of the books
// beyond it makes it a question, and a record is read before this.
func ordersByName(shape []string, n Normalized) bool {
	if len(shape) > 12 || !n.Has(EntityProduct) || !n.Has(EntityCustomer) || asked(shape, n.Question) || denied(shape) {
		return false
	}
	for _, w := range shape {
		if w == phNumber || w == phOrderRef || notAnOrder[w] {
			return false
		}
	}
	return !deliverySignal(shape, n) && !receivedSignal(shape)
}

// statusWords ask where an order is or when it comes, or whether it
// left ("nikla kya", "has it left the godown?").
var statusWords = words("status kahan where track kab when pahuncha pahunch pahunchega aayega milega nikla left scene haal dispatch dispatched reached update eta out way gaadi")

// deliveredAsked ask whether an order was delivered: "Please let me know
// if 1377 has been delivered to Hotel Shivam" (beside a bill, a number is
// its figure: "bill me delivery charge 500 kyun").
var deliveredAsked = words("deliver delivered")

// reachedWords say goods reached, which money does not: "gupta bros ka
// 3317 pahuncha kya" asks after an order, where "Mehta ji ka 40000 kab
// aayega" waits for money.
var reachedWords = words("pahuncha deliver delivered dispatch dispatched")

// wentWords ask whether an order went or came, when the order is named
// as one ("2209 gaya?", "maa order 2453 deliver ayyinda?", "5906 ka maal
// utar gaya kya"): a bare number beside them may be money ("ye 2000 ki
// katauti kyon ki gayi").
var wentWords = words("gaya deliver delivered chadha utaar")

// howLong ask how long an order named as one still takes: "ORD 4872
// kitna time aur lagega" (a bare number may be a distance or a street's).
var howLong = words("lagega")

// statusAsks ask for an order's status without a question: "present
// status of order no. 5203", "ord 5202 ka scene".
var statusAsks = words("status scene haal update")

// asksAfterOrder is a question about one order named by its number in any
// form ("1042 abhi kidhar hai", "order 1042 kab aayega"), with no word of
// dues or payment. A credit note's figure is no order: "credit note ka
// 2,300 adjust nahi hua abhi tak, kab karoge" disputes the bill, and so
// does a charge's ("since when do you add handling charges 350").
func asksAfterOrder(shape []string, n Normalized) bool {
	return len(shape) <= 12 && (asked(shape, n.Question) || anyOf(shape, statusAsks)) && hasOrderRef(shape, n) &&
		(anyOf(shape, statusWords) || anyOf(shape, deliveredAsked) && !anyOf(shape, documentWords) ||
			anyOf(shape, howLong) && numberedOrder(shape) ||
			anyOf(shape, wentWords) && (numberedOrder(shape) || shape[0] == phNumber || followedBy(shape, numberPlaceholder, wentWords))) &&
		!anyOf(shape, dueWords) && !anyOf(shape, paymentWords) && !anyOf(shape, cancelVerbs) &&
		(!customersAmount(shape) || anyOf(shape, reachedWords)) &&
		!anyOf(shape, reminderWords) && !followedBy(shape, creditWords, noteWords) && !anyOf(shape, chargeWords) && !figureFromWhere(shape)
}

// figureFromWhere reports a figure asked where it came from: "ये 35000
// कहाँ से आया?", "ye 8,450 ka difference kahan se aaya?". The books'
// figure is disputed; no order is named by it.
func figureFromWhere(shape []string) bool {
	return len(shape) <= 10 && followedBy(shape, thisWords, numberPlaceholder) && followedBy(shape, whereFrom, fromWords) &&
		anyOf(shape, cameInWords) && !anyOf(shape, namedThings)
}

// whereFrom asks from where, with fromWords: "kahan se".
var whereFrom = words("kahan")

// customersAmount is a customer's bare number with nothing that makes it
// an order: "Mehta ji ka 40000 kab aayega" waits for money, not goods.
func customersAmount(shape []string) bool {
	if len(shape) > 0 && shape[0] == phNumber {
		return false // "#6343 aaj Gupta Supermart pahunch payega?": a number first is the order's
	}
	return anyOf(shape, customerWords) && !anyOf(shape, orderRefWords) && !anyOf(shape, orderWordsOnly) && !orderWala(shape)
}

var (
	negations     = words("nahi not no na never nathi")
	orderRefWords = words("ORDERREF")
	gotWords      = words("mila received")
	moneyWords    = words("NUM rupees payment paise amount")
	// refWords say the number after them is a reference: "order no 42".
	refWords = words("no number num नं नंबर")
)

// denied reports a word that something did not happen; "no" before a
// number or an order's reference is "number", and "no damage" says what
// happened.
func denied(shape []string) bool {
	for i, w := range shape {
		if negations[w] && !(w == "no" && i+1 < len(shape) && (shape[i+1] == phNumber || shape[i+1] == phOrderRef)) &&
			!denyingDamage(shape, i) && !absentAt(shape, i) && !gujaratiOf(shape, i) {
			return true
		}
	}
	return false
}

// asksIfPaid reports a question whether a named customer paid, where the
// model is unsure: "kya Gupta Brothers ne RTGS bheja?", "sharma ji wala
// cheque mila ki nahi?", "Rajesh has paid the 35k or not?". Their account
// answers it. Goods or an order named make it another question, and
// how much a customer paid ("Mehta ne is saal kitna payment kiya") asks
// for the collections.
func asksIfPaid(shape []string, n Normalized) bool {
	return len(shape) <= 14 && asked(shape, n.Question) && anyOf(shape, customerWords) &&
		(anyOf(shape, modeWords) || anyOf(shape, payerWords)) && !anyOf(shape, handedGoods) && !anyOf(shape, orderRefWords) &&
		!anyOf(shape, howMuch)
}

// howMuch ask for an amount.
var howMuch = words("kitna much")

// gujaratiOf reports "no" at i as Gujarati's "of", between a customer
// or an order's number and the goods or the order: "Sharma ji no maal
// pahochadi didho", "1100 no maal … aapi didho".
func gujaratiOf(shape []string, i int) bool {
	return shape[i] == "no" && i > 0 && (shape[i-1] == phCustomer || shape[i-1] == phNumber || shape[i-1] == phOrderRef) &&
		i+1 < len(shape) && handedGoods[shape[i+1]]
}

// absentAt reports the denial at i said of who or what was not there,
// not of the goods: "manager nahi tha", "seth ji nahi the", "parking
// nahi mili to haath gaadi se le gaye". The word before it names none of
// the goods, the order or the customer, and a word of being follows.
//
// So is a denial of another deed than the handing over ("gaadi me check
// kiya nahi tha"), and English's "manager was not there".
func absentAt(shape []string, i int) bool {
	if i == 0 {
		return false
	}
	// "gaadi mein tha hi nahi": it was not there at all; "reh gaya tha
	// na" asks to be agreed with.
	if i > 2 && shape[i-1] == "hi" && beingWords[shape[i-2]] && notTheGoods(shape[i-3]) || shape[i] == "na" && beingWords[shape[i-1]] {
		return true
	}
	if i+1 >= len(shape) {
		return false
	}
	if thereWords[shape[i+1]] {
		return true
	}
	if !beingWords[shape[i+1]] {
		return false
	}
	before, b := shape[i-1], i-1
	if before == "hi" && i > 1 {
		// "order diya hi nahi tha": the giving itself denied.
		before, b = shape[i-2], i-2
	}
	if completions[before] && b > 0 && otherDeeds[shape[b-1]] {
		return true
	}
	return notTheGoods(before)
}

// notTheGoods reports a word that names none of the goods, the order or
// the customer, nor their handing over.
func notTheGoods(w string) bool {
	return !handedGoods[w] && !recipients[w] && !isPlaceholder(w) && !deliveredWords[w] && !handVerbs[w] && !deliveryStems[w] &&
		!completions[w]
}

var (
	// beingWords say someone or something was, or was found, there.
	beingWords = words("tha thi the mila mili")
	// thereWords say who was not there: "manager was not there".
	thereWords = words("there")
	// otherDeeds are done beside a delivery, and denied without denying
	// it: "check kiya nahi tha".
	otherDeeds = words("check")
)

// hasOrderRef reports "ORD-1042", or a number that counts nothing and is
// said to be an order's or long enough to be one: "order 42 delivered",
// "1042 deliver ho gaya" (a delivery of 5 is a quantity, not an order).
func hasOrderRef(shape []string, n Normalized) bool {
	k := 0 // the entity of the next placeholder
	for i, w := range shape {
		if !isPlaceholder(w) {
			continue
		}
		k++
		switch {
		case w == phOrderRef:
			return true
		case w != phNumber || quantityAt(shape, i) || k > len(n.Entities) || ofDocument(shape, i):
		case i > 0 && orderWord(shape[i-1]), i > 1 && refWords[shape[i-1]] && orderWord(shape[i-2]):
			return true
		case longNumber(n.Entities[k-1].ID) && typedAsDigits(n, n.Entities[k-1]):
			return true
		}
	}
	return false
}

// typedAsDigits reports a number typed as its digits alone, in any
// script's digits ("1042", "१०४२"), as an order's number is: "20 hajar",
// "10k" and "1,200" are amounts.
func typedAsDigits(n Normalized, e Entity) bool {
	if e.End != e.Start+1 || e.Start >= len(n.Tokens) {
		return false
	}
	typed := n.Tokens[e.Start].End - n.Tokens[e.Start].Start
	return typed == len(e.ID) || typed == 3*len(e.ID) // an Indian script's digits are three bytes each
}

// bareReport reports "deliver" written as a tick against orders, in the
// road's shorthand: right after an order's number (or "dono", "sab"),
// ending the message or its clause before the next number, with no
// day it is planned for.
func bareReport(shape []string, i int) bool {
	if shape[i] != "deliver" || i == 0 || i+1 < len(shape) && shape[i+1] != phNumber || anyOf(shape, notYet) {
		return false
	}
	before := shape[i-1]
	return before == phNumber || before == phOrderRef || allOfThem[before]
}

// allOfThem count every order named before: "dono", "teeno", "sab".
var allOfThem = words("dono teeno sab")

// longNumber reports a number of three digits or more, as long as an
// order's own: "1042", never "5".
func longNumber(id string) bool { return len(id) >= 3 && digitsOnly(id) }

func orderWord(w string) bool { return w == "order" || w == "orders" || w == "ord" }

// delivered reports a word that an order arrived.
func delivered(shape []string) bool {
	for i, w := range shape {
		if deliveredWords[w] {
			return true
		}
		if !deliveryStems[w] {
			continue
		}
		if w == "pahuncha" && (i+1 == len(shape) || !imperatives[shape[i+1]]) {
			return true
		}
		// "ORD-1042 done delivery": before the stem, a word that it
		// finished, with nothing after that could make it a plan; "ho
		// gaya deliver" likewise.
		if i > 0 && (finishedWords[shape[i-1]] || partWords[shape[i-1]]) && !imperativeAfter(shape, i) {
			return true // "Completed delivery of ORD-7029 to Rajesh Kirana", "7782 half deliver"
		}
		if havingDone(shape, i) {
			return true // "hospital wala 2990 deliver kar ke aa raha hu"
		}
		if bareReport(shape, i) {
			return true // "१०९५ डिलीवर", "1871 n 1874 dono deliver", "सर 2388 डिलीवर, 2 कार्टन फिनाइल टूटा"
		}
		if i+1 < len(shape) && shape[i+1] == "poora" && !imperativeAfter(shape, i+1) {
			return true // "१३०८ नंबर ऑर्डर की डिलीवरी पूरी"
		}
		if i > 1 && shape[i-2] == "ho" && doneWords[shape[i-1]] && (i+1 == len(shape) || !imperatives[shape[i+1]]) {
			return true
		}
		for j := i + 1; j < len(shape) && j <= i+3; j++ {
			if imperatives[shape[j]] {
				break
			}
			if doneWords[shape[j]] && shape[j] != "ho" {
				return true
			}
		}
	}
	return false
}

// quantityAt reports a number that counts something: next to a unit or a
// product.
func quantityAt(shape []string, i int) bool {
	near := func(j int) bool {
		return j >= 0 && j < len(shape) && (shape[j] == phUnit || shape[j] == phProduct || shape[j] == phSize)
	}
	return near(i-1) || near(i+1)
}

// amount reports a number that counts no goods.
func amount(shape []string) bool { return amountBut(shape, false) }

// amountBut reports a number that counts no goods and is no day of a
// month, nor, with orders, the number of the order paid for.
func amountBut(shape []string, orders bool) bool {
	for i, w := range shape {
		if w == phNumber && !quantityAt(shape, i) && !(i+1 < len(shape) && dateWords[shape[i+1]]) && !(orders && orderNumbered(shape, i)) {
			return true
		}
	}
	return false
}

// dateWords make the number before them a day of the month: "1 तारीख
// से", "5 tareekh ka", "15 june se 20 june tak".
var dateWords = words("tareekh january february march april june july august september october november december")

// notDelivered says why a message the model reads as a delivery surely
// is none, or nothing: a delivery still to come or asked for ("Balaji
// Stores ko kal deliver karenge", "ORD-3431 deliver karna hai kal"), with
// no goods named that could make it an order.
func notDelivered(shape []string) string {
	if anyOf(shape, goodsNamed) {
		return ""
	}
	if anyOf(shape, willPayWords) && !(paymentPromised(shape) && delivered(shape)) || anyOf(shape, plannedWords) || requested(shape) {
		return "a delivery still to come"
	}
	return ""
}

// requested reports a word that asks for something to be done: "pahuncha
// dena", "deliver karna hai"; not "de" of "de diya" or "de gaya", which
// did it.
func requested(shape []string) bool {
	return imperativeBut(shape, func(next string) bool { return completions[next] || next == "gaya" })
}

var (
	goodsNamed   = words("PRODUCT UNIT")
	plannedWords = words("bhejenge plan")
)

// imperativeBut reports a word that asks for something to be done, but
// not "de" when the word after it says it was done.
func imperativeBut(shape []string, doneAfterDe func(next string) bool) bool {
	for i, w := range shape {
		if imperatives[w] && !(w == "de" && i+1 < len(shape) && doneAfterDe(shape[i+1])) {
			return true
		}
	}
	return false
}

// family are the people of one's own house, never a payer of the books:
// "papa ne 1000 diye", "didi ne 1500 gpay kiye".
var family = words("papa mummy mammi didi chacha bhabhi beta wife biwi dost")

// maxStrangerWords bounds the words of an unknown payer's name.
const maxStrangerWords = 4

// strangerWord is a word that may be part of a name nobody listed: not a
// placeholder nor a word the spelling table knows, letters only (and a
// script's vowel signs); or an
// honorific after one.
func strangerWord(w string) bool {
	if honorifics[w] || w == "wala" {
		return true
	}
	if isPlaceholder(w) || w == "" || family[w] {
		return false
	}
	if _, ok := canonicalWords[w]; ok {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) && !unicode.IsMark(r) {
			return false
		}
	}
	return true
}

var (
	goodsOnly = words("PRODUCT UNIT SIZE maal stock goods")
	// orderWordsOnly: "Sharma ji ne 20000 ka order diya" placed an order;
	// money paid ahead of one is an advance ("10k advance diya next order
	// ke liye, gpay pe").
	orderWordsOnly = words("order orders ord")
	advanceWords   = words("advance")
	customerWords  = words("CUSTOMER")
	paymentWords   = words("payment paise rupees amount")
)

// record is a change to the books a rule may need or refuse. (A kind, not
// a function: a message's shape must not escape to the heap through an
// indirect call.)
type record uint8

const (
	noRecord record = iota
	deliveryRecord
	paymentRecord
	receivedRecord
)

// shownBy reports the record's evidence, and no question.
func (k record) shownBy(shape []string, n Normalized) bool {
	if asked(shape, n.Question) {
		return false
	}
	switch k {
	case deliveryRecord:
		return deliverySignal(shape, n)
	case paymentRecord:
		return paymentSignal(shape) || paidUntold(shape, n)
	case receivedRecord:
		return receivedSignal(shape)
	}
	return false
}

// imperativeAfter reports a word of a request after position i.
func imperativeAfter(shape []string, i int) bool {
	return anyOf(shape[i+1:], imperatives)
}

// havingDone reports the word at i done before the writer left: "deliver
// kar ke aa raha hu", "maal utaar ke aa raha hu" ("deliver karke aana"
// asks for it).
func havingDone(shape []string, i int) bool {
	j := i + 1
	if j < len(shape) && shape[j] == "kar" {
		j++
	}
	if j+1 >= len(shape) || shape[j] != "ke" && shape[j] != "karke" {
		return false
	}
	next := shape[j+1]
	return cameAway[next] || next == "aa" && j+2 < len(shape) && (shape[j+2] == "raha" || shape[j+2] == "gaya")
}

// cameAway say the writer left after doing it: "… kar ke nikla".
var cameAway = words("aaya nikla gaya")

// documentWords name papers other than an order, whose numbers are theirs:
// "bill no 556", "invoice 2231", "challan 8841", "GRN 0456".
var documentWords = words("bill invoice challan grn")

// ofDocument reports a number that is a document's: just after its word,
// or after its word and "no".
func ofDocument(shape []string, i int) bool {
	return i > 0 && documentWords[shape[i-1]] || i > 1 && refWords[shape[i-1]] && documentWords[shape[i-2]]
}

// nextWords put the rest off: "baaki agle hafte denge", "baaki next
// visit", "बाकी शनिवार को".
var nextWords = words("agle next baad kal monday friday sunday सोमवार बुधवार शनिवार")

// saidNow reports a word of said that is not put off by a word of later
// within the two after it: "10,000 diye, baaki agle hafte" records a
// payment and says more will come, while "baaki kitna hai" asks about
// dues.
func saidNow(shape []string, said, later map[string]bool) bool {
	for i, w := range shape {
		if !said[w] {
			continue
		}
		if i+1 < len(shape) && later[shape[i+1]] || i+2 < len(shape) && later[shape[i+2]] {
			continue
		}
		return true
	}
	return false
}
