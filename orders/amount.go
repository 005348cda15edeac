package orders

import (
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// How people write money in a payment message: 50000, 50,000, ₹50,000/-,
// 50k, 1.2 lakh, 1.2L, 1,20,000, "pachas hazaar", "डेढ़ लाख", "sava
// lakh", "1 lakh 20 hazaar". The normaliser already turns digits with
// Indian or Western grouping, number words (with hazaar and lakh), and
// "25k" or "2lakh" into one number token; what is left is read here: the
// suffixes only money has ("2.5L" is lakh here, litres elsewhere; "1.5cr"),
// a multiplier left as a word ("50 k", "2 crore"), fractions said before
// the number ("sava", "paune"), and a lakh followed by its thousands.

// amountSuffixes multiply the digits they are glued to, or follow as a word.
var amountSuffixes = map[string]int64{
	"k": 1_000, "thousand": 1_000, "hazar": 1_000, "hazaar": 1_000,
	"l": 1_00_000, "lac": 1_00_000, "lacs": 1_00_000, "lakh": 1_00_000, "lakhs": 1_00_000, "lk": 1_00_000,
	"cr": 1_00_00_000, "crore": 1_00_00_000, "crores": 1_00_00_000,
}

// fractionWords add quarters to the count before the multiplier after
// them: "sava 2 crore" is 2¼ crore, "paune 2 crore" 1¾. (The normaliser
// already reads them, and "saadhe", before a number word and before
// "lakh" or "hazaar"; these are what it leaves.)
var fractionWords = map[string]int64{ // quarters added
	"sava": 1, "savva": 1, "sawa": 1, "सवा": 1,
	"paune": -1, "pone": -1, "पौने": -1,
	"saadhe": 2, "sadhe": 2, "साढे": 2,
}

// MaxAmount bounds one payment: more is a typo, not a payment (₹100 crore).
const MaxAmount = domain.Paise(100_00_00_000 * 100)

// amount is a sum of money read from a message, and where it was.
type amount struct {
	paise      domain.Paise
	start, end int  // tokens
	marked     bool // beside ₹, rs, rupees or /-: certainly money
}

// ParseAmount reads one sum of money in rupees written in any of the ways
// above, the whole text being that amount ("₹1,20,000", "1.2 lakh",
// "pachas hazaar"). It is exact to the paisa: no floating point.
func ParseAmount(text string) (domain.Paise, bool) {
	n := intent.Normalize(text)
	r := newReading(text, n)
	as := amounts(r)
	if len(as) != 1 {
		return 0, false
	}
	// Everything else must be a currency word.
	for i, t := range r.toks {
		if (i < as[0].start || i >= as[0].end) && !currencyWords[t.Text] {
			return 0, false
		}
	}
	return as[0].paise, true
}

// currencyWords say that a number is money.
var currencyWords = map[string]bool{"rupees": true, "rupee": true, "rs": true, "inr": true, "₹": true,
	"rupaye": true, "rupaiye": true, "rupya": true, "रुपये": true, "रुपए": true, "रुपया": true, "only": true, "/-": true}

// amounts finds every sum of money in a reading, in order.
func amounts(r *reading) []amount {
	var out []amount
	for i := 0; i < len(r.toks); i++ {
		a, ok := r.amountAt(i)
		if !ok {
			continue
		}
		// "1 lakh 20 hazaar": a round lakh (or crore) followed at once by
		// a smaller round thousand is one amount.
		for a.end < len(r.toks) {
			b, ok := r.amountAt(a.end)
			if !ok || a.paise%(1_00_000*100) != 0 || b.paise >= 1_00_000*100 || b.paise%(1_000*100) != 0 || b.paise == 0 {
				break
			}
			a.paise, a.end = a.paise+b.paise, b.end
		}
		if a.paise <= 0 || a.paise > MaxAmount {
			i = a.end - 1
			continue
		}
		a.marked = a.marked || r.moneyMark(a.start, a.end)
		out = append(out, a)
		i = a.end - 1
	}
	return out
}

// amountAt reads an amount starting at token i: a number, with the
// fraction word before it or the multiplier after it.
func (r *reading) amountAt(i int) (amount, bool) {
	quarters, frac := fractionWords[r.word(i)]
	start := i
	if frac {
		i++
	}
	if i >= len(r.toks) {
		return amount{}, false
	}
	if k := r.ent[i]; k >= 0 && r.ents[k].Kind == intent.EntityNumber && r.ents[k].Value < 0 {
		return amount{}, false // "-500" is no payment
	}
	t, end := r.toks[i].Text, i+1
	mul, spaced := amountSuffixes[r.word(end)] // "50 k", "2 crore": left as a word
	if spaced {
		end++
	} else if digits := strings.TrimRightFunc(t, func(c rune) bool { return c < '0' || c > '9' }); digits != t {
		// Digits with a suffix glued on: "1.2l", "2cr".
		glued, ok := amountSuffixes[t[len(digits):]]
		if !ok {
			return amount{}, false
		}
		mul, t = glued, digits
	} else {
		mul = 1
	}
	if t == "" || t[0] == '.' || strings.Trim(t, "0123456789.") != "" {
		return amount{}, false // only plain digits reach ParseRupees: no sign, no ₹
	}
	p, err := domain.ParseRupees(t)
	if err != nil || p <= 0 {
		return amount{}, false // 12.345 rupees is not an amount
	}
	if frac {
		// A quarter of what the multiplier counts: without one ("sava
		// 500") the fraction says nothing sure.
		if mul == 1 || p+25*domain.Paise(quarters) <= 0 {
			return amount{}, false
		}
		p += 25 * domain.Paise(quarters)
	}
	if p > MaxAmount/domain.Paise(mul) {
		return amount{paise: MaxAmount + 1, start: start, end: end}, true
	}
	return amount{paise: p * domain.Paise(mul), start: start, end: end}, true
}

// moneyMark reports whether tokens [a, b) are written as money: after ₹ or
// rs, or followed by rupees or "/-".
func (r *reading) moneyMark(a, b int) bool {
	if currencyWords[r.word(a-1)] || currencyWords[r.word(b)] {
		return true
	}
	if a < len(r.toks) {
		before := strings.TrimRight(r.source(r.toks[a].Start-3, r.toks[a].Start), " ")
		if strings.HasSuffix(before, "₹") || strings.HasSuffix(strings.ToLower(before), "rs") || strings.HasSuffix(strings.ToLower(before), "rs.") {
			return true
		}
	}
	if b-1 < len(r.toks) && b > 0 {
		if strings.HasPrefix(r.source(r.toks[b-1].End, r.toks[b-1].End+2), "/-") {
			return true
		}
	}
	return false
}
