package orders

import (
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// An order is named the way the books write it (ORD-1042, "ord1042"), the
// way people type it ("ORD 1042", "order no 1042", "#1042", "1042 wala"),
// or in Devanagari ("ऑर्डर १०४२": the normaliser turns its digits into
// ASCII ones). A number counting something is never an order: "3 carton",
// "GC 500 wala" and "₹1042" are a quantity, a size and an amount.

// orderMention is an order a message names.
type orderMention struct {
	ref string // as Munshi writes it: ORD-1042, D-57
	at  int    // the index of its entity in the message's entities
}

var (
	// orderWords say the number after them is an order's.
	orderWords = words(`order ord ordr odr orders`)
	// numberWords stand between "order" and its number: "order no 1042".
	numberWords = words(`no number num nr nos नंबर नं`)
)

// orderMentions are the orders a message names, by the strongest sign it
// gives: references written as one ("ORD-1042"), else numbers marked as
// an order's ("order 1042", "#1042", "1042 wala"), else a bare number of
// three digits or more starting a line ("1042 deliver ho gaya"), the
// first of them only.
func orderMentions(r *reading) []orderMention {
	var refs, marked, bare []orderMention
	for k, e := range r.ents {
		switch e.Kind {
		case intent.EntityOrderRef:
			refs = append(refs, orderMention{domain.OrderRef(e.ID), k})
		case intent.EntityNumber:
			switch orderNumberAt(r, k) {
			case numberMarked:
				marked = append(marked, orderMention{domain.OrderRef(e.ID), k})
			case numberBare:
				bare = append(bare, orderMention{domain.OrderRef(e.ID), k})
			}
		}
	}
	switch {
	case len(refs) > 0:
		return refs
	case len(marked) > 0:
		return marked
	case len(bare) > 0:
		return bare[:1]
	}
	return nil
}

// distinctOrders counts the different orders mentions name.
func distinctOrders(ms []orderMention) int {
	seen := map[string]bool{}
	for _, m := range ms {
		seen[m.ref] = true
	}
	return len(seen)
}

// numberSign is what a number's neighbours make of it.
type numberSign int

const (
	numberCounts numberSign = iota // a quantity, an amount, or nothing said
	numberMarked                   // said to be an order's
	numberBare                     // alone at the start of a line
)

// handedAfter are the words of a delivery that, just after a number of
// three digits or more, make it the order delivered.
var handedAfter = map[string]bool{"delivered": true, "pahuncha": true, "pahunch": true, "handover": true,
	"deliver": true, "delivery": true, "supply": true, "supplied": true, "drop": true, "dropped": true}

// orderNumberAt says what makes the number entity k an order's, if
// anything does.
func orderNumberAt(r *reading, k int) numberSign {
	e := r.ents[k]
	if e.Value < 1 || strings.ContainsAny(e.ID, ".-") || len(e.ID) > 12 {
		return numberCounts
	}
	if k+1 < len(r.ents) && r.ents[k+1].Start == e.End {
		switch r.ents[k+1].Kind {
		case intent.EntityUnit, intent.EntityProduct, intent.EntitySize:
			return numberCounts // "3 carton", "2 GC"
		}
	}
	if k > 0 && r.ents[k-1].End == e.Start {
		switch r.ents[k-1].Kind {
		case intent.EntityProduct, intent.EntitySize:
			return numberCounts // "GC 500 wala", "phenyl 5"
		}
	}
	if r.moneyMark(e.Start, e.End) {
		return numberCounts
	}
	before, after := r.word(e.Start-1), r.word(e.End)
	switch {
	case orderWords[before], numberWords[before]:
		return numberMarked
	case e.Start < len(r.toks) && strings.HasSuffix(strings.TrimRight(r.source(0, r.toks[e.Start].Start), " "), "#"):
		return numberMarked
	case after == "wala":
		return numberMarked
	case len(e.ID) >= 3 && handedAfter[after] && !shortWords[before] && !onlyWords[before]:
		return numberMarked // "Rajesh bhai ko 5124 handover kiya"
	case len(e.ID) >= 3 && (joinedNumber(r, e.End, 1) || joinedNumber(r, e.Start-1, -1)):
		return numberMarked // "1871 aur 1874 dono de diye": two orders, asked one at a time
	case len(e.ID) >= 3 && givenAt(r, e.End) && !strings.HasSuffix(e.ID, "00"):
		return numberMarked // "unka 1127 de diya", "ashok bhai ne 1202 receive kar liya"
	case len(e.ID) >= 3 && e.End == len(r.toks) && givenAt(r, e.Start-2):
		return numberMarked // "sharmaji ko de diya 3342"
	case len(e.ID) >= 3 && r.lineStart(e.Start) && !shortWords[after] && !onlyWords[after]:
		return numberBare
	}
	return numberCounts
}

// givenAt reports a giving said at token i: "de diya", "diya", or a
// shop's "receive" of it; a round number given may be money ("Rajesh ko
// 5000 de diya"), so the caller leaves those out.
func givenAt(r *reading, i int) bool {
	switch r.word(i) {
	case "diya", "received":
		return true
	case "de":
		return r.word(i+1) == "diya" || r.word(i+1) == "di"
	}
	return false
}

// joinedNumber reports a joining word at token i ("aur", "and", "n")
// with a plain number of three digits or more on its far side, in the
// direction step (1 after, -1 before).
func joinedNumber(r *reading, i, step int) bool {
	if !joinWords[r.word(i)] {
		return false
	}
	j := i + step
	if j < 0 || j >= len(r.toks) || r.kind(j) != intent.EntityNumber {
		return false
	}
	id := r.ents[r.ent[j]].ID
	return len(id) >= 3 && isDigits(id)
}

// joinWords join one order's number to the next.
var joinWords = map[string]bool{"aur": true, "and": true, "n": true, "&": true}
