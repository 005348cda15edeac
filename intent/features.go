package intent

import (
	"math"
	"unicode/utf8"
)

// Placeholders stand for entities in the shape of a message, so that the
// rules and the model learn "NUM UNIT PRODUCT bhejo" rather than one
// distributor's product names.
const (
	phProduct  = "PRODUCT"
	phCustomer = "CUSTOMER"
	phUnit     = "UNIT"
	phNumber   = "NUM"
	phSize     = "SIZE"
	phOrderRef = "ORDERREF"
)

var placeholders = map[EntityKind]string{
	EntityProduct: phProduct, EntityCustomer: phCustomer, EntityUnit: phUnit,
	EntityNumber: phNumber, EntitySize: phSize, EntityOrderRef: phOrderRef,
}

// shapeOf is the message as the rules and the model read it: canonical
// words, each entity replaced by its placeholder.
func shapeOf(n Normalized, buf []string) []string {
	e := 0
	for i := 0; i < len(n.Tokens); i++ {
		if e < len(n.Entities) && n.Entities[e].Start == i && n.Entities[e].Weak && !addressed(n, n.Entities[e]) {
			e++ // a weak name reads as its words
		}
		if e < len(n.Entities) && n.Entities[e].Start == i {
			buf = append(buf, placeholders[n.Entities[e].Kind])
			i = n.Entities[e].End - 1
			e++
			continue
		}
		buf = append(buf, n.Tokens[i].Text)
	}
	if moneySizes(buf) {
		for i, w := range buf {
			if w == phSize {
				buf[i] = phNumber
			}
		}
	}
	// "boss ka no. plz": someone's "no" is their number, never a no.
	for i := 1; i < len(buf); i++ {
		if buf[i] == "no" && ofWords[buf[i-1]] && (i+1 == len(buf) || !isPlaceholder(buf[i+1])) {
			buf[i] = "number"
		}
	}
	return buf
}

// addressed reports a weak name that goods are for: a customer's name
// made of greeting words and then a word of whom an order is for
// ("Shree Ram ko 30 FAG 6306", "shree ram ne 100 nbc 6202 mokli do").
// Said alone, "Shree Ram" is a greeting.
func addressed(n Normalized, e Entity) bool {
	return e.Kind == EntityCustomer && e.End < len(n.Tokens) && forWhom[n.Tokens[e.End].Text] && n.Has(EntityProduct)
}

var forWhom = words("ko ne keliye ke la ge lai ku")

// moneySizes reports sizes that are amounts of money: "Mehta 1.2L RTGS
// recd" is 1.2 lakh, as the payment reader reads it, when a way of paying
// is named and no product or unit.
func moneySizes(shape []string) bool {
	size, mode := false, false
	for _, w := range shape {
		switch {
		case w == phProduct || w == phUnit:
			return false
		case w == phSize:
			size = true
		case modeWords[w]:
			mode = true
		}
	}
	return size && mode
}

func isPlaceholder(w string) bool { return w != "" && w[0] >= 'A' && w[0] <= 'Z' }

// feature is one hashed feature of a message and its value.
type feature struct {
	h uint64
	v float32
}

// Feature groups and their weights. Words and word pairs carry most of the
// meaning; character n-grams of the words that are not entities let the
// model read typos and unseen inflections ("stok", "outstandng"), at a
// lower weight so they do not outvote the words.
const (
	weightWord  = 1.0
	weightPair  = 1.0
	weightChars = 0.35
	weightShape = 0.8
)

// unseenName stands, in training only, for a name the vocabulary does not
// know: like a word the model never saw, it adds only the rare-word feature.
const unseenName = ""

// rareWord is the feature of a word seen at most once in training. Words
// outside Munshi's business are mostly rare ("myntra", "छुट्टी"), so it
// teaches the model that a message full of strangers is likely unknown.
var rareWord = hash1('r', "RARE")

// extract turns a shape into L2-normalised hashed features. common holds
// the words seen in two training messages or more.
func extract(shape []string, question bool, common map[string]bool, out []feature) []feature {
	prev := "<s>"
	for _, w := range shape {
		if w == unseenName {
			out = append(out, feature{rareWord, weightWord})
			prev = w
			continue
		}
		if !isPlaceholder(w) && !common[w] {
			out = append(out, feature{rareWord, weightWord})
		}
		out = append(out, feature{hash1('w', w), weightWord})
		if prev != unseenName {
			out = append(out, feature{hash2('b', prev, w), weightPair})
		}
		if !isPlaceholder(w) {
			out = charGrams(w, out)
		}
		prev = w
	}
	if prev != unseenName {
		out = append(out, feature{hash2('b', prev, "</s>"), weightPair})
	}

	var products, customers, numUnit, numProduct int
	for i, w := range shape {
		switch w {
		case phProduct:
			products++
			if i > 0 && (shape[i-1] == phNumber || shape[i-1] == phUnit) {
				numProduct++
			}
		case phCustomer:
			customers++
		case phUnit:
			if i > 0 && shape[i-1] == phNumber {
				numUnit++
			}
		}
	}
	out = append(out, feature{hash1('l', lengthBucket(len(shape))), weightShape})
	if question {
		out = append(out, feature{hash1('q', "?"), weightShape})
	}
	if products > 1 {
		out = append(out, feature{hash1('e', "products>1"), weightShape})
	}
	if numUnit > 0 {
		out = append(out, feature{hash1('e', "NUM+UNIT"), weightShape})
	}
	if numProduct > 0 {
		out = append(out, feature{hash1('e', "NUM+PRODUCT"), weightShape})
	}
	if customers > 0 && products > 0 {
		out = append(out, feature{hash1('e', "CUSTOMER&PRODUCT"), weightShape})
	}

	var norm float64
	for _, f := range out {
		norm += float64(f.v) * float64(f.v)
	}
	if norm > 0 {
		s := float32(1 / math.Sqrt(norm))
		for i := range out {
			out[i].v *= s
		}
	}
	return out
}

func lengthBucket(n int) string {
	switch {
	case n <= 1:
		return "1"
	case n == 2:
		return "2"
	case n <= 4:
		return "3-4"
	case n <= 8:
		return "5-8"
	}
	return "9+"
}

// charGrams adds the 3- and 4-letter n-grams of ^word$.
func charGrams(w string, out []feature) []feature {
	var buf [40]rune
	rs := append(buf[:0], '^')
	for _, r := range w {
		rs = append(rs, r)
	}
	rs = append(rs, '$')
	if len(rs) > len(buf) { // very long words are noise, not vocabulary
		return out
	}
	for n := 3; n <= 4; n++ {
		for i := 0; i+n <= len(rs); i++ {
			out = append(out, feature{hashRunes(rs[i : i+n]), weightChars})
		}
	}
	return out
}

const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

func hash1(kind byte, a string) uint64 {
	h := (fnvOffset ^ uint64(kind)) * fnvPrime
	for i := 0; i < len(a); i++ {
		h = (h ^ uint64(a[i])) * fnvPrime
	}
	return h
}

func hash2(kind byte, a, b string) uint64 {
	h := hash1(kind, a)
	h = (h ^ 0xff) * fnvPrime // separator no UTF-8 byte takes
	for i := 0; i < len(b); i++ {
		h = (h ^ uint64(b[i])) * fnvPrime
	}
	return h
}

func hashRunes(rs []rune) uint64 {
	h := fnvOffset ^ 'c'
	h *= fnvPrime
	var b [4]byte
	for _, r := range rs {
		n := utf8.EncodeRune(b[:], r)
		for i := 0; i < n; i++ {
			h = (h ^ uint64(b[i])) * fnvPrime
		}
	}
	return h
}
