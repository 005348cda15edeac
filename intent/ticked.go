package intent

import "strings"

// Deliveries as the road and the shops write them in fewest words: orders
// ticked off by their bare numbers at the end of a round ("sharmaji ko de
// diya 3342", "1204 diya. 1205 diya.", "1871 aur 1874 dono de diye"), and
// goods said to have come, with nothing more ("maal aa gaya bhai").

// numberHanded reports orders named by bare numbers and given. A number
// is an order's when it is one word of three digits or more that counts
// nothing ("5 hazaar" is money); the giving is of orders when a customer
// (or "unko") took it, when more than one number was given, or when it
// was given properly ("1218 thik se de diya"), and one number alone is
// not round ("Sharma ko 5000 diya" may be money). A word of money, a payer
// ("ne"), or money paid to someone (a refund, a salary) leaves it to the
// payment and the other readings.
func numberHanded(shape []string, n Normalized) bool {
	if anyOf(shape, modeWords) || anyOf(shape, paymentWords) || anyOf(shape, placedBy) || anyOf(shape, othersMoney) || anyOf(shape, lentWords) {
		return false
	}
	given, k, round := 0, 0, false
	for i, w := range shape {
		if !isPlaceholder(w) {
			continue
		}
		k++
		if w != phNumber || quantityAt(shape, i) {
			continue
		}
		if k > len(n.Entities) {
			return false
		}
		if !writtenAsDigits(n, n.Entities[k-1]) {
			return false
		}
		if !givenAround(shape, i) {
			return false
		}
		given++
		round = round || strings.HasSuffix(n.Entities[k-1].ID, "00")
	}
	return given > 1 || given == 1 && !round && (tookIt(shape) || anyOf(shape, theirsTook) || anyOf(shape, properly))
}

// tookIt reports a customer said to take what was given: "Rajesh ko",
// "City hospital wala 4488" ("Rajesh bhai 2000 diye" is money from them).
func tookIt(shape []string) bool {
	for i := 0; i+1 < len(shape); i++ {
		if recipients[shape[i]] && (shape[i+1] == "ko" || shape[i+1] == "wala" && i+2 < len(shape) && shape[i+2] == phNumber) {
			return true
		}
	}
	return false
}

// givenAround reports the number at i given: a giving within a few words
// after it ("1218 thik se de diya", "1173 dono de diye"), or just before
// it at the end ("… ko de diya 3342").
func givenAround(shape []string, i int) bool {
	for j := i + 1; j < len(shape) && j <= i+4; j++ {
		if givenAt(shape, j) {
			return true
		}
		if !tickFiller[shape[j]] {
			break
		}
	}
	return i == len(shape)-1 && i > 0 && givenAt(shape, i-1)
}

// givenAt reports a giving that ends at j: "diya", "diye", "de diya",
// not "de do" nor "diya tha" of an order placed.
func givenAt(shape []string, j int) bool {
	if shape[j] != "diya" && shape[j] != "de" {
		return false
	}
	if shape[j] == "de" {
		return j+1 < len(shape) && givenDone[shape[j+1]]
	}
	return j+1 == len(shape) || !imperatives[shape[j+1]]
}

var (
	// tickFiller may stand between an order's number and its giving.
	tickFiller = words("thik theek se dono teeno sab wala de sir bhai ji aaj aur NUM")
	// givenDone complete a "de" as given ("de gaya" is someone who came
	// and gave).
	givenDone = words("diya di")
	// theirsTook name the shop that took it without its name: "unko".
	theirsTook = words("unko unka")
	// properly say the goods were given in good order.
	properly = words("thik theek")
	// lentWords, beside othersMoney, are money paid to someone ahead or
	// as a loan.
	lentWords = words("advance udhaar")
)

// writtenAsDigits reports a number of three digits or more written as
// one word of digits, Latin or an Indian script's (three bytes each):
// not "5 hazaar" nor "2,300", which are money.
func writtenAsDigits(n Normalized, e Entity) bool {
	if e.End-e.Start != 1 || !longNumber(e.ID) {
		return false
	}
	t := n.Tokens[e.Start]
	return t.End-t.Start == len(e.ID) || t.End-t.Start == 3*len(e.ID)
}

// arrivedBare reports goods or an order said to have come, and nothing
// more: "maal aa gaya bhai, sab theek hai", "हमारा ऑर्डर पहुंच गया है",
// "gaadi aayi thi, maal utar gaya". It names no count (a count of goods
// that came is the godown's receipt), no supplier, no trouble, no other
// service and no home or office shopping; the order is the one the
// delivery reader finds or asks about.
func arrivedBare(shape []string) bool {
	return len(shape) <= 10 && followedBy(shape, arrivedWhat, arrivedHow) && !anyOf(shape, countedOrNamed) &&
		!anyOf(shape, incomingFrom) && !anyOf(shape, suppliers) && !anyOf(shape, negations) && !spoiltSaid(shape) &&
		!anyOf(shape, troubleSigns) && !anyOf(shape, wrongGoods) && !anyOf(shape, otherServices) && !anyOf(shape, family) &&
		!anyOf(shape, elsewhereGoods)
}

var (
	// countedOrNamed make goods that came a receipt, a named order's or
	// a customer's.
	countedOrNamed = words("NUM ORDERREF CUSTOMER PRODUCT UNIT SIZE")
	arrivedWhat    = words("maal order")
	arrivedHow     = words("aaya pahuncha utaar")
	// elsewhereGoods are goods for a home or an office.
	elsewhereGoods = words("ghar office stationery")
)
