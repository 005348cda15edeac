package intent

// Deliveries: an order named by its number (or a customer named) and a
// word that the goods went, in the many ways people say it, with the
// guards that keep money, a cancellation or a request from reading as one.

// deliverySignal reports an order reference and a word that it arrived,
// with no word that it did not; or goods handed over to a customer.
func deliverySignal(shape []string, n Normalized) bool {
	var buf [48]string
	shape = withoutDeniedCancel(shape, buf[:0])
	if denied(shape) && !shortOnly(shape) {
		return false
	}
	// "handed over cheque no. 118342 for Rs. 1,10,000": money handed
	// over is a payment; "cancel kar do, order wapas le liya" a
	// cancellation.
	// "payment baad me denge" beside a delivery promises money, it does
	// not record any.
	if (anyOf(shape, modeWords) || chequeSaid(shape) || saidNow(shape, paymentWords, laterWords)) && !paymentPromised(shape) ||
		anyOf(shape, cancelVerbs) {
		return false
	}
	// "hotel shivam wale ne room spray wapas de diya": goods a customer
	// gave back; "6678 wala gaadi me rakh diya kal subah deliver karunga"
	// is still to go; "we are yet to receive our order" has not come.
	if givenBack(shape) || deliverLater(shape) || followedBy(shape, yetWords, toWords) {
		return false
	}
	// "supplier ko order de diya" buys; "truck … se 300 ctn phenyl unload
	// ho gaya" and "30 bag mile hai Jai Ambe traders se" came in.
	if sentTo(shape, suppliers) || receivedSignal(shape) && anyOf(shape, incomingFrom) || fromThem(shape) {
		return false
	}
	// "bhabhi ki delivery city hospital me hui": a family's, not goods;
	// "galat dukaan ka maal humare yaha de gaye", "the handwash you
	// supplied expired": the shop that got them writing, which the road's
	// report never is.
	if familyOwns(shape) || followedBy(shape, ourShop, hereWords) || followedBy(shape, youDid, handedWords) {
		return false
	}
	if !hasOrderRef(shape, n) {
		return handedToCustomer(shape) || arrivedBare(shape)
	}
	if handedOver(shape) || orderArrived(shape) || numberHanded(shape, n) {
		return true
	}
	// "ORD-1042 customer ko mil gaya", "ord 5139 rcvd by cust": received,
	// when the order is named and no money is.
	return delivered(shape) || namedOrder(shape) && anyOf(shape, gotWords) && !moneyBesideOrder(shape)
}

// paymentPromised reports money said still to come, and none said
// received: "4850 delivery done. Payment pending bole kal UPI karenge".
// Only the order's number, or a count, is beside it.
func paymentPromised(shape []string) bool {
	if !(anyOf(shape, paymentWords) || anyOf(shape, modeWords)) || !(anyOf(shape, willPayWords) || anyOf(shape, dueWords)) ||
		anyOf(shape, receivedWords) {
		return false
	}
	return !strayNumber(shape, func(i int) bool { return i == 0 || ordersOwn(shape, i) })
}

// givenBack reports goods a customer gave or sent back, with no word
// that an order was delivered nor an order named: "Agarwal medical se
// handwash ka 1 cartoon return aaya hai" ("ord-6322 Rajesh bhai ne
// receive kiya, wapas aa rahi hai" is the van coming back).
func givenBack(shape []string) bool {
	if !anyOf(shape, returnWords) || !anyOf(shape, goodsNamed) || delivered(shape) || anyOf(shape, deliveryStems) || anyOf(shape, orderRefWords) {
		return false
	}
	for i, w := range shape {
		j := i + 1
		if j < len(shape) && shape[j] == "wala" {
			j++
		}
		if w == phCustomer && j < len(shape) && (placedBy[shape[j]] || fromWords[shape[j]]) {
			return true
		}
	}
	return false
}

var (
	// willDo say it will be done: "deliver karunga", "deliver karenge".
	willDo   = words("karunga karenge karega")
	yetWords = words("yet")
)

// deliverLater reports a delivery said to be done later: "kal subah
// deliver karunga".
func deliverLater(shape []string) bool {
	return followedBy(shape, deliveryStems, willDo)
}

// orderArrived reports an order named by its number said to have come,
// with no money beside it, no supplier's truck and no product named
// ("ORD 8076 me dishwash ki jagah handwash aa gaya" came wrong): "order no
// 4802 aa gaya hai sir", "order 6680 ka maal store mein aa gaya".
func orderArrived(shape []string) bool {
	return numberedOrder(shape) && anyOf(shape, cameInWords) && !moneyBesideOrder(shape) && !anyOf(shape, incomingFrom) &&
		!anyOf(shape, productWords)
}

var productWords = words("PRODUCT")

// ourShop and hereWords are a shop's own place: "humare yaha"; youDid
// the business the shop writes to: "the handwash you supplied".
var (
	ourShop   = words("humare hamare hamara humara")
	hereWords = words("yaha yahan")
	youDid    = words("you aapne tumne")
)

// familyOwns reports a member of the family owning what follows:
// "bhabhi ki delivery", "didi ka parcel".
func familyOwns(shape []string) bool {
	for i, w := range shape[:max(len(shape)-1, 0)] {
		if family[w] && ofWords[shape[i+1]] {
			return true
		}
	}
	return false
}

// withoutDeniedCancel is shape without a cancellation said not to have
// happened or not to be done ("cancel nahi hua", "cancel mat karo"): in
// "ORD-1042 cancel nahi hua, deliver ho gaya" the denial is the cancel's,
// and the delivery stands.
func withoutDeniedCancel(shape, buf []string) []string {
	for i, w := range shape {
		if !cancelVerbs[w] || i+1 >= len(shape) || !negations[shape[i+1]] && shape[i+1] != "mat" {
			continue
		}
		j := i + 2
		if j < len(shape) && cancelAux[shape[j]] {
			j++
		}
		return append(append(buf, shape[:i]...), shape[j:]...)
	}
	return shape
}

// cancelAux complete a cancel denied: "nahi hua", "mat karo".
var cancelAux = words("hua hui karo karna kiya")

// finishedOrder reports an order's number with a word that it was
// finished just after it ("1340 done boss", "1351 complete ho gaya",
// "#1530 done and dusted"), no request, no denial and no money beside
// it. It is evidence enough for the model's reading of a delivery, not
// for a rule: "1500 done" alone may be anything.
func finishedOrder(shape []string) bool {
	if denied(shape) && !shortOnly(shape) || anyOf(shape, cancelVerbs) {
		return false
	}
	for i, w := range shape {
		if w != phOrderRef && w != phNumber || quantityAt(shape, i) {
			continue
		}
		for j := i + 1; j < len(shape) && j <= i+2; j++ {
			if finishedWords[shape[j]] {
				return !anyOf(shape, imperatives) && !moneyBeside(shape, i)
			}
		}
	}
	return false
}

// namedOrder reports an order named as one: "ORD-1042", "order 1042",
// "order no 1042", "1042 wala".
func namedOrder(shape []string) bool {
	for i, w := range shape {
		switch {
		case w == phOrderRef:
			return true
		case w != phNumber:
		case i > 0 && orderWord(shape[i-1]), i > 1 && refWords[shape[i-1]] && orderWord(shape[i-2]):
			return true
		case i+1 < len(shape) && shape[i+1] == "wala":
			return true
		}
	}
	return false
}

// moneyBesideOrder reports a word of money or a way of paying, or a
// number that is not the order's nor a quantity: "ORD-1042 ke 5000 mile"
// is a payment against it.
func moneyBesideOrder(shape []string) bool {
	return moneyBut(shape, func(i int) bool { return ordersOwn(shape, i) })
}

// ordersOwn reports the number at i as an order's own: after "order" or
// "no", or before "wala".
func ordersOwn(shape []string, i int) bool {
	return i > 0 && (orderWord(shape[i-1]) || refWords[shape[i-1]]) || i+1 < len(shape) && shape[i+1] == "wala"
}

// moneyBeside reports a word of money, or a number other than the
// order's at i that counts nothing.
func moneyBeside(shape []string, i int) bool {
	return moneyBut(shape, func(k int) bool { return k == i })
}

// moneyBut reports a word of money or a way of paying, or a number that
// counts nothing and that ours (the order's own) does not claim.
func moneyBut(shape []string, ours func(i int) bool) bool {
	return anyOf(shape, modeWords) || anyOf(shape, paymentWords) || strayNumber(shape, ours)
}

// strayNumber reports a number that counts nothing and that ours does not
// claim.
func strayNumber(shape []string, ours func(i int) bool) bool {
	for i, w := range shape {
		if w == phNumber && !quantityAt(shape, i) && !ours(i) {
			return true
		}
	}
	return false
}

// shortOnly reports that every word of denial in a delivery is about
// goods that did not go ("ORD-1042 delivered, lekin harpic ke 3 carton
// nahi gaye") or says nothing was missing ("delivered fully, no
// shortage"): after a word that it was delivered, a denial just after
// the goods it names or just before a shortage.
func shortOnly(shape []string) bool {
	said := false
	for i, w := range shape {
		if deliveredWords[w] || handedWords[w] || deliveryStems[w] || gotGoods[w] || handVerbs[w] && doneAfter(shape, i, completions) ||
			w == "diya" && i > 0 && orderWord(shape[i-1]) {
			said = true
		}
		if !negations[w] || w == "no" && i+1 < len(shape) && (shape[i+1] == phNumber || shape[i+1] == phOrderRef) {
			continue
		}
		goods := i > 0 && (shape[i-1] == phUnit || shape[i-1] == phProduct)
		shortage := i+1 < len(shape) && shortageWords[shape[i+1]] || i > 0 && shortageWords[shape[i-1]] || restDenied(shape, i)
		if !said || !goods && !shortage {
			return false
		}
	}
	return said
}

// restDenied reports a denial at i about the rest of the goods, named a
// few words before it: "3347 half deliver hua, … baaki 5 gaadi me load
// hi nahi hua tha".
func restDenied(shape []string, i int) bool {
	return anyOf(shape[max(0, i-6):i], restWords)
}

// restWords name the goods that are left.
var restWords = words("baaki balance rest")

// shortageWords name what was missing: "no shortage", "no returns",
// "koi kami nahi", "kuch baaki nahi", "kuch kam nahi", "no damages", "no
// issues", "koi ghaat nahi".
var shortageWords = words("shortage short return returns kami baaki kam damage damages issue issues problem ghaat")

// People say a delivery happened without the word: "maal de diya",
// "supply ho gayi", "pahuncha diya", "utaar diya", "handover kar diya",
// "hawale kar diya",
// "dropped at the shop", "customer ne le liya".
var (
	// handVerbs hand goods over once a completion follows: "de diya",
	// "supply ho gaya", "drop kar diya"; handedWords say it by themselves,
	// among them the road's "I gave" in Tamil, Kannada and Telugu
	// (kuduthutten, kottidini, ichhesanu; "they gave" is a shop's money).
	handVerbs   = words("de pahuncha pahunch utaar supply handover hawale drop deliver delivery thama rakh chhodo khali jama received aapi laah pugga sambhalwa namiye pakda dei")
	handedWords = words("delivered supplied dropped handed reached unloaded utra given accepted utaryo utarvla pohochla pohochavla sopa mukyu kuduthutten kottidini ichhesanu ichesanu kottbitte ethichu इऱक्किट्टेऩ")
	completions = words("diya gaya hua done kiya aaya complete completed liya di li chuka didho didhu ditta dilam diyechi aavyo deli")
	// gaveWords say the giving was done by themselves (Marathi "maal
	// dila"), so the goods or the order must be named, with no money
	// beside it; gaveAfter complete a "diya" (Bengali "maal diye dilam",
	// "diye eshechi": gave and came away).
	gaveWords = words("dila दिली kottu देइदेलि")
	gaveAfter = words("dilam diyechi eshechi")
	// givingVerbs hand over whatever they name, so the goods must be
	// named: "maal de diya", not "5000 de diya"; or the order named as
	// one, with no money beside it ("ORD-1042 party ko de diya").
	givingVerbs = words("de jama received")
	// gotGoods say the customer got what the message names.
	gotGoods = words("mila")
	// handedGoods name what was handed over.
	handedGoods = words("PRODUCT UNIT maal order orders saara sab supply goods items")
	// recipients name who got it, when no order number does.
	recipients = words("CUSTOMER customer party")
)

// handedOver reports goods said to be handed over: a hand verb with a
// completion after it (and no request between), an English past tense,
// or "ne le liya" (the customer took them).
func handedOver(shape []string) bool {
	for i, w := range shape {
		switch {
		case handedWords[w]:
			return true
		case receipts[w]:
			// "receiving de di", "receiving mil gayi": the shop signed
			// for the goods; "receiving de do" asks for it.
			if doneAfter(shape, i, completions) || doneAfter(shape, i, gotGoods) {
				return true
			}
			continue
		case w == "le" && i+1 < len(shape) && shape[i+1] == "liya" && tookGoods(shape[:i]):
			return true
		case gotGoods[w] && anyOf(shape, handedGoods) && !moneyBesideOrder(shape):
			// "Ashok Provision ko unka poora order mil gaya": the customer
			// got the goods.
			return true
		case w == "gaya" && wentOut(shape, i):
			// "ORD-4082 sirf 4 carton GC gaya": the goods of a named order went.
			return true
		case w == "received" && i > 0 && shape[i-1] == phCustomer && (anyOf(shape[i+1:], handedGoods) || anyOf(shape[i+1:], stockWords)):
			// "Mehta Traders received their goods this morning", "Jain
			// Medicos received their stock today".
			return true
		case w == "hawale" && i > 0 && shape[i-1] == "ke" && (i+1 == len(shape) || shape[i+1] != "kar" && !imperatives[shape[i+1]]):
			// "8275 ka maal customer ke hawale": in their charge, where
			// "ke hawale kar do" asks for it.
			return true
		case gave(shape, i) && !placedBefore(shape, i) && (anyOf(shape, handedGoods) || namedOrder(shape) && !moneyBesideOrder(shape)):
			// "Shivam hotel madhe saman dila", "ord 3662 dila re".
			return true
		case w == "diya" && i > 0 && (shape[i-1] == phUnit || shape[i-1] == phProduct || shape[i-1] == "maal") &&
			(anyOf(shape, recipients) || namedOrder(shape) && !moneyBesideOrder(shape)) && !placedBefore(shape, i):
			// "Agarwal ji ko 10 bag surf diye": the goods given to the
			// customer.
			return true
		case w == "diya" && i > 0 && partWords[shape[i-1]] && namedOrder(shape) && !moneyBesideOrder(shape) && !placedBefore(shape, i):
			// "ord no 2987 half diya hai": part of a named order given.
			return true
		case w == "diya" && i > 0 && orderWord(shape[i-1]) && anyOf(shape, recipients) && !placedBefore(shape, i):
			// "Sharma ji ka pura order diya": the customer's order given;
			// "Sharma ji ne order diya" placed one.
			return true
		case w == "received" && tookBy(shape, i) && !anyOf(shape, paymentWords):
			// "ashok bhai ne 1202 receive kar liya": the shop took it (a
			// shop receives goods from the business, not money).
			return true
		case w == "received" && i+2 < len(shape) && shape[i+1] == "by" && recipients[shape[i+2]]:
			// "ORD-2591 received by customer": the shop took the goods.
			return true
		case w == "received" && anyOf(shape[:i], recipients) && i > 0 && handedGoods[shape[i-1]] && !anyOf(shape, incomingFrom):
			// "Rajesh Kirana done. all items received": the customer got
			// the goods said just before.
			return true
		case w == "liya" && i > 1 && shape[i-1] == "ne" && anyOf(shape[:i-1], handedGoods) && anyOf(shape, recipients):
			// "sharma ji ke yahan gaye the, maal unke bhai ne liya": at
			// the customer's, someone took the goods.
			return true
		case !handVerbs[w]:
			continue
		case i > 0 && finishedWords[shape[i-1]] && !imperativeAfter(shape, i):
			// "Completed drop for ORD1907".
			return true
		}
		// "Gupta ji ko de diya": given straight to a customer, nothing
		// else named, is their goods.
		toThem := w == "de" && i > 1 && shape[i-1] == "ko" && recipients[shape[i-2]] && !amount(shape)
		if givingVerbs[w] && !toThem && !anyOf(shape, handedGoods) && !orderWala(shape) && !(namedOrder(shape) && !moneyBesideOrder(shape)) {
			continue
		}
		if doneAfter(shape, i, completions) || havingDone(shape, i) {
			return true
		}
	}
	return delivered(shape)
}

// tookBy reports someone said to take what i receives: "ne receive",
// "ne 1202 receive", "ne maal receive".
func tookBy(shape []string, i int) bool {
	return i > 0 && shape[i-1] == "ne" || i > 1 && shape[i-2] == "ne" && (isPlaceholder(shape[i-1]) || handedGoods[shape[i-1]])
}

// gave reports a giving said done at i: "dila", not "dila dena" (asks
// for it) nor "yaad dila" (reminds); or "diya" completed ("diye dilam").
func gave(shape []string, i int) bool {
	next := ""
	if i+1 < len(shape) {
		next = shape[i+1]
	}
	if shape[i] == "diya" {
		return gaveAfter[next]
	}
	return gaveWords[shape[i]] && !imperatives[next] && (i == 0 || !remindWords[shape[i-1]])
}

// remindWords make "dila" a reminder: "delivery yaad dila dena".
var remindWords = words("yaad")

// incomingFrom name where goods come in from.
var incomingFrom = words("truck supplier vendor company factory")

// fromThem reports goods got from a customer or a shop ("CUSTOMER se"
// after a word of getting): they came in, they were not handed over.
func fromThem(shape []string) bool {
	if !anyOf(shape, gotGoods) {
		return false
	}
	for i := 0; i+1 < len(shape); i++ {
		if shape[i] == phCustomer && shape[i+1] == "se" {
			return true
		}
	}
	return false
}

// stockWords name the goods a customer received as their stock.
var stockWords = words("stock")

// placedBy names who placed an order: "Sharma ji ne order diya".
var placedBy = words("ne")

// placedBefore reports who placed an order named before the giving at
// i: "Sharma ji ne order diya", where in "order 3604 ka half maal diya,
// hospital ne bola …" the one after it said something else.
func placedBefore(shape []string, i int) bool {
	return anyOf(shape[:i], placedBy)
}

// wentOut reports the goods, or a customer's order, said to have gone at
// i, of an order named: "ORD-4082 sirf 4 carton GC gaya", "1104 wala
// maal gaya customer ke paas", "order no 2290 mehta traders ko chala
// gaya".
func wentOut(shape []string, i int) bool {
	j := i - 1
	if j >= 0 && shape[j] == "chala" {
		j--
	}
	if j < 0 {
		return false
	}
	goods := shape[j] == phProduct || shape[j] == "maal" || shape[j] == "ko" && j > 0 && shape[j-1] == phCustomer
	return goods && (anyOf(shape, orderRefWords) || namedOrder(shape) && !moneyBesideOrder(shape))
}

// receipts are what a shop signs for goods it took.
var receipts = words("receiving")

// tookGoods reports, before "le liya", that the customer took goods: "ne"
// just before, or "ne" and then the goods or order they took ("customer
// ne ORD-4063 ka maal le liya"), not money ("Rajesh ne 5000 le liya").
func tookGoods(before []string) bool {
	k := len(before)
	if k > 0 && before[k-1] == "ne" {
		return true
	}
	for i, w := range before {
		if w == "ne" {
			return anyOf(before[i+1:], handedGoods) || anyOf(before[i+1:], orderRefWords)
		}
	}
	return false
}

// orderWala reports an order named by its number and "wala" ("ORD-4112
// wala de aaya", "1042 wala de diya"): what was given is that order.
func orderWala(shape []string) bool {
	for i := 1; i < len(shape); i++ {
		if shape[i] == "wala" && (shape[i-1] == phOrderRef || shape[i-1] == phNumber) {
			return true
		}
	}
	return false
}

// handedToCustomer reports goods handed over to a customer named without
// an order number ("Rajesh ka maal de diya"): the order is the
// customer's open one, which the delivery reader finds or asks about. Money
// ("Rajesh ne 5000 de diya") is a payment, and a request ("de do") an
// order.
func handedToCustomer(shape []string) bool {
	if !anyOf(shape, recipients) || anyOf(shape, modeWords) || amount(shape) && !anyOf(shape, handedGoods) {
		return false
	}
	return handedOver(shape)
}

// handsOver is a delivery said in any of these ways, as a rule: not asked,
// not denied, not too long to be one record.
func handsOver(shape []string, n Normalized) bool {
	return len(shape) <= 24 && !asked(shape, n.Question) && deliverySignal(shape, n)
}

// laterWords put a payment off: "maal de diya, payment baad mein".
var laterWords = words("baad")

// doneAfter reports a word of done within three words after i, before
// any word that asks for it: "de di", not "de do".
func doneAfter(shape []string, i int, done map[string]bool) bool {
	for j := i + 1; j < len(shape) && j <= i+3; j++ {
		if done[shape[j]] || shape[j] == "de" && j+1 < len(shape) && done[shape[j+1]] {
			return true
		}
		if imperatives[shape[j]] || shape[j] == "dedo" {
			return false
		}
	}
	return false
}

// notGoneYet reports a question whose goods have not gone yet: "kis kis
// customer ka maal abhi nahi gaya", "Kis kis ka order abhi tak nahi
// gaya?". The pending orders answer it; whether named orders went ("kal
// ke orders gaye ki nahi") asks their status.
func notGoneYet(shape []string) bool {
	return len(shape) <= 14 && anyOf(shape, whoseWords) && (anyOf(shape, goodsWords) || anyOf(shape, orderNouns)) &&
		followedBy(shape, negations, goneWords)
}

var (
	whoseWords = words("kis kaun kaunse kiska kiske which")
	goneWords  = words("gaya")
)
