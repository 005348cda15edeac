package intent

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// EntityKind says what a recognised span of a message names.
type EntityKind string

const (
	EntityProduct  EntityKind = "product"
	EntityCustomer EntityKind = "customer"
	EntityUnit     EntityKind = "unit"      // carton, box, dozen… (ID is the canonical unit)
	EntityNumber   EntityKind = "number"    // a quantity in digits or words (ID is its digits, "-5" when negative)
	EntitySize     EntityKind = "size"      // a pack size such as 500ml or 1kg
	EntityOrderRef EntityKind = "order_ref" // ORDER-123, a draft's DRAFT-57 or a proposal's PRP-12 (ID is the reference as written, upper-cased)
)

// Token is one canonical word of a message and where it came from.
type Token struct {
	Text       string // canonical spelling: "theek", "bhejo", "carton", "5"
	Start, End int    // byte offsets of the source in the original message
}

// Entity is a span of tokens that names something Munshi knows.
type Entity struct {
	Kind EntityKind
	// ID is the product's SKU, the customer's ID, the canonical unit, the
	// number in digits or the order reference.
	ID string
	// IDs lists every candidate when a name is shared (two customers both
	// called Gupta); the order parser asks which one. Read-only.
	IDs []string
	// Kin are other products whose names shorten to a product's alias
	// (the other sizes of a brand whose one size is called by it): an
	// order means IDs, a question about stock reads Kin too. Read-only.
	Kin  []string
	Text string // the canonical tokens matched
	// Value is the quantity, for numbers: negative when written with a
	// minus ("-5", "−5", "minus 5"), which no order can mean.
	Value float64
	// Start and End are token indexes: the entity is Tokens[Start:End].
	Start, End int
	// Fuzzy is set when the name matched with one typo ("phenl").
	Fuzzy bool
	// Weak is set on a customer's name made only of greeting words ("Ram",
	// "Shree Krishna"): the order parser and the questions read the name,
	// routing reads the words, so "ram ram bhai" stays a greeting.
	Weak bool
}

// Candidates are what the entity may mean: its one ID, or every ID of a
// shared name. Read-only.
func (e Entity) Candidates() []string {
	if len(e.IDs) == 0 {
		return []string{e.ID}
	}
	return e.IDs
}

// Normalized is a message in canonical form with the entities it names.
type Normalized struct {
	Text     string // canonical tokens joined by single spaces
	Tokens   []Token
	Entities []Entity
	Question bool // the message asked something: it had a question mark
}

// Has reports whether the message names an entity of kind k.
func (n Normalized) Has(k EntityKind) bool {
	for _, e := range n.Entities {
		if e.Kind == k {
			return true
		}
	}
	return false
}

// Normalize puts text in canonical form and recognises units, numbers,
// sizes and order references. It knows no catalog: products and customers
// are recognised by a Router's Normalize, built with a Vocabulary.
func Normalize(text string) Normalized {
	return emptyLexicon.normalize(text)
}

var emptyLexicon = mustLexicon(Vocabulary{})

func (l *lexicon) normalize(text string) Normalized { return l.read(text, false, Normalized{}) }

// hear is normalize for a message read against what Munshi asked or
// showed: a Devanagari word nobody listed is also tried as the catalog
// word it sounds like ("हार्पिक हटा दो"). A fresh message is first read
// without the guess, since every name in the catalog is a candidate
// there; it is read with it only for a record or a question (byHearing).
func (l *lexicon) hear(text string) Normalized { return l.read(text, true, Normalized{}) }

// hearAround is hear that leaves the names a first reading found as
// they were read: "शिव शक्ति", a customer's Devanagari name, stays that
// customer though "शक्ति" alone sounds like the Latin "Shakti".
func (l *lexicon) hearAround(text string, first Normalized) Normalized {
	return l.read(text, true, first)
}

// hearBest is hear, or hearAround first when that finds more names:
// heard whole, a name of the first reading was lost.
func (l *lexicon) hearBest(text string, first Normalized) Normalized {
	h := l.hear(text)
	if namesIn(first) == 0 {
		return h // no name to keep: hearAround would read it the same
	}
	if around := l.hearAround(text, first); namesMore(around, h) {
		return around
	}
	return h
}

func (l *lexicon) read(text string, bySound bool, keep Normalized) Normalized {
	raw := splitWords(text, make([]rawWord, 0, 16))
	raw = joinOrderRefs(text, raw, l.knows)
	raw = l.joinInitials(raw)
	var sounds *soundIndex
	if bySound {
		sounds = &l.sounds
	}
	var kept [][2]int // byte spans of the names keep found
	for _, e := range keep.Entities {
		if (e.Kind == EntityProduct || e.Kind == EntityCustomer) && e.Start < e.End && e.End <= len(keep.Tokens) {
			kept = append(kept, [2]int{keep.Tokens[e.Start].Start, keep.Tokens[e.End-1].End})
		}
	}
	toks := canonicalise(raw, l, sounds, kept, make([]Token, 0, len(raw)+4))
	toks = l.joinLetters(toks)
	toks = mergePhrases(toks)
	toks = l.mergeNumbers(toks)
	n := Normalized{Tokens: toks, Question: strings.ContainsAny(text, "?？")}
	n.Entities = l.findEntities(text, toks)
	signNumbers(text, toks, n.Entities)
	n.Text, n.Entities = joinText(toks, n.Entities)
	return n
}

// signNumbers makes negative the numbers written with a minus: "-5", "−5",
// "− 5", "minus 5". Only the entity changes; the tokens and the text stay
// as they were, so routing reads the message as before.
func signNumbers(text string, toks []Token, ents []Entity) {
	for k := range ents {
		if e := &ents[k]; e.Kind == EntityNumber && negative(text, toks, e.Start) {
			e.Value, e.ID = -e.Value, "-"+e.ID
		}
	}
}

// minusWords say "minus" before a number.
var minusWords = map[string]bool{"minus": true, "माइनस": true}

// negative reports whether the number at token i is written with a minus.
// A dash is a minus only tight against the digits and not after a word or
// a number: "5-6 carton" is a range, "GC-500" an SKU, "ORD-1042" an order,
// "12-11-2026" a date, "+91-98100-00001" a phone number, and "GC - 5 ctn"
// or a bullet "- 5 ctn" only set the number apart. The minus sign itself
// (U+2212, ➖) may stand apart from the digits.
func negative(text string, toks []Token, i int) bool {
	if i > 0 && minusWords[toks[i-1].Text] {
		return true
	}
	head := text[:min(toks[i].Start, len(text))]
	if t := strings.TrimRight(head, " "); strings.HasSuffix(t, "−") || strings.HasSuffix(t, "➖") {
		head = t
	}
	r, size := utf8.DecodeLastRuneInString(head)
	if !minusSign(r) {
		return false
	}
	head = head[:len(head)-size]
	if b, _ := utf8.DecodeLastRuneInString(head); head != "" && (isWordRune(b) || minusSign(b)) {
		return false
	}
	// "5 -6 carton" is a range too.
	prev, _ := utf8.DecodeLastRuneInString(strings.TrimRight(head, " "))
	return !unicode.IsDigit(prev)
}

// minusSign reports the hyphens, dashes and minus signs people type before
// a negative number.
func minusSign(r rune) bool {
	switch r {
	case '-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\u2796', '\uFE63', '\uFF0D':
		return true
	}
	return false
}

// countClassifiers follow a count in Bengali as Hindi's "piece" does
// ("২টা", "৬টো"), read as Devanagari.
var countClassifiers = map[string]bool{"टा": true, "टो": true}

// canonicalise gives every raw word its canonical spelling, splits numbers
// glued to units ("5ctn") and keeps sizes ("500ml") as one word.
func canonicalise(raw []rawWord, l *lexicon, sounds *soundIndex, kept [][2]int, out []Token) []Token {
	for i, rw := range raw {
		w := foldDevanagari(rw.text)
		if w == "" { // a lone nukta
			continue
		}
		switch {
		case strings.HasPrefix(w, "order-"), strings.HasPrefix(w, "draft-"), strings.HasPrefix(w, "prp-"), isBooksRef(w):
		case laughter(squeeze(w)) || w == "ha" && (i > 0 && raw[i-1].text == "ha" || i+1 < len(raw) && raw[i+1].text == "ha"):
			// "ha ha ha" and "hahaha" are laughter, never a yes.
			w = "haha"
		case w == "ha" && i == 0:
			// "ha theek hai": yes. Later in a message "ha" is "hai".
			w = "haan"
		case w == "ha":
			w = "hai"
		case w[0] >= '0' && w[0] <= '9':
			if digits, rest, ok := splitCount(w); ok {
				if m, ok := measureSuffixes[rest]; ok {
					w = digits + m
				} else if scale, ok := amountSuffixes[rest]; ok {
					w = scaled(digits, scale)
				} else if rest == "x" || countClassifiers[rest] {
					w = digits // "২টা ভাঙা": two of them broken
				} else if _, ok := l.unitFor(rest); ok {
					out = append(out, Token{digits, rw.start, rw.end}, Token{rest, rw.start, rw.end})
					continue
				}
			}
		default:
			w = squeeze(w) // before the currency: "rsss0" read again is "rs0"
			if n, ok := rupeesGlued(w); ok {
				// "rs500", "inr5000": the currency and the amount.
				out = append(out, Token{"rupees", rw.start, rw.end}, Token{n, rw.start, rw.end})
				continue
			}
			if c, ok := canonicalWords[w]; ok {
				for _, cw := range c {
					out = append(out, Token{cw, rw.start, rw.end})
				}
				continue
			}
			// After a count, a unit misspelt as said: "20 bundel", "2
			// bundal".
			if len(out) > 0 && counted(out[len(out)-1].Text) {
				if u, ok := l.unitMisspelt(w); ok {
					out = append(out, Token{u, rw.start, rw.end})
					continue
				}
			}
			// A Devanagari word no table or name lists: the Hinglish word
			// it is written for, or, read against what Munshi asked, the
			// catalog word it sounds like.
			if w[0] >= 0x80 {
				_, listed := l.words[w]
				if !listed {
					if letters, ok := lettersListed(w, l.words); ok {
						out = append(out, Token{letters, rw.start, rw.end}) // "जीसी", GC
						continue
					}
					if latin, ok := latinFor(w); ok {
						for _, cw := range strings.Fields(latin) {
							out = append(out, Token{cw, rw.start, rw.end})
						}
						continue
					}
					// Heard, a name with its case ending: "बरुवालै", to Baruah.
					if sounds != nil && !within(kept, rw.start) {
						if stem, ok := l.nameStem(w, sounds); ok {
							w = stem
						}
					}
					// After a count, a unit said in another script: "30
					// ಬಾಕ್ಸ್" is 30 boxes, "ಮೂರು ಬಾಕ್ಸ್" three.
					if len(out) > 0 && counted(out[len(out)-1].Text) && !counted(w) {
						if _, unit := l.unitFor(w); !unit {
							if one, ok := unitSingular(w); ok {
								if _, unit := l.unitFor(one); unit {
									out = append(out, Token{one, rw.start, rw.end})
									continue
								}
							}
							if u, ok := l.unitHeard(w); ok {
								out = append(out, Token{u, rw.start, rw.end})
								continue
							}
						}
					}
				}
				// Heard, a listed word too: "क्लीनर" of the catalog's
				// "ग्लास क्लीनर" is also the "cleaner" of its Floor
				// Cleaner.
				if sounds != nil && !within(kept, rw.start) {
					if latin, ok := sounds.sounds(w); ok {
						w = latin // "हार्पिक" for a catalog's Harpic
					}
				}
			}
		}
		out = append(out, Token{w, rw.start, rw.end})
	}
	return out
}

// within reports a byte offset inside one of spans.
func within(spans [][2]int, at int) bool {
	for _, s := range spans {
		if at >= s[0] && at < s[1] {
			return true
		}
	}
	return false
}

// amountSuffixes scale an amount glued to them: "25k" is 25000, "2lakh"
// 200000. "2l" stays two litres.
var amountSuffixes = map[string]float64{"k": 1e3, "lakh": 1e5, "lac": 1e5, "lakhs": 1e5, "lacs": 1e5}

func scaled(digits string, scale float64) string {
	v, err := strconv.ParseFloat(digits, 64)
	if err != nil {
		return digits
	}
	return formatNumber(v * scale)
}

// rupeesGlued reads "rs500" and "inr5000": an amount with its currency.
func rupeesGlued(w string) (string, bool) {
	for _, p := range [...]string{"rs", "inr"} {
		if n, ok := strings.CutPrefix(w, p); ok && isNumber(n) {
			return n, true
		}
	}
	return "", false
}

// laughter reports "haha", "hahaha", "hehe", "lol" and the like.
func laughter(w string) bool {
	switch w {
	case "lol", "lmao", "rofl", "hihi":
		return true
	}
	if len(w) < 4 || len(w)%2 != 0 || w[0] != 'h' || (w[1] != 'a' && w[1] != 'e') {
		return false
	}
	for i := 0; i < len(w); i += 2 {
		if w[i:i+2] != w[:2] {
			return false
		}
	}
	return true
}

// mergePhrases joins two-word spellings of one word ("bhej do" → "bhejo"),
// repeatedly, so that "dikha do na" and "dikhao" read alike.
func mergePhrases(toks []Token) []Token {
	out := toks[:0]
	for i := 0; i < len(toks); i++ {
		cur := toks[i]
		for i+1 < len(toks) {
			m, ok := phrasePairs[[2]string{cur.Text, toks[i+1].Text}]
			if !ok || i+2 < len(toks) && phraseUndone[m][toks[i+2].Text] {
				break
			}
			cur = Token{m, cur.Start, toks[i+1].End}
			i++
		}
		out = append(out, cur)
	}
	return out
}

// phraseUndone are the words after a phrase that make it two words again:
// "phone pe" is PhonePe ("4 hazar phone pe kiya"), but "phone pe bola",
// "phone pe baat karwa do", "phone pe koi milta nahi" are said on the
// phone, and an order told so is not paid by UPI.
var phraseUndone = map[string]map[string]bool{
	"phonepe": words("bola bole bata baat haan seedha nahi koi"),
}

// joinText builds Normalized.Text and points each entity's Text into it.
func joinText(toks []Token, ents []Entity) (string, []Entity) {
	size := 0
	for _, t := range toks {
		size += len(t.Text) + 1
	}
	var b strings.Builder
	b.Grow(size)
	starts := make([]int, len(toks)+1)
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		starts[i] = b.Len()
		b.WriteString(t.Text)
	}
	starts[len(toks)] = b.Len() + 1
	text := b.String()
	for i := range ents {
		e := &ents[i]
		e.Text = text[starts[e.Start] : starts[e.End]-1]
	}
	return text, ents
}

// counted reports a count, in digits or in a word ("मूरु", three).
func counted(w string) bool {
	if isNumber(w) {
		return true
	}
	_, ok := numberWords[w]
	return ok
}
