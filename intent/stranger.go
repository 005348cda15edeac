package intent

import "github.com/munshi/munshi/internal/domain"

// Names the customer list does not know. Records name shops before they
// are imported ("Laxmi Provision ko mop aur broom supply kar di", "Patel
// ji gave 4500 cash"): the record is as plain as for a listed customer,
// and its reader says the name is not in the list and asks for it. A name
// is read only where a shop's word or a form of address ends it, so that a
// stray word is never one.

// shopEnds end a business's name ("Balaji Stores", "Jain Medicos");
// personEnds a person's ("Patel ji", "Chauhan bhai"), who may be a
// customer or anyone else.
var (
	shopEnds = words(`store stores kirana mart supermart traders enterprises medical medicos provision
		provisions general agency market bhandar dhaba brothers bhojnalaya`)
	// shopStarts begin one: "Hotel Sagar".
	shopStarts = words("hotel")
	personEnds = words("ji bhai seth sahab")
)

// nameWord is a word that may begin or carry a name nobody listed: no
// word any rule or table reads, no placeholder, letters only.
func nameWord(w string) bool {
	return !shopEnds[w] && !honorifics[w] && !known[w] && strangerWord(w)
}

// shopNameWord may also be a word of greetings or an opener, before a
// shop's word:
// shops are named after gods and blessings ("Krishna General Store",
// "Sai Mart"), as the lexicon's weak names are.
func shopNameWord(w string) bool {
	return nameWord(w) || greetingOnly[w] && !shopEnds[w] && !honorifics[w] || nameOpeners[w]
}

// nameOpeners begin shops' names though the rules read them: "New Delhi
// Kirana".
var nameOpeners = words("new")

// tradeWords tie money to the business: its bills, its dues, its shop.
var tradeWords = words("bill bills invoice baaki bakaya udhaar dukan dukaan shop order maal hisaab against")

// A stranger is what strangersAsCustomers found.
type stranger uint8

const (
	noStranger stranger = iota
	personOnly          // only people's names: "Patel ji"
	shopNamed           // a business's name among them
)

// strangersAsCustomers writes the shape with each name nobody listed
// (one to maxStrangerWords name words, then the words that end a name) as
// a customer, into buf, and says what it found.
func strangersAsCustomers(shape, buf []string) ([]string, stranger) {
	found := noStranger
	for i := 0; i < len(shape); i++ {
		if shopStarts[shape[i]] && i+1 < len(shape) && nameWord(shape[i+1]) {
			// The hotel's name is its next word, or two.
			k := i + 2
			if k < len(shape) && nameWord(shape[k]) && !shopEnds[shape[k]] {
				k++
			}
			buf = append(buf, phCustomer)
			i, found = k-1, shopNamed
			continue
		}
		j := i
		for j < len(shape) && j-i < maxStrangerWords && shopNameWord(shape[j]) {
			j++
		}
		k, shop := j, false
		for k < len(shape) && (shopEnds[shape[k]] || personEnds[shape[k]]) {
			shop = shop || shopEnds[shape[k]]
			k++
		}
		// Words of greetings make a name only before a shop's word:
		// "thanks bhai" names nobody.
		if j == i || k == j || !shop && !allNameWords(shape[i:j]) {
			buf = append(buf, shape[i])
			continue
		}
		buf = append(buf, phCustomer)
		i, found = k-1, max(found, personOnly)
		if shop {
			found = shopNamed
		}
	}
	return buf, found
}

func allNameWords(ws []string) bool {
	for _, w := range ws {
		if !nameWord(w) {
			return false
		}
	}
	return true
}

// strangerReason ends the reason of a decision made with the names
// nobody listed read as customers.
const strangerReason = "a name the customer list lacks read as a customer"

// byStranger routes again a message the local tiers could not read with
// the names nobody listed read as customers. It takes only a delivery, a
// payment or a question about an order: each is shown, or answered, with
// the name it could not find before anything changes. Money from a person
// nobody listed ("Raju bhai ne 500 paytm kiye") may be anyone's, a
// friend's or a neighbour's: only a business's name, or a word of the
// trade beside it ("Patel ji gave 4500 cash against last bill", "Mittal ji
// ne dukan par aakar 2100 diye"), makes it a payment.
func (r *Router) byStranger(text string, n Normalized) (Decision, bool) {
	var buf, out [48]string
	shape, found := strangersAsCustomers(shapeOf(n, buf[:0]), out[:0])
	if found == noStranger {
		return Decision{}, false
	}
	d := r.localShape(text, n, shape)
	switch {
	case d.Intent == domain.IntentPayment && found == personOnly && !anyOf(shape, tradeWords):
	case d.Intent == domain.IntentDelivery, d.Intent == domain.IntentPayment, d.Intent == domain.IntentOrderStatus:
		d.Reason += "; " + strangerReason
		return d, true
	}
	return Decision{}, false
}
