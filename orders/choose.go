package orders

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// How an answer picks one of the options a question offered: by a name
// the normaliser knows, by its id, by position ("dusra", "2"), by a size
// ("5 litre wala", "1L", "bada wala"), or by the words that tell it from
// the others ("bros", "medical wala").

// pickCustomer reads which customer an answer names. Among options (none
// offered: any customer), it returns the one chosen, or, when the answer
// names a name several share, those customers (more) to ask about.
func (p *Parser) pickCustomer(n intent.Normalized, options []string) (id string, more []string, ok bool) {
	allowed := func(id string) bool { return len(options) == 0 || contains(options, id) }
	found := map[string]bool{}
	var sets [][]string
	for _, e := range n.Entities {
		if e.Kind != intent.EntityCustomer {
			continue
		}
		if turnedDown(n, e) {
			continue // "Rajesh nahi, Balaji", "galti se Shivam likh diya"
		}
		var set []string
		for _, c := range e.Candidates() {
			if allowed(c) {
				set = append(set, c)
			}
		}
		if len(set) > 0 {
			sets = append(sets, set)
		}
	}
	for _, s := range unsettled(sets) {
		for _, c := range s {
			found[c] = true
		}
	}
	switch {
	case len(found) == 1:
		for c := range found {
			return c, nil, true
		}
	case len(found) > 1:
		if len(options) > 0 {
			if c, ok := p.chooseCustomer(n, keys(found)); ok {
				return c, nil, true
			}
		}
		return "", keys(found), true
	}
	// An id as written: "C04".
	for _, t := range n.Tokens {
		if c := strings.ToUpper(t.Text); p.customers[c].ID != "" && allowed(c) {
			return c, nil, true
		}
	}
	if len(options) > 0 {
		if c, ok := p.chooseCustomer(n, options); ok {
			return c, nil, true
		}
	}
	return "", nil, false
}

// namesOfOptions reports that every product an answer names is read
// off words of the customers offered: "feed store wala" of Garg Feed
// Store, when the catalog sells cattle feed.
func (p *Parser) namesOfOptions(n intent.Normalized, options []string) bool {
	var names [][]string
	for _, id := range options {
		c := p.customers[id]
		for _, name := range append([]string{c.Name}, c.Aliases...) {
			var ws []string
			for _, t := range intent.Normalize(name).Tokens {
				ws = append(ws, t.Text)
			}
			names = append(names, ws)
		}
	}
	for _, e := range n.Entities {
		if e.Kind != intent.EntityProduct {
			continue
		}
		if !slices.ContainsFunc(names, func(ws []string) bool {
			for i := e.Start; i < e.End; i++ {
				if !slices.Contains(ws, n.Tokens[i].Text) {
					return false
				}
			}
			return true
		}) {
			return false
		}
	}
	return true
}

func (p *Parser) chooseCustomer(n intent.Normalized, options []string) (string, bool) {
	cs := make([]choice, len(options))
	for i, id := range options {
		c := p.customers[id]
		cs[i] = choice{id: id, names: append([]string{c.Name}, c.Aliases...)}
	}
	return choose(n, cs)
}

// pickProduct reads which of the products offered an answer means.
func (p *Parser) pickProduct(n intent.Normalized, options []string) (string, bool) {
	named := map[string]bool{}
	for _, skus := range keptNames(n) {
		for _, sku := range skus {
			if contains(options, sku) {
				named[sku] = true
			}
		}
	}
	if len(named) == 1 {
		return keys(named)[0], true
	}
	cs := make([]choice, len(options))
	for i, sku := range options {
		prod := p.products[sku]
		cs[i] = choice{id: sku, names: append([]string{prod.Name}, prod.Aliases...), sizes: p.sizes[sku], price: prod.Price}
	}
	if len(named) > 1 {
		// The shared name again, with a word that tells them apart.
		var narrowed []choice
		for _, c := range cs {
			if named[c.id] {
				narrowed = append(narrowed, c)
			}
		}
		cs = narrowed
	}
	return choose(n, cs)
}

// choice is one option as an answer may name it.
type choice struct {
	id    string
	names []string
	sizes []measure
	price domain.Paise // a product's, for "45 wala"; 0 for others
}

// positions name an option by its place in the question.
var positions = map[string]int{
	"pehla": 0, "pehli": 0, "pehle": 0, "first": 0, "1st": 0, "prothom": 0,
	"dusra": 1, "dusri": 1, "doosra": 1, "second": 1, "2nd": 1, "पहला": 0, "दूसरा": 1,
	// Kannada's first, Malayalam's second, Bengali's "প্রথমটা" (the first one).
	"modaladu": 0, "randamathe": 1, "प्रथमटा": 0,
	// Marwari's "pehlo", Telugu's "modatidi", Tamil's "rendavadhu".
	"pehlo": 0, "modatidi": 0, "rendavadhu": 1,
	// Gujarati's "pelu" and "bijo", Kannada's "modalnedu" and "ಎರಡನೇದು",
	// Marathi's "दुसरा", Urdu's "دوسرا".
	"pelu": 0, "bijo": 1, "modalnedu": 0, "एरडनेदु": 1, "दुसरा": 1, "دوسرا": 1,
	// Bengali's "ditio" (second); Gujarati's "pehlu", Konkani's "pailo",
	// Chhattisgarhi's "pahili", Tamil's "mudhal" ("mudhal onnu", the
	// first one), Punjabi's "dooja".
	"ditio": 1, "pehlu": 0, "pailo": 0, "pahili": 0, "mudhal": 0, "dooja": 1,
	// Marwari's and Malwi's "doosro" and "dusro".
	"doosro": 1, "dusro": 1,
	"teesra": 2, "3rd": 2,
	"last": -1, "aakhri": -1,
}

// sizeWords pick the largest or smallest size on offer.
var sizeWords = map[string]int{"bada": 1, "big": 1, "chhota": -1, "small": -1, "chhoti": -1, "chhoto": -1, "बड़ा": 1, "बडा": 1}

// answerFillers carry no choice: "woh 5 litre wala chahiye", "sabse
// chhota", Bengali's "prothom ta" (the first one).
var answerFillers = words(`wala wali wale vala waala waali walo sa one the ji bhai ka ke ki ko se hai hain hoga ta tum sabse sobcheye
	woh wo ye yeh is it that this please pls i want chahiye for liye keliye option number no
	sahi haan ha yes bhejo bhej do de dena karo kar lo lena order onnu`)

// choose picks the one option an answer means, or reports false.
func choose(n intent.Normalized, cs []choice) (string, bool) {
	if len(cs) == 0 {
		return "", false
	}
	var said []string
	for _, t := range n.Tokens {
		if !answerFillers[t.Text] {
			said = append(said, t.Text)
		}
	}
	// By position, alone: "dusra", "2", "second one", or with a word
	// every option shares ("second wale sharma").
	if len(said) > 1 {
		var own []string
		for _, w := range said {
			if !sharedByAll(w, cs) {
				own = append(own, w)
			}
		}
		if len(own) == 1 {
			if _, ok := positions[own[0]]; ok {
				said = own
			}
		}
	}
	if len(said) == 1 {
		if k, ok := positions[said[0]]; ok {
			if k < 0 {
				k = len(cs) - 1
			}
			if k < len(cs) {
				return cs[k].id, true
			}
		}
		if k, err := strconv.Atoi(said[0]); err == nil && k >= 1 && k <= len(cs) && len(cs) <= 9 {
			return cs[k-1].id, true
		}
	}
	// By id: "C04", "ph5l".
	for _, w := range said {
		for _, c := range cs {
			if strings.EqualFold(w, c.id) {
				return c.id, true
			}
		}
	}
	if id, ok := chooseBySize(n, said, cs); ok {
		return id, true
	}
	if id, ok := chooseByPrice(n, cs); ok {
		return id, true
	}
	return chooseByWords(said, cs)
}

// chooseByPrice picks the one option sold at a price the answer says:
// "45 wala", "345 wala", "30 rupay kilo wala".
func chooseByPrice(n intent.Normalized, cs []choice) (string, bool) {
	hit := ""
	for _, e := range n.Entities {
		if e.Kind != intent.EntityNumber || e.Value <= 0 {
			continue
		}
		for _, c := range cs {
			if soldAt(c.price, e.Value) {
				if hit != "" && hit != c.id {
					return "", false
				}
				hit = c.id
			}
		}
	}
	return hit, hit != ""
}

// chooseBySize picks the option of the size an answer writes, or the
// largest or smallest one it asks for.
func chooseBySize(n intent.Normalized, said []string, cs []choice) (string, bool) {
	var want []measure
	for _, e := range n.Entities {
		switch e.Kind {
		case intent.EntitySize: // the normaliser writes "5 litre" as 5l
			if m, ok := parseMeasure(e.ID); ok {
				want = append(want, m)
			}
		}
	}
	var hit []string
	for _, c := range cs {
		for _, s := range c.sizes {
			for _, w := range want {
				if s == w {
					hit = append(hit, c.id)
				}
			}
		}
	}
	if len(hit) == 1 {
		return hit[0], true
	}
	for _, w := range said {
		dir, ok := sizeWords[w]
		if !ok {
			continue
		}
		sized := make([]choice, 0, len(cs))
		for _, c := range cs {
			if len(c.sizes) > 0 {
				sized = append(sized, c)
			}
		}
		if len(sized) < 2 {
			return namedSize(cs, dir)
		}
		sort.SliceStable(sized, func(a, b int) bool { return sized[a].sizes[0].amount < sized[b].sizes[0].amount })
		if dir > 0 {
			return sized[len(sized)-1].id, true
		}
		return sized[0].id, true
	}
	return "", false
}

// sizeNames are the words a name gives its size by, larger or smaller,
// where it gives no measure: "Carry Bag Large", "Carry Bag Small".
var sizeNames = map[string]int{"large": 1, "big": 1, "small": -1}

// namedSize is the one option whose name says it is the larger (dir 1)
// or the smaller (-1): "bada wala" of a large and a small carry bag.
func namedSize(cs []choice, dir int) (string, bool) {
	found := ""
	for _, c := range cs {
		says := false
		for _, name := range c.names {
			for _, w := range nameWords(name) {
				says = says || sizeNames[w] == dir
			}
		}
		if says {
			if found != "" {
				return "", false
			}
			found = c.id
		}
	}
	return found, found != ""
}

// chooseByWords picks the option whose own words the answer uses, the
// words the options share not counting: "bros" is Gupta Brothers beside
// Gupta Traders. A word of the kind of shop counts half.
func chooseByWords(said []string, cs []choice) (string, bool) {
	words := make([]map[string]bool, len(cs))
	count := map[string]int{}
	for i, c := range cs {
		words[i] = map[string]bool{}
		for _, name := range c.names {
			for _, t := range intent.Normalize(name).Tokens {
				words[i][t.Text] = true
			}
		}
		for w := range words[i] {
			count[w]++
		}
	}
	best, bestScore, tie := "", 0, false
	for i, c := range cs {
		score := 0
		for _, w := range said {
			// A letter counts only as the whole answer: "L" of leggings
			// in L and XL, "A" of belts A-42 and B-42.
			short := len([]rune(w)) < 2
			if short && !isDigits(w) && len(said) > 1 {
				continue
			}
			for cw := range words[i] {
				// A digit alone must be the name's own ("1 se 5 number
				// wale" of School Shoe (1-5)).
				if count[cw] < len(cs) && (short && w == cw || !short && wordMatches(w, cw)) {
					score += 2
					if kindOfShop[cw] {
						score-- // "the hardware store one": hardware says which
					}
					break
				}
			}
		}
		switch {
		case score > bestScore:
			best, bestScore, tie = c.id, score, false
		case score == bestScore && score > 0:
			tie = true
		}
	}
	if bestScore == 0 || tie {
		return "", false
	}
	return best, true
}

// kindOfShop are the words that say what kind of business a name is, not
// which: beside a word of its own they tell less.
var kindOfShop = words("store stores shop traders trader trading mart enterprises agency agencies provision provisions")

// wordMatches reports whether an answer's word is an option's word, a
// short form of it ("bros", "med", "trad"), or a longer spelling of the
// same word ("supermarket" for Supermart).
func wordMatches(said, word string) bool {
	if said == word {
		return true
	}
	if len(said) >= 3 && strings.HasPrefix(word, said) {
		return true
	}
	if len(said) >= 3 && len(word) >= 3 && said[:3] == word[:3] && strings.HasSuffix(said, "s") && len(said) <= 5 {
		return true
	}
	return sameStem(said, word) || inflected(said, word)
}

// inflected reports one Hindi word in two of its endings: "chilke wali"
// answers Moong Dal Chilka, "dhuli" Dhula. The words are Latin letters,
// and alike but for the vowels that end them.
func inflected(said, word string) bool {
	a, b := strings.TrimRight(said, "aeiou"), strings.TrimRight(word, "aeiou")
	return a == b && len(a) >= 3 && a != said && b != word && strings.Trim(a, "abcdefghijklmnopqrstuvwxyz") == ""
}

// minStem is the shortest common start that makes two long words one:
// shorter ones ("general", "generic") are different words.
const minStem = 7

// sameStem reports whether two words share a start of at least minStem
// letters and most of the shorter one: a spelling the person stretched
// or cut ("supermarket", "supermart").
func sameStem(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	n := 0
	for n < len(ra) && n < len(rb) && ra[n] == rb[n] {
		n++
	}
	return n >= minStem && 4*n >= 3*min(len(ra), len(rb))
}

// unsettled drops from the customers each name could mean the shared
// names that a name of one customer settles: "Gupta … Gupta Brothers" is
// Gupta Brothers.
func unsettled(sets [][]string) [][]string {
	one := map[string]bool{}
	for _, s := range sets {
		if len(s) == 1 {
			one[s[0]] = true
		}
	}
	var out [][]string
	for _, s := range sets {
		if len(s) == 1 || !anyOf(s, one) {
			out = append(out, s)
		}
	}
	return out
}

func anyOf(xs []string, set map[string]bool) bool {
	for _, x := range xs {
		if set[x] {
			return true
		}
	}
	return false
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// mistakeWords say a name was written by mistake: "galti se Shivam likh
// diya, Agarwal Medical ka hai".
var mistakeWords = words(`galti likh`)

// turnedDown reports a name the message turns down: a negation after it
// or after its case word, or a word that it was written by mistake just
// before or after it.
func turnedDown(n intent.Normalized, e intent.Entity) bool {
	word := func(i int) string {
		if i >= 0 && i < len(n.Tokens) {
			return n.Tokens[i].Text
		}
		return ""
	}
	// English turns a name down before it ("not Naik, Sea Breeze"); a
	// Hindi "nahi" before one says no to the question and gives the name.
	return negatedAfter(n, e) || mistakeWords[word(e.End)] || word(e.Start-1) == "se" && word(e.Start-2) == "galti" ||
		word(e.Start-1) == "not" || ofWhom[word(e.End)] && negations[word(e.End+1)]
}

// ofWhom stand between a customer's name and the "nahi" that turns it
// down: "ye jalaram ka nahi, patel caterers ka hai", "Rajesh ko nahi".
var ofWhom = words(`ka ki ke ko`)

// sharedByAll reports a word in a name of every option: "sharma" of
// Sharma General Store and Sharma Hardware.
func sharedByAll(w string, cs []choice) bool {
	for _, c := range cs {
		found := false
		for _, name := range c.names {
			found = found || slices.Contains(strings.Fields(strings.ToLower(name)), w)
		}
		if !found {
			return false
		}
	}
	return true
}

// isDigits reports a word of digits only.
func isDigits(w string) bool {
	return w != "" && strings.Trim(w, "0123456789") == ""
}
