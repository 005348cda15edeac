package intent

// Goods received: a quantity of goods and a word that they came in or
// were made, in the many ways people say it, with the guards that keep
// goods sent back or out, papers made and damaged goods from reading as
// stock.

// receivesGoods is goods received said in words no rule lists, as a
// rule: a quantity of goods, a word that they arrived or were made and
// where from or into (or that they were checked, or came without
// damage), no customer,
// not asked, no plan, no damage ("FYI 45 cartons of Floor Cleaner 1L
// came in from the company, stacked in rack B").
func receivesGoods(shape []string, n Normalized) bool {
	return len(shape) <= 20 && !asked(shape, n.Question) && !denied(shape) &&
		(anyOf(shape, goodsSources) || madeGoods(shape) || damageDenied(shape) || checkedGoods(shape) || fromShop(shape)) &&
		receivedSignal(shape)
}

// fromShop reports goods from a shop named before its word, no order
// among them: "detergent 30 bag mile hai Jai Ambe traders se", a
// supplier's ("Gupta traders se 10 carton ka order mila" is a customer's
// order).
func fromShop(shape []string) bool {
	return !anyOf(shape, orderWordsOnly) && shopThen(shape, fromWords)
}

var fromWords = words("se")

// madeWords say goods were made, which is where they came from: "28
// carton phenyl bottle fill karke pack kar diye".
var madeWords = words("packed bana bane bani banke manufactured produced")

// unloaded reports a vehicle emptied at i: "truck khali hua", "गाड़ी
// खाली हो गई", its goods come in (a customer's are vetoed before).
func unloaded(shape []string, i int) bool {
	return shape[i] == "khali" && (i > 0 && vehicles[shape[i-1]] || i > 1 && vehicles[shape[i-2]]) &&
		(i+1 == len(shape) || !imperatives[shape[i+1]])
}

var vehicles = words("truck gaadi")

// finishedMaking reports goods finished at i in production: "Production
// finished 75 cases", "WIP ke 20 carton aaj finish ho gaye" ("GC ka stock
// finish" ran out; no production is named there), "production se 90
// carton dishwash nikla" (from the godown, goods that "nikla" went out),
// "second shift me 22 carton phenyl fill hua".
func finishedMaking(shape []string, i int) bool {
	return finishWords[shape[i]] && anyOf(shape, makingWords) && (i+1 == len(shape) || !imperatives[shape[i+1]])
}

// inwardAt reports goods booked in at i, as a godown's register says
// it: "naphthalene 30 carton in", "Harpic 500ml 70 ctn in, Ramu ne count
// check kiya", "stock in FC1L x 60 ctn", "depot se stock transfer in".
// "30 carton in godown" says where goods are, not that they came.
func inwardAt(shape []string, i int) bool {
	if shape[i] != "in" || i == 0 {
		return false
	}
	switch prev := shape[i-1]; {
	case prev == "stock" || prev == "transfer":
		return true
	case prev == phUnit || prev == phProduct || prev == phSize:
		return i+1 == len(shape) || !keptIn[shape[i+1]]
	}
	return false
}

// keptIn are where goods are kept.
var keptIn = words("stock godown warehouse gaadi truck rack")

// madeAsHeader reports the day's making named before what it made, as a
// header or with a word that it happened: "aaj ka production 25 carton
// FC", "Night shift output - 38 ctn floor cleaner", "aaj NB ki 30 carton
// production hui". A plan, a target or a request is not made yet.
func madeAsHeader(shape []string, i int) bool {
	if !outputWords[shape[i]] || anyOf(shape, imperatives) {
		return false
	}
	// Said to have happened, whatever is planned after it: "… production
	// hui, kal aur 30 hogi".
	if i+1 < len(shape) && happenedWords[shape[i+1]] {
		return true
	}
	if anyOf(shape, planWords) {
		return false
	}
	for _, w := range shape[i+1:] {
		if w == phNumber {
			return true
		}
	}
	return false
}

var (
	outputWords   = words("production output")
	happenedWords = words("hui hua done")
	planWords     = words("plan target karna karni hoga hogi chahiye")
)

var (
	finishWords = words("finish finished complete completed nikla nikle nikala bhar bhari bhara fill filled")
	makingWords = words("production wip factory plant shift bottling")
)

// madeGoods reports a word that goods were made, not a paper: "40 carton
// phenyl bana", not "5 carton GC ka bill bana diya".
func madeGoods(shape []string) bool {
	for i, w := range shape {
		if madeWords[w] && !ofADocument(shape, i) {
			return true
		}
	}
	return false
}

// ofADocument reports the word at i said of a paper just before it: "bill
// bana", "invoice bani".
func ofADocument(shape []string, i int) bool {
	return i > 0 && documentWords[shape[i-1]] && madeWords[shape[i]]
}

// goodsSources say where goods came from or into.
var goodsSources = words("godown warehouse factory production plant wip company supplier vendor truck gaadi inward grn unloaded utra utaar consignment")

// damageWords make goods that arrived a matter for a person: damaged or
// leaking goods are not simply stock.
var damageWords = words("damaged damage damages toota tuta tute broken leak leaking kharab defective expired dabi")

// receivedSignal reports a quantity of goods, a word that they arrived or
// were made (not a request that they be), no customer, no damage and
// nothing sent back or out to a supplier: goods a customer sends back, or
// an order for one, are not stock received.
func receivedSignal(shape []string) bool {
	// Cartons counted into the godown are goods, whatever product the
	// catalog calls them: "गोदाम में ३५ कार्टन फ्लोर क्लीनर जमा किए".
	goods := anyOf(shape, goodsWords) || anyOf(shape, goodsSources) && anyOf(shape, unitWords)
	if anyOf(shape, customerWords) || !goods || damaged(shape) || anyOf(shape, returnWords) || sentTo(shape, suppliers) ||
		atShop(shape) || heldAgainstBill(shape) {
		return false
	}
	// Counted, or measured: "plant se 500 ltr phenyl bharke aaya" (a size
	// after the product, "phenyl 1L", names the product's pack instead).
	counted := false
	for i, w := range shape {
		if w == phNumber && quantityAt(shape, i) || w == phSize && i+1 < len(shape) && shape[i+1] == phProduct {
			counted = true
		}
	}
	if !counted {
		return false
	}
	for i, w := range shape {
		if arrivalWords[w] && (i+1 == len(shape) || !imperatives[shape[i+1]]) && !ofADocument(shape, i) || unloaded(shape, i) ||
			finishedMaking(shape, i) || inwardAt(shape, i) || madeAsHeader(shape, i) {
			return true
		}
	}
	// "company ne 300 roll bhej diye", "Supplier delivered 500 rolls to
	// our godown": what a supplier sent came in. (From the godown, sent
	// goods go out.)
	return anyOf(shape, suppliers) && anyOf(shape, sentWords)
}

var unitWords = words("UNIT")

// heldAgainstBill reports goods that came short of what the business
// billed, said by the shop that got them: "hamare yaha aaye sirf 7 aur
// bill 10 ka bana diya", "Billed for 20 bags of detergent, only 18
// came", "takkuva vachindi, bill motham vesaru". The godown notes a
// supplier's bill it read ("bill pe 84 likha hai, 4 kam aaye").
func heldAgainstBill(shape []string) bool {
	return (anyOf(shape, troubleCounted) || anyOf(shape, onlySome)) && !anyOf(shape, goodsSources) &&
		(anyOf(shape, billedVerb) || anyOf(shape, shopVoice) && anyOf(shape, billedWords) || followedBy(shape, billedWords, wholeBill))
}

var (
	// billedVerb say the business made the bill.
	billedVerb = words("billed")
	// onlySome say fewer came: "aaye sirf 7".
	onlySome = words("sirf")
	// wholeBill say the bill was for all of it: "bill poora laa ditta",
	// "bill full haakidira", "bill motham vesaru".
	wholeBill = words("poora full motham")
)

// asksIfCame reports a question whether, or when, the catalog's goods
// come in, where the model is unsure: "colin ka truck aaya kya?",
// "naphthalene goli kab aayegi", "kal wale tempo se surf aaya ki nahi".
// The stock answers it. A customer or an order named asks after their
// order, money after dues.
func asksIfCame(shape []string, n Normalized) bool {
	return len(shape) <= 14 && asked(shape, n.Question) && n.Has(EntityProduct) && (anyOf(shape, arrivalWords) || anyOf(shape, comingWords)) &&
		!anyOf(shape, customerWords) && !anyOf(shape, orderRefWords) && !anyOf(shape, paymentWords) && !anyOf(shape, modeWords)
}

// comingWords say goods are yet to come.
var comingWords = words("aayega aayegi arrive")

// atWords put goods at a place: "Patel provision ma maal utari didhu",
// "New Krishna Traders me 25 bag surf utarwa ke aaya".
var atWords = words("ma me mein madhe ko")

// shopsWords make goods a shop's: "Verma Brothers ka maal utar gaya"
// went to them, unless the goods came ("Jai Ambe Traders ka maal aaya",
// from a supplier).
var shopsWords, cameInWords = words("ka ke"), words("aaya")

// atShop reports goods put at a shop named before its word ("Patel
// Provision ma"), or the shop's goods that did not come in ("Verma
// Brothers ka maal"): they went out to a customer the list may not know,
// where "store me maal aaya" and "Jai Ambe Traders se" came in.
func atShop(shape []string) bool {
	return shopThen(shape, atWords) || !anyOf(shape, cameInWords) && shopThen(shape, shopsWords)
}

// shopThen reports a shop named before its word ("Patel Provision",
// "Jai Ambe Traders") and then one of marks.
func shopThen(shape []string, marks map[string]bool) bool {
	for i := 1; i+1 < len(shape); i++ {
		if shopEnds[shape[i]] && marks[shape[i+1]] && shopNameWord(shape[i-1]) {
			return true
		}
	}
	return false
}

// suppliers send goods in; sentWords say they did.
var (
	suppliers = words("supplier vendor company factory plant production")
	sentWords = words("bheja sent delivered got")
)

// sentTo reports goods or money sent to one of whom ("company ko 20
// carton bheje", "Rajesh ko 5000 diye"): they went out. Word told them
// ("supplier ko photo bhej di", "supplier ko bol diya") sends nothing.
func sentTo(shape []string, whom map[string]bool) bool {
	for i := 1; i < len(shape); i++ {
		if shape[i] == "ko" && whom[shape[i-1]] && !(i+1 < len(shape) && toldWords[shape[i+1]]) {
			return true
		}
	}
	return false
}

// toldWords pass word, not goods: a photo, a call, a telling.
var toldWords = words("photo bol bola bata bataya call phone message")

// damaged reports a word of damage that is not denied: "damage koi nahi"
// and "no damage" say the goods came in whole.
func damaged(shape []string) bool {
	for i, w := range shape {
		if damageWords[w] && !damageDeniedAt(shape, i) && !partDamaged(shape, i) {
			return true
		}
	}
	return false
}

// partDamaged reports the damage at i said of a part counted after the
// goods that came: "FC 1L 45 ctn aa gaya, 1 ctn leak", "12 dozen mop
// aaye, 2 ka danda toota". The goods came in, and the receipt's reader
// takes the damaged part off them (orders.ReadReceipt); "GC ke 100 carton
// damaged aaye" has one count, and damaged goods are for a person to look
// at.
func partDamaged(shape []string, i int) bool {
	counts, last := 0, -1
	for j, w := range shape[:i] {
		if w == phNumber {
			counts, last = counts+1, j
		}
	}
	// "handwash 5 ctn received, seal tuta hua 1 carton me": the part
	// counted just after the damage.
	for j := i + 1; j < len(shape) && j <= i+3; j++ {
		if shape[j] == phNumber && counts >= 1 {
			return true
		}
	}
	return counts >= 2 && i-last <= 4
}

// damageDeniedAt reports the damage word at i denied: "no damage",
// "damage nahi", "damage koi nahi".
func damageDeniedAt(shape []string, i int) bool {
	return negatedBeside(shape, i) || i+2 < len(shape) && shape[i+1] == "koi" && negations[shape[i+2]]
}

// checkedGoods reports goods said to be checked, as goods are on
// arrival: "40 carton lizol recieve kiya abhi, mal check kar liya".
func checkedGoods(shape []string) bool {
	for i, w := range shape {
		if checkWords[w] && doneAfter(shape, i, completions) {
			return true
		}
	}
	return false
}

var checkWords = words("check")

// damageDenied reports goods said to have come without damage: checked
// on arrival, so received ("GC ka maal aaya 65 ctn, damage koi nahi").
func damageDenied(shape []string) bool {
	for i, w := range shape {
		if damageWords[w] && damageDeniedAt(shape, i) {
			return true
		}
	}
	return false
}

// denyingDamage reports the negation at i part of a denial of damage.
func denyingDamage(shape []string, i int) bool {
	return i+1 < len(shape) && damageWords[shape[i+1]] || i > 0 && damageWords[shape[i-1]] ||
		i > 1 && shape[i-1] == "koi" && damageWords[shape[i-2]]
}
