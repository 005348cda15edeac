package intent

import (
	"strconv"
	"strings"
	"unicode"
)

// Numbers said in words or with fractions, and sizes written apart, made
// into the digits and sizes the rest of the reading works with.

// mergeNumbers writes numbers said in words as digits ("do sau" → "200")
// and joins sizes written apart ("500 ml" → "500ml"). A number word counts
// only before a unit or a product, or with a multiplier, because "do" is
// also "give" and "one" also "which one".
func (l *lexicon) mergeNumbers(toks []Token) []Token {
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		// English's article counts one of a unit ("a dozen", "a box"), and
		// "half a box" half of one.
		if articles[t.Text] && l.unitAt(toks, i+1) {
			out = append(out, Token{"1", t.Start, t.End})
			continue
		}
		if nw, ok := numberWords[t.Text]; ok && nw.value == 0.5 && i+2 < len(toks) && articles[toks[i+1].Text] && l.unitAt(toks, i+2) {
			out = append(out, Token{"0.5", t.Start, toks[i+1].End})
			i++
			continue
		}
		j, total, cur, mult, lastMult := i, 0.0, 0.0, false, false
		// A fraction said before a number adds to the count that comes
		// before its multiplier: "saadhe teen" is 3.5, "sava do sau" 225,
		// "paune lakh" 75,000.
		add, frac := fractionBefore[t.Text]
		if frac {
			j++
		}
		first := j
		if frac && measureAt(toks, j) {
			// "sawa litre" is 1.25 litres, "paune kilo" 0.75 kg.
			out = append(out, Token{formatNumber(1 + add), t.Start, t.End})
			continue
		}
		if j < len(toks) && isNumber(toks[j].Text) {
			if _, ok := nextMultiplier(toks, j+1); !ok && !frac {
				out = append(out, t)
				continue
			}
			cur, _ = strconv.ParseFloat(toks[j].Text, 64)
			j++
		}
		// "pachi hazaar": a multiplier after a word Munshi does not know
		// is no "one thousand"; that word may be the count, said in a
		// language the table lacks, and the amount is asked instead.
		if cur == 0 && !frac && j < len(toks) && len(out) > 0 && l.unheard(out[len(out)-1].Text) {
			if nw, ok := numberWords[toks[j].Text]; ok && nw.multiplier {
				out = append(out, t)
				continue
			}
		}
	chain:
		for ; j < len(toks); j++ {
			nw, ok := numberWords[toks[j].Text]
			switch {
			case !ok:
				break chain
			case !nw.multiplier:
				// "twenty five" and "sau pachaas" add up; "ek do" (one or
				// two) does not.
				if cur != 0 && !lastMult && !(cur >= 20 && cur < 100 && int(cur)%10 == 0 && nw.value < 10) {
					break chain
				}
				cur, lastMult = cur+nw.value, false
			case nw.value >= 1000:
				if cur == 0 {
					cur = 1
				}
				cur, add = cur+add, 0
				total, cur, mult, lastMult = total+cur*nw.value, 0, true, true
			default:
				if cur == 0 {
					cur = 1
				}
				cur, add = cur+add, 0
				cur, mult, lastMult = cur*nw.value, true, true
			}
		}
		k := j // after the count's word for things, Bhojpuri's "go": "du go peti"
		if j > first && k < len(toks) && countWords[toks[k].Text] && (l.unitAt(toks, k+1) || l.productAt(toks, k+1)) {
			k++
		}
		if j == first || !(mult || l.unitAt(toks, k) || measureAt(toks, k) || l.productAt(toks, k) || l.sizedProductAt(toks, k) && t.Text != "do") {
			out = append(out, t)
			continue
		}
		out = append(out, Token{formatNumber(total + cur + add), t.Start, toks[k-1].End})
		i = k - 1
	}
	return l.mergeSizes(out)
}

// countWords follow a count said in words before what is counted, as
// Bhojpuri's "go" does ("ek go peti", one crate).
var countWords = map[string]bool{"go": true}

// sizedProductAt reports a product's size at i and the product after it:
// "aath 1 inch brush" is eight of them. ("do 1 litre phenyl" may be "give
// one".)
func (l *lexicon) sizedProductAt(toks []Token, i int) bool {
	return i+2 < len(toks) && isNumber(toks[i].Text) && measureAt(toks, i+1) && l.productAt(toks, i+2)
}

// articles are English's "a" and "an".
var articles = map[string]bool{"a": true, "an": true}

// fractionBefore are the fractions said before a number, and what each
// adds to it: saadhe a half, sava a quarter, paune a quarter less.
var fractionBefore = map[string]float64{}

func init() {
	for _, f := range []struct {
		add   float64
		words string
	}{{0.5, "saadhe sadhe साढ़े"}, {0.25, "sava sawa सवा"}, {-0.25, "paune पौने"}} {
		for _, w := range strings.Fields(f.words) {
			fractionBefore[foldDevanagari(w)] = f.add
		}
	}
}

// mergeSizes joins a number and the measure after it: "500 ml" → "500ml".
// A measure that begins a product's name of more words is that name's,
// and the number counts it: "20 kilo wala hammer" is twenty of the hammer
// a catalog calls "kilo wala hammer".
func (l *lexicon) mergeSizes(toks []Token) []Token {
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if isNumber(t.Text) && i+1 < len(toks) {
			if m, ok := measureSuffixes[toks[i+1].Text]; ok && !l.measureNamed(toks, i+1) {
				out = append(out, Token{t.Text + m, t.Start, toks[i+1].End})
				i++
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// measureNamed reports a product's name of two words or more, spelt as
// written, that begins with the measure at i.
func (l *lexicon) measureNamed(toks []Token, i int) bool {
	m, ok := l.matchName(toks, i)
	return ok && !m.fuzzy && m.n >= 2 && m.v.kind == EntityProduct
}

func measureAt(toks []Token, i int) bool {
	if i >= len(toks) {
		return false
	}
	_, ok := measureSuffixes[toks[i].Text]
	return ok
}

func nextMultiplier(toks []Token, i int) (numberWord, bool) {
	if i >= len(toks) {
		return numberWord{}, false
	}
	nw, ok := numberWords[toks[i].Text]
	return nw, ok && nw.multiplier
}

// unheard reports a word of letters that no training message, name,
// unit or number has: Munshi cannot tell what it says.
func (l *lexicon) unheard(w string) bool {
	if l.known == nil || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) }) >= 0 {
		return false
	}
	if _, ok := l.known[w]; ok {
		return false
	}
	if _, ok := l.words[w]; ok {
		return false
	}
	_, unit := l.units[w]
	_, number := numberWords[w]
	return !unit && !number && !reservedWord(w)
}
