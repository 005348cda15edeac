package orders

import (
	"math/big"
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// How people write money in a payment message: 50000, 50,000, ₹50,000/-,
// 50k, 1.2 lakh, 1.2L, 1,20,000, "pachas hazaar", "डेढ़ लाख", "sava
// lakh", "1 lakh 20 hazaar". The normaliser already turns digits with
// Indian or Western grouping and number words (with lakh, hazaar, crore)
// into one number token; what is left is read here: a suffix glued to the
// digits ("50k", "2.5L", "1.5cr"), fractions said before the number ("sava",
// "paune", "saadhe"), and a lakh followed by its thousands.

// amountSuffixes multiply the digits they are glued to.
var amountSuffixes = map[string]int64{
	"k": 1_000, "K": 1_000, "thousand": 1_000, "hazar": 1_000, "hazaar": 1_000,
	"l": 1_00_000, "lac": 1_00_000, "lacs": 1_00_000, "lakh": 1_00_000, "lakhs": 1_00_000, "lk": 1_00_000,
	"cr": 1_00_00_000, "crore": 1_00_00_000, "crores": 1_00_00_000,
}

// fractionWords scale the number after them: "sava lakh" is 1.25 lakh.
// ("dedh", "dhai" and "saadhe" are already read by the normaliser where it
// knows them; these are the ones it leaves as words.)
var fractionWords = map[string][2]int64{ // numerator, denominator
	"sava": {5, 4}, "savva": {5, 4}, "sawa": {5, 4}, "सवा": {5, 4},
	"paune": {3, 4}, "pone": {3, 4}, "पौने": {3, 4},
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
	frac := [2]int64{1, 1}
	start := i
	if f, ok := fractionWords[r.word(i)]; ok {
		frac, i = f, i+1
	}
	if i >= len(r.toks) {
		return amount{}, false
	}
	if k := r.ent[i]; k >= 0 && r.ents[k].Kind == intent.EntityNumber && r.ents[k].Value < 0 {
		return amount{}, false // "-500" is no payment
	}
	t := r.toks[i].Text
	v, ok := decimal(t)
	end := i + 1
	if !ok {
		// Digits with a suffix glued on: "50k", "1.2l", "2cr".
		digits := strings.TrimRightFunc(t, func(c rune) bool { return c < '0' || c > '9' })
		mul, known := amountSuffixes[t[len(digits):]]
		if digits == "" || !known {
			return amount{}, false
		}
		if v, ok = decimal(digits); !ok {
			return amount{}, false
		}
		v.Mul(v, new(big.Rat).SetInt64(mul))
	} else if mul, known := amountSuffixes[r.word(end)]; known {
		// "50 k", "1.2 lac": a multiplier the normaliser left as a word.
		v.Mul(v, new(big.Rat).SetInt64(mul))
		end++
	}
	v.Mul(v, big.NewRat(frac[0], frac[1]))
	v.Mul(v, big.NewRat(100, 1)) // paise
	if !v.IsInt() || v.Num().BitLen() > 62 {
		// A fraction of a paisa is not money; round half away from zero
		// would hide a typo, so it is not read.
		if !v.IsInt() {
			return amount{}, false
		}
		return amount{paise: MaxAmount + 1, start: start, end: end}, true
	}
	return amount{paise: domain.Paise(v.Num().Int64()), start: start, end: end}, true
}

// decimal reads plain digits with at most one decimal point, exactly.
func decimal(s string) (*big.Rat, bool) {
	if s == "" || strings.Count(s, ".") > 1 || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") {
		return nil, false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && c != '.' {
			return nil, false
		}
	}
	if _, frac, ok := strings.Cut(s, "."); ok && len(frac) > 2 {
		return nil, false // 12.345 rupees is not an amount
	}
	v, ok := new(big.Rat).SetString(s)
	return v, ok
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
