package intent

// Complaints about the goods, the bill and the service, and the office
// asked for, in the many words a customer or a salesperson uses: the
// wrong goods sent, spoilt goods to take back, a rate or a scheme not as
// agreed, a charge questioned, the same lateness again and again, and
// word passed to the office's people. Only the office can settle any of
// them; none changes the books.

var (
	// spoiltWords say goods came spoilt, beside damageWords.
	spoiltWords = words("phooti phate pichke geele geela khule torn dented soggy expire expires duplicate tooti tuti fatte phatlele phutle फूटी गीला डैमेज एक्सपायरी")
	// remedyWords ask for spoilt or wrong goods to be made good.
	remedyWords = words("exchange exchanged badlo badal badalne replaced बदल")
	// takeBack follow a word of return when it asks the office to take
	// the goods ("wapas le lo", "return karne hain", "utha lo"); "wapas
	// kar diya" and "return kiye" are the day's news.
	takeBack   = words("lo le jao karne karna karo them uthao")
	pickUpWord = words("utha uthwa")
	backHi     = words("वापस")
)

// spoiltReturned reports spoilt goods asked to be made good: "phenyl ki
// 3 peti leak ho rahi hai, wapas le lo", "फिनाइल की 4 बोतल फूटी हुई आई
// हैं, बदल दो", "Air fresheners arrived dented, want them exchanged".
func spoiltReturned(shape []string) bool {
	if anyOf(shape, otherServices) || anyOf(shape, family) || !anyOf(shape, goodsOnly) && !anyOf(shape, itemWords) {
		return false // "purana phone exchange karna hai, screen toota hai"
	}
	return spoiltSaid(shape) && remedied(shape)
}

// spoiltSaid reports goods said to be damaged, spoilt or expired.
func spoiltSaid(shape []string) bool {
	return anyOf(shape, damageWords) || anyOf(shape, expiryWords) || anyOf(shape, spoiltWords)
}

// remedied reports goods asked to be replaced, exchanged or taken back.
func remedied(shape []string) bool {
	return anyOf(shape, replaceWords) || anyOf(shape, remedyWords) || followedBy(shape, returnWords, takeBack) || followedBy(shape, backHi, takeBack) ||
		followedBy(shape, pickUpWord, takeBack) || followedBy(shape, takeWords, backWords) || followedBy(shape, backAgain, takeAsked) ||
		unsellable(shape)
}

// takeAway ask, after "le", for goods to be taken away ("wapas le jao");
// thisWords point at them ("ye wapas lo").
var (
	takeAway  = words("jao jaiye lijiye")
	thisWords = words("ye yeh")
)

// takeBackAsked reports goods asked to be taken back, whatever is wrong
// with them: "maal wapas le jao", "ye wapas lo". Goods brought back
// ("wapas le aaya") are the road's news.
func takeBackAsked(shape []string) bool {
	for i := 0; i+1 < len(shape); i++ {
		if !returnWords[shape[i]] {
			continue
		}
		if shape[i+1] == "lo" || shape[i+1] == "le" && i+2 < len(shape) && takeAway[shape[i+2]] {
			return anyOf(shape, goodsOnly) || anyOf(shape, itemWords) || anyOf(shape[:i], thisWords)
		}
	}
	return false
}

// sellWords sell; ableWords say can, after a negation.
var (
	sellWords = words("bech bik")
	ableWords = words("sakte sakti sakta")
)

// unsellable reports goods said not fit to sell: "ye bech nahi sakte",
// "bik nahi sakti ye": the shop is left to ask what is to be done.
func unsellable(shape []string) bool {
	for i := 0; i+2 < len(shape); i++ {
		if sellWords[shape[i]] && negations[shape[i+1]] && ableWords[shape[i+2]] {
			return true
		}
	}
	return false
}

var (
	takeWords = words("take")
	backWords = words("back")
)

var (
	// askedFor say what the writer asked for; sentGoods what the office
	// sent.
	askedFor  = words("mangaya manga mangwaya ordered मंगाया")
	sentGoods = words("bheja sent supplied")
	// insteadWords set one thing in another's place: "ki jagah", "instead".
	insteadWords = words("jagah instead जगह")
	// itemWords name goods in general: "wrong item sent", "galat maal".
	itemWords = words("item items product maal")
)

// wrongGoodsSent reports goods sent other than those asked for: "GC
// mangaya tha, phenyl bhej diya", "sabun 5 dozen manga tha, 5 carton bhej
// diye", "we ordered floor cleaner 1L and you sent toilet cleaner 500ml",
// "Received floor cleaner instead of toilet cleaner", "Wrong item sent".
// An order from a shopping site, or one that has not come yet ("mangaya
// tha, abhi tak nahi aaya"), is not.
func wrongGoodsSent(shape []string) bool {
	if anyOf(shape, otherServices) || anyOf(shape, family) || anyOf(shape, draftWords) {
		return false
	}
	for i, w := range shape {
		if !askedFor[w] {
			continue
		}
		rest := shape[i+1:]
		if w != "ordered" && (len(rest) == 0 || !beforeWords[rest[0]]) {
			continue
		}
		// What the office sent, not what came: "10 carton mangaya tha,
		// aa gaya" and "ordered 5 cartons, received today" are news.
		if anyOf(rest, goodsOnly) && sentUnnegated(rest) {
			return true
		}
		// Another count come, asked how: "maine to 2 hi manga tha, 5
		// kaise aa gaye".
		if anyOf(shape[:i], numberPlaceholder) && anyOf(rest, numberPlaceholder) && anyOf(rest, howCome) && cameUnnegated(rest) {
			return true
		}
	}
	if anyOf(shape, stopWords) || anyOf(shape, cancelVerbs) {
		return false // "mat karo, galat product aa gaya isme" is about a draft
	}
	if followedBy(shape, returnWords, sentGoods) || followedBy(shape, returnWords, arrivalWords) {
		return false // "6 ctn return bheja, galat item chala gaya tha": the return is news
	}
	came := cameUnnegated(shape)
	return anyOf(shape, insteadWords) && came && anyOf(shape, goodsOnly) ||
		(followedBy(shape, wrongGoods, itemWords) || followedBy(shape, itemWords, wrongGoods)) && came
}

// wrongGoods say goods are not those asked for: "galat maal", "wrong
// item" ("ek item missing" is short, not wrong).
var wrongGoods = words("galat wrong")

// cameUnnegated reports goods said sent or come, with no negation beside.
func cameUnnegated(shape []string) bool {
	return saidUnnegated(shape, func(w string) bool { return sentGoods[w] || arrivalWords[w] || handedWords[w] })
}

// sentUnnegated reports goods said sent, with no negation beside.
func sentUnnegated(shape []string) bool {
	return saidUnnegated(shape, func(w string) bool { return sentGoods[w] })
}

// saidUnnegated reports a word of the kind with no negation beside it.
func saidUnnegated(shape []string, kind func(string) bool) bool {
	for i, w := range shape {
		if kind(w) && !negatedBeside(shape, i) {
			return true
		}
	}
	return false
}

var (
	// rateWords name a price; dearer and oldWords say how it is not as
	// agreed.
	rateWords = words("rate bhav price mrp भाव")
	dearer    = words("zyada jyada higher more extra")
	oldWords  = words("purana purani old")
)

// rateDisputed reports a rate put on a bill other than agreed: "vim bar
// pe rate zyada laga diya", "ORD-1057 pe purana rate laga hai", "rate list
// me phenyl 65 hai, bill me 70 laga hai", "The rate charged for dishwash
// liquid is higher than what was agreed". A rate to put on an order
// ("unka purana rate lagana") or asked about is not.
func rateDisputed(shape []string) bool {
	if !anyOf(shape, rateWords) || anyOf(shape, draftWords) || anyOf(shape, cancelVerbs) {
		return false
	}
	// Put on the bill in the past: "laga diya", "lagaya", "charged" (not
	// "lagana", which asks for it).
	put := anyOf(shape, lagaWords) || anyOf(shape, chargedWords)
	numbers := 0
	for _, w := range shape {
		if w == phNumber {
			numbers++
		}
	}
	switch {
	case anyOf(shape, dearer):
		return put || anyOf(shape, documentWords)
	case anyOf(shape, oldWords):
		return put || stillSaid(shape) || followedBy(shape, oldWords, sentGoods)
	case anyOf(shape, insteadWords):
		return put
	}
	// "Invoice … has floor cleaner at 120/bottle. Agreed price was 110.":
	// the price agreed set against the one charged ("10 ctn FC1L at
	// agreed rate" orders at it).
	return numbers >= 2 && (anyOf(shape, documentWords) && anyOf(shape, lagaWords) || anyOf(shape, agreedWords) && anyOf(shape, wasWords))
}

// agreedWords say a price was agreed; wasWords that it was.
var (
	agreedWords = words("agreed")
	wasWords    = words("was tha")
)

var (
	// schemeWords name an offer the bill should carry.
	schemeWords = words("scheme free offer स्कीम फ्री")
	appliedNot  = words("applied missing")
)

// schemeMissing reports an offer said missing from a bill or an order:
// "salesman ne 12+1 ki scheme boli thi, bill me free wala carton hai hi
// nahi", "the buy 10 get 1 free scheme was not applied on ORD-1088". An
// order that asks for the scheme ("12+1 wali scheme lagana") is not.
func schemeMissing(shape []string) bool {
	if !anyOf(shape, schemeWords) || !(anyOf(shape, documentWords) || anyOf(shape, orderRefWords)) {
		return false
	}
	return anyOf(shape, negations) || anyOf(shape, appliedNot)
}

var (
	// lateWords say goods came late; againWords that it keeps happening;
	// badService say what the writer thinks of it.
	lateWords  = words("late der deri")
	againWords = words("hamesha humesha roz again fir phir every")
	badService = words("bekaar worst natak")
	serviceOf  = words("delivery deliveries maal order salesman सेल्समैन")
	// acceptable, chalega and bardasht, denied, say the writer will not
	// put up with it any longer; "has to stop" says it outright.
	acceptableWords           = words("acceptable chalega")
	bardashtWord              = words("bardasht")
	hasWord, toWord, stopWord = words("has"), words("to"), words("stop")
)

// fedUp reports a grievance closed by the writer saying they will not
// put up with it any longer: "Your delivery guy was rude to my staff.
// Not acceptable.", "har baar maal late aata hai, ab bardasht nahi
// hota", "… this has to stop". The words close the message, after at
// least griefWords of the grievance: "ye order nahi chalega" answers a
// draft, "the delivery man has to stop at the gate" is an errand.
func fedUp(shape []string) bool {
	for i := max(griefWords, len(shape)-3); i+1 < len(shape); i++ {
		a, b := shape[i], shape[i+1]
		if negations[a] && acceptableWords[b] || bardashtWord[a] && negations[b] ||
			hasWord[shape[i-1]] && toWord[a] && stopWord[b] {
			return true
		}
	}
	return false
}

// griefWords is the least a grievance says before fedUp's closing words.
const griefWords = 5

// serviceComplaint reports the goods' coming or the office's people
// complained of: "har baar maal 3-4 din late aata hai", "aaj fir delivery
// nahi aayi … bekaar service", "roz ka natak hai" about the goods,
// "deliveries keep coming after 9pm … this has to stop".
// News of one late delivery ("delivery late hogi aaj") is not.
func serviceComplaint(shape []string) bool {
	if !anyOf(shape, serviceOf) || anyOf(shape, otherServices) || anyOf(shape, family) {
		return false
	}
	if fedUp(shape) {
		// "ye order nahi chalega, cancel karo" stops a draft.
		return !anyOf(shape, cancelVerbs) && !anyOf(shape, draftWords)
	}
	again := anyOf(shape, againWords) || followedBy(shape, harWords, baarWords) || followedBy(shape, habitual, presentWords) && !asked(shape, false)
	// "aaj fir der ho gayi, maal kal bhejo" asks for the goods; "kuch
	// karo iska" asks the office to act.
	return anyOf(shape, badService) || anyOf(shape, lateWords) && again && !asksForGoods(shape)
}

// asksForGoods reports a word that asks for something to be done, other
// than "kuch karo" (do something about it), or for goods to be sent.
func asksForGoods(shape []string) bool {
	for i, w := range shape {
		if imperatives[w] && !(w == "karo" && i > 0 && shape[i-1] == "kuch") {
			return true
		}
	}
	return anyOf(shape, sendNow)
}

// spoiltSentWhy reports spoilt goods asked why they were sent, or said
// sent by the business: "expiry wala maal kyun bheja? batch dekha kisi
// ne?", "You sent us expired stock.".
func spoiltSentWhy(shape []string) bool {
	return spoiltSaid(shape) && (anyOf(shape, whyWords) || followedBy(shape, youDid, sentGoods)) && anyOf(shape, sentGoods) &&
		!anyOf(shape, otherServices) && !anyOf(shape, family)
}

var sendNow = words("bhejo")

var harWords = words("har")

// habitual say, before "hai", what keeps happening: "late aata hai",
// "der se aate hain".
var (
	habitual     = words("aata aate aati")
	presentWords = words("hai")
)

// neverWord before what was ordered or asked for denies it: "Never
// ordered garbage bags", "products we never asked for".
var neverWord = words("never")

// neverOrdered reports goods said never ordered, whoever says it.
func neverOrdered(shape []string) bool {
	return followedBy(shape, neverWord, orderedWords) || followedBy(shape, neverWord, askedWords) && anyOf(shape, documentWords)
}

var askedWords = words("asked")

// rudeStaff reports the office's people complained of for how they
// behave, or its service or goods for how poor they are: "aapka delivery
// wala bahut badtameez hai", "tumhara ladka badtameez hai", "bahut ganda
// service hai aapka", "jhadu ki quality itni ghatiya", "पोछे खराब
// क्वालिटी के हैं, सब वापस करने हैं". A cab's driver
// ("Ola driver ne badtameezi ki") is another service's.
func rudeStaff(shape []string) bool {
	if !anyOf(shape, rudeWords) && !anyOf(shape, poorWords) && !anyOf(shape, qualityWords) ||
		anyOf(shape, otherServices) || anyOf(shape, family) || anyOf(shape, notOffice) {
		return false
	}
	ours := anyOf(shape, yours) || anyOf(shape, yoursToo) || anyOf(shape, staffOnes)
	poorQuality := anyOf(shape, qualityWords) && (anyOf(shape, poorWords) || anyOf(shape, damageWords)) &&
		(anyOf(shape, goodsOnly) || remedied(shape))
	poor := anyOf(shape, poorWords) && anyOf(shape, serviceWords) && ours || poorQuality
	return anyOf(shape, rudeWords) && ours || poor
}

// extraAsked reports the office's people asking a shop for money beyond
// the bill: "delivery boy ne 200 rs extra maange utaarne ke".
func extraAsked(shape []string) bool {
	return anyOf(shape, staffOnes) && followedBy(shape, extraWords, askedMoney) && !anyOf(shape, otherServices)
}

var (
	rudeWords    = words("badtameez badtameezi batamizi rude gaali")
	poorWords    = words("ganda ghatiya bekar bekaar")
	serviceWords = words("service")
	qualityWords = words("quality")
	// yoursToo are the writer's you besides yours: "tumhara ladka",
	// Punjabi's "tuhada", Tamil's "unga".
	yoursToo = words("tumhara tumhare tuhada unga")
	// staffOnes are the office's people who meet a shop.
	staffOnes  = words("delivery driver salesman ladka staff boy guy")
	askedMoney = words("maange maanga maangte")
)

// fewWords are the small counts said in words: "do phooti hui".
var fewWords = words("ek do teen char")

// cameSpoilt reports goods said to have come damaged, spoilt or expired,
// counted once at most, with nothing handed over, returned or named as
// an order: the shop that got them writing ("3 bottles of floor cleaner
// came broken", "फिनाइल की बोतलें फूटी हुई आई हैं"). Goods counted in and
// counted broken ("phenyl ki 55 peti aayi, do phooti hui") are the
// godown's receipt, a delivery's words the road's report.
func cameSpoilt(shape []string) bool {
	if !spoiltSaid(shape) || !anyOf(shape, arrivalWords) || !anyOf(shape, goodsOnly) || anyOf(shape, negations) ||
		anyOf(shape, orderRefWords) || anyOf(shape, handVerbs) || anyOf(shape, handedWords) || anyOf(shape, returnWords) ||
		anyOf(shape, otherServices) || anyOf(shape, namedCustomer) {
		return false
	}
	counts := 0
	for i, w := range shape {
		if w == phNumber || fewWords[w] && i+1 < len(shape) && (spoiltWords[shape[i+1]] || damageWords[shape[i+1]]) {
			counts++
		}
	}
	return counts <= 1
}
