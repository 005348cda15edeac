package intent

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/catalogtest"
	"github.com/munshi/munshi/internal/domain"
)

// scanLexicon is how names were matched before the trie: every name
// sharing the message word's first word (or, for a misspelt first word, a
// first word of the same first letter within one edit, or the word it
// sounds like) is compared in
// turn, longest first, and a later name replaces the best only when it is
// strictly better. It is built from the same names as the trie, but by
// itself, so that the trie must find exactly what it finds.
type scanLexicon struct {
	l     *lexicon // for units, ordinary words and the neighbours of a name
	first map[string][]*scanName
	fuzzy map[scanBucket][]string
}

type scanName struct {
	words []string
	kind  EntityKind
	ids   []string
	given bool
}

type scanBucket struct {
	first rune
	runes int
}

func newScanLexicon(l *lexicon, v Vocabulary) *scanLexicon {
	s := &scanLexicon{l: l, first: map[string][]*scanName{}, fuzzy: map[scanBucket][]string{}}
	l.eachName(v, func(kind EntityKind, id string, words []string, derived bool) {
		if keep, _ := nameKept(kind, words); !keep {
			return
		}
		given := !derived && kind == EntityProduct
		for _, n := range s.first[words[0]] {
			if n.kind == kind && slices.Equal(n.words, words) {
				switch {
				case derived && n.given:
				case given && !n.given:
					n.ids, n.given = []string{id}, true
				case !slices.Contains(n.ids, id):
					n.ids = append(n.ids, id)
				}
				return
			}
		}
		s.first[words[0]] = append(s.first[words[0]], &scanName{words: slices.Clone(words), kind: kind, ids: []string{id}, given: given})
	})
	for w, ns := range s.first {
		slices.SortStableFunc(ns, func(a, b *scanName) int { return len(b.words) - len(a.words) })
		if fuzzyWord(w) {
			r, _ := utf8.DecodeRuneInString(w)
			k := scanBucket{r, utf8.RuneCountInString(w)}
			s.fuzzy[k] = append(s.fuzzy[k], w)
		}
	}
	for _, ws := range s.fuzzy {
		slices.Sort(ws)
	}
	return s
}

// singularIs reports the singular of t, where a name has t itself, as w.
func singularIs(l *lexicon, t, w string) bool {
	sg, ok := l.alsoSingular(t)
	return ok && sg == w
}

// scanMatch is what the scan found at a position.
type scanMatch struct {
	name   *scanName
	n      int
	fuzzy  bool
	plural bool
}

func (s *scanLexicon) match(toks []Token, i int) (best scanMatch, ok bool) {
	l := s.l
	typoOf := func(word, name string) bool {
		return fuzzyWord(name) && l.mayBeTypo(word) && withinOneEdit(word, name)
	}
	soundOf := func(word, name string) bool {
		id, ok := l.soundAlike(word)
		return ok && l.wordText[id] == name
	}
	better := func(m scanMatch) bool {
		switch {
		case m.n != best.n:
			return m.n > best.n
		case m.fuzzy != best.fuzzy:
			return !m.fuzzy
		case m.plural != best.plural:
			return !m.plural
		case m.name.kind != best.name.kind:
			return l.preferProduct(toks, i, m.n) == (m.name.kind == EntityProduct)
		}
		return false
	}
	consider := func(ns []*scanName, firstFuzzy, firstPlural bool) {
		for _, n := range ns {
			if len(n.words) > len(toks)-i || len(n.words) < best.n {
				continue
			}
			fuzzy, plural, fits := firstFuzzy, firstPlural, true
			for k := 1; k < len(n.words) && fits; k++ {
				t := toks[i+k].Text
				switch {
				case l.asNamed(t) == n.words[k]:
				case singularIs(l, t, n.words[k]):
					plural = true
				case soundOf(t, n.words[k]):
					fuzzy = true
				case !fuzzy && typoOf(t, n.words[k]):
					fuzzy = true
				default:
					fits = false
				}
			}
			if m := (scanMatch{n, len(n.words), fuzzy, plural}); fits && (!ok || better(m)) {
				best, ok = m, true
			}
		}
	}
	w := toks[i].Text
	consider(s.first[l.asNamed(w)], false, false)
	if sg, ok := l.alsoSingular(w); ok {
		consider(s.first[sg], false, true)
	}
	if id, ok := l.soundAlike(w); ok {
		consider(s.first[l.wordText[id]], true, false)
	}
	if l.mayBeTypo(w) {
		r, _ := utf8.DecodeRuneInString(w)
		n := utf8.RuneCountInString(w)
		for d := -1; d <= 1; d++ {
			for _, cand := range s.fuzzy[scanBucket{r, n + d}] {
				if withinOneEdit(w, cand) {
					consider(s.first[cand], true, false)
				}
			}
		}
	}
	return best, ok
}

// compareWithScan matches every position of every message with the trie
// and with the scan, and fails on the first difference. It returns the
// names found and how many of them carry a typo.
func compareWithScan(t *testing.T, r *Router, v Vocabulary, msgs []string) (matched, fuzzy int) {
	t.Helper()
	scan := newScanLexicon(r.lex, v)
	for _, text := range msgs {
		toks := mergePhrases(canonicalise(splitWords(text, nil), r.lex, nil, nil, nil))
		for i := range toks {
			got, gotOK := r.lex.matchName(toks, i)
			want, wantOK := scan.match(toks, i)
			same := gotOK == wantOK
			if same && gotOK {
				same = got.n == want.n && got.fuzzy == want.fuzzy && got.v.kind == want.name.kind && slices.Equal(got.v.ids, want.name.ids)
			}
			if !same {
				t.Fatalf("%q at %d (%q): trie %+v %v, scan %+v %v", text, i, toks[i].Text, got, gotOK, want, wantOK)
			}
			if gotOK {
				matched++
				if got.fuzzy {
					fuzzy++
				}
			}
		}
	}
	return matched, fuzzy
}

// typoMessages writes messages from a catalog's names, ordinary words and
// quantities, with typos of every kind (a letter dropped, added, changed
// or two swapped) in a third of the name words.
func typoMessages(rng *rand.Rand, b catalogtest.Books, n int) []string {
	filler := strings.Fields("5 10 carton ctn peti ke liye ko aur for bhej do stock kitna hai sharma ji ka 2 dozen order cod udhaar please")
	edit := func(w string) string {
		r := []rune(w)
		if len(r) < 4 {
			return w
		}
		k := 1 + rng.IntN(len(r)-1)
		switch rng.IntN(4) {
		case 0:
			return string(append(r[:k:k], r[k+1:]...))
		case 1:
			return string(r[:k]) + "a" + string(r[k:])
		case 2:
			r[k] = 'e'
		default:
			if k+1 < len(r) {
				r[k], r[k+1] = r[k+1], r[k]
			}
		}
		return string(r)
	}
	pick := func(name string, aliases []string) string {
		if len(aliases) > 0 && rng.IntN(2) == 0 {
			return aliases[rng.IntN(len(aliases))]
		}
		return name
	}
	var out []string
	for range n {
		var words []string
		for range 1 + rng.IntN(3) {
			var name string
			if rng.IntN(3) == 0 {
				c := b.Customers[rng.IntN(len(b.Customers))]
				name = pick(c.Name, c.Aliases)
			} else {
				p := b.Products[rng.IntN(len(b.Products))]
				name = pick(p.Name, p.Aliases)
			}
			ws := strings.Fields(name)
			if rng.IntN(2) == 0 {
				ws = ws[:1+rng.IntN(len(ws))]
			}
			for k := range ws {
				if rng.IntN(3) == 0 {
					ws[k] = edit(ws[k])
				}
			}
			words = append(words, filler[rng.IntN(len(filler))])
			words = append(words, ws...)
		}
		out = append(out, strings.Join(words, " "))
	}
	return out
}

func corpusTexts(t *testing.T) []string {
	var out []string
	for _, path := range []string{"corpus/train.jsonl", "corpus/heldout.jsonl"} {
		for _, ex := range readCorpus(t, path) {
			out = append(out, ex.Text)
		}
	}
	return out
}

// The trie finds the same name as the scan it replaced at every position
// of messages full of shared brand words, shared aliases and typos, over a
// generated catalog beside the demo distributor's.
func TestTrieMatchesLikeScan(t *testing.T) {
	b := catalogtest.Generate(catalogtest.Size{Products: 3000, Customers: 1500}, 7)
	demo := demoVocabulary(t)
	v := Vocabulary{Products: append(demo.Products, b.Products...), Customers: append(demo.Customers, b.Customers...)}
	r := routerFor(t, v)
	msgs := append(typoMessages(rand.New(rand.NewPCG(1, 2)), b, 3000), benchMessages...)
	for _, m := range b.Messages(300, 5) {
		msgs = append(msgs, m.Text)
	}
	msgs = append(msgs, corpusTexts(t)...)
	matched, fuzzy := compareWithScan(t, r, v, msgs)
	// The messages must exercise what they compare.
	if matched < 3000 || fuzzy < 300 {
		t.Fatalf("only %d matches, %d with a typo: the messages test too little", matched, fuzzy)
	}
}

// The training corpus is read with its own names by the same matcher: it
// too must find what the scan found, or the model would learn from other
// placeholders.
func TestTrieMatchesLikeScanOnCorpusNames(t *testing.T) {
	v, err := corpusVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	r := routerFor(t, v)
	if matched, _ := compareWithScan(t, r, v, corpusTexts(t)); matched < 500 {
		t.Fatalf("only %d names found in the corpus", matched)
	}
}

// buildCost is what building a lexicon took: words walked and names
// compared, and the bytes and objects allocated.
type buildCost struct {
	steps          int
	bytes, objects uint64
}

func costOfBuilding(t *testing.T, v Vocabulary) buildCost {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b, err := buildLexicon(v)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	return buildCost{b.steps, after.TotalAlloc - before.TotalAlloc, after.Mallocs - before.Mallocs}
}

// Building the vocabulary of twice the catalog (the same SKUs and as many
// again, a customer for every five) costs about twice as much, never the
// four times of a build that compares each name with the names before it:
// counted in words walked and names compared, and in allocations.
func TestBuildingIsLinear(t *testing.T) {
	const skus = 6000
	small := costOfBuilding(t, vocabularyOf(catalogtest.Generate(catalogtest.WithCustomers(skus), 11)))
	large := costOfBuilding(t, vocabularyOf(catalogtest.Generate(catalogtest.WithCustomers(2*skus), 11)))
	t.Logf("%d SKUs: %+v; %d SKUs: %+v", skus, small, 2*skus, large)
	for _, c := range []struct {
		what         string
		small, large float64
	}{
		{"words walked and names compared", float64(small.steps), float64(large.steps)},
		{"bytes allocated", float64(small.bytes), float64(large.bytes)},
		{"objects allocated", float64(small.objects), float64(large.objects)},
	} {
		if r := c.large / c.small; r > 2.4 {
			t.Errorf("twice the catalog costs %.2f times the %s", r, c.what)
		}
	}
	// And each SKU costs a few dozen steps: its names' words, not the
	// names sharing its brand.
	if per := small.steps / skus; per > 60 {
		t.Errorf("%d steps per SKU", per)
	}
}

// A product without a SKU, a customer without an ID, and a key listed twice
// are refused with the line of the catalog that is wrong.
func TestVocabularyKeysChecked(t *testing.T) {
	p := func(sku, name string) domain.Product { return domain.Product{SKU: sku, Name: name, Unit: "piece"} }
	c := func(id, name string) domain.Customer { return domain.Customer{ID: id, Name: name} }
	for _, tc := range []struct {
		v    Vocabulary
		want string
	}{
		{Vocabulary{Products: []domain.Product{p("A1", "Phenyl"), p(" ", "Soap")}}, `intent: product 2 ("Soap") has no SKU`},
		{Vocabulary{Products: []domain.Product{p("A1", "Phenyl"), p("A1", "Soap")}}, `intent: product SKU "A1" listed twice`},
		{Vocabulary{Customers: []domain.Customer{c("", "Gupta Traders")}}, `intent: customer 1 ("Gupta Traders") has no ID`},
		{Vocabulary{Products: []domain.Product{p("C1", "Phenyl")}, Customers: []domain.Customer{c("C1", "Gupta"), c("C1", "Sharma")}},
			`intent: customer ID "C1" listed twice`},
	} {
		if _, err := NewRouter(tc.v, Options{}); err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %s", err, tc.want)
		}
	}
}

// Names made of nothing readable, of emoji, of thousands of words or of
// one very long word, in any script, build a vocabulary that still reads
// messages, the ordinary names among them included.
func TestHostileNames(t *testing.T) {
	long := strings.Repeat("phenyl ", 5000)
	v := Vocabulary{
		Products: []domain.Product{
			{SKU: "P1", Name: "...", Aliases: []string{"", " ", "!!!", "🙂🙂", "\u200d", "\x00"}},
			{SKU: "P2", Name: long, Aliases: []string{strings.Repeat("x", 10000), "ok", "stock", "5", "do"}},
			{SKU: "P3", Name: "सूर्या फिनाइल ५०० मिली", Aliases: []string{"ओके", "ब्लीच"}},
			{SKU: "P4", Name: "Glass Cleaner 500ml", Aliases: []string{"GC"}, Unit: "bottle",
				PackSizes: []domain.PackSize{{Name: "carton", Units: 24}, {Name: "", Units: 0}, {Name: "a b", Units: 2}}},
			{SKU: "💥", Name: "Bang 💥", Unit: "💥"},
		},
		Customers: []domain.Customer{
			{ID: "C1", Name: "M/s", Aliases: []string{"ji", "store"}},
			{ID: "C2", Name: "Rajesh Kirana Store", Aliases: []string{"राजेश"}},
		},
	}
	r := routerFor(t, v)
	for _, text := range []string{"5 carton GC for Rajesh", long, "💥💥 ok", "राजेश को ५ सूर्या फिनाइल", "", strings.Repeat("ok ", 3000)} {
		r.Route(context.Background(), text)
	}
	es := r.Entities("5 carton GC for Rajesh")
	if !namesProduct(es, "P4") || !slices.ContainsFunc(es, func(e Entity) bool { return e.Kind == EntityCustomer && e.ID == "C2" }) {
		t.Fatalf("ordinary names lost among hostile ones: %+v", es)
	}
	if d := r.Route(context.Background(), "ok"); d.Intent != domain.IntentConfirm {
		t.Fatalf("an alias \"ok\" took the word from routing: %+v", d)
	}
}

// A product named by a number alone ("1121", a paddy's variety) or by a
// run of numbers ("12 32 16", a fertiliser's grade) is that product where
// a quantity cannot stand, and a quantity everywhere else. Such a name may
// carry a typo only when more than the number and one word are said.
func TestNumberNamedProducts(t *testing.T) {
	v := Vocabulary{
		Products: []domain.Product{
			{SKU: "PADDY1121", Name: "Paddy Seed 1121 10kg", Aliases: []string{"1121"}, Unit: "bag"},
			{SKU: "NPK50", Name: "NPK 12:32:16 50kg Bag", Aliases: []string{"npk", "12 32 16"}, Unit: "bag"},
			{SKU: "UREA45", Name: "Urea 45kg Bag", Aliases: []string{"urea"}, Unit: "bag"},
			{SKU: "CAB15", Name: "Submersible Flat Cable 1.5 sqmm", Aliases: []string{"1.5 sqmm cable", "15 cable"}, Unit: "metre"},
		},
		Customers: []domain.Customer{{ID: "K02", Name: "Patel Agro Centre", Aliases: []string{"Patel"}}},
	}
	r := routerFor(t, v)
	for _, c := range []struct {
		text     string
		products []string // the products read, in order
		numbers  []string // the numbers read, in order
	}{
		{"20 bag 1121 Patel ke liye, cash", []string{"PADDY1121"}, []string{"20"}},
		{"1121 ka stock", []string{"PADDY1121"}, nil},
		{"20 bag 12 32 16 bhejo", []string{"NPK50"}, []string{"20"}},
		{"1121 bag urea", []string{"UREA45"}, []string{"1121"}},
		{"Patel se 1121 cash mila", nil, []string{"1121"}},
		{"12 bag urea 32 bag npk", []string{"UREA45", "NPK50"}, []string{"12", "32"}},
		// A typo in a name led by a number, when a word besides the
		// number is as written; never in a name of the number and one
		// word.
		{"3 coil 1.5 sqmm cabel", []string{"CAB15"}, []string{"3"}},
		{"15 cabel", nil, []string{"15"}},
	} {
		var products, numbers []string
		for _, e := range r.Normalize(c.text).Entities {
			switch e.Kind {
			case EntityProduct:
				products = append(products, e.ID)
			case EntityNumber:
				numbers = append(numbers, e.ID)
			}
		}
		if !slices.Equal(products, c.products) || !slices.Equal(numbers, c.numbers) {
			t.Errorf("%q: products %v, numbers %v; want %v and %v", c.text, products, numbers, c.products, c.numbers)
		}
	}
}

// A number that names one product, beside a name it shares with others
// ("6301 bearing", of Ball Bearing 6301 and 6203, both "bearing"), reads
// as that one product; a quantity before the shared name stays a
// quantity, and the shared name alone names both.
func TestNumberBesideASharedName(t *testing.T) {
	v := Vocabulary{Products: []domain.Product{
		{SKU: "BRG6203", Name: "Ball Bearing 6203", Aliases: []string{"bearing", "6203", "bearing 6203"}, Unit: "piece"},
		{SKU: "BRG6301", Name: "Ball Bearing 6301", Aliases: []string{"bearing", "6301", "bearing 6301"}, Unit: "piece"},
	}}
	r := routerFor(t, v)
	for _, c := range []struct {
		text     string
		products [][]string // each product entity's candidates, in order
		numbers  []string
	}{
		{"6301 bearing kitne pade hain", [][]string{{"BRG6301"}}, nil},
		{"6301 bearing 10 box bhejo", [][]string{{"BRG6301"}}, []string{"10"}},
		{"bearing 6203 ka stock", [][]string{{"BRG6203"}}, nil},
		{"10 bearing bhejo", [][]string{{"BRG6203", "BRG6301"}}, []string{"10"}},
	} {
		var products [][]string
		var numbers []string
		for _, e := range r.Normalize(c.text).Entities {
			switch e.Kind {
			case EntityProduct:
				products = append(products, e.IDs)
			case EntityNumber:
				numbers = append(numbers, e.ID)
			}
		}
		if !slices.EqualFunc(products, c.products, slices.Equal) || !slices.Equal(numbers, c.numbers) {
			t.Errorf("%q: products %v, numbers %v; want %v and %v", c.text, products, numbers, c.products, c.numbers)
		}
	}
}

// A catalog's own unit (a "than" of cloth, no unit Munshi lists) is also
// read with its long vowels written out, and in Devanagari; any unit
// misspelt as said after a count ("20 bundel") is read as that unit.
func TestCatalogUnitsByTheirSpellings(t *testing.T) {
	v := Vocabulary{Products: []domain.Product{{SKU: "RAYON", Name: "Rayon Print Fabric", Aliases: []string{"rayon"}, Unit: "metre",
		PackSizes: []domain.PackSize{{Name: "than", Units: 35}}}}}
	r := routerFor(t, v)
	for _, c := range []struct {
		text string
		unit string // "" for none
	}{
		{"3 than rayon", "than"},
		{"3 thaan rayon", "than"},
		{"4 थान रेयॉन", "than"},
		{"rayon chahiye, thaan kitne hain", ""}, // beside no number
		// Misspelt as said, after a count.
		{"20 bundel rayon", "bundle"},
		{"2 bundal rayon", "bundle"},
		{"2 releases rayon", ""}, // far longer than a roll
	} {
		got := ""
		for _, e := range r.Normalize(c.text).Entities {
			if e.Kind == EntityUnit {
				got = e.ID
			}
		}
		if got != c.unit {
			t.Errorf("%q: unit %q, want %q", c.text, got, c.unit)
		}
	}
}

// A product's alias is that product's alone, though other products'
// names shortened by their sizes come to the same words: "pepsi" is the
// 600 ml bottle the catalog calls so, not every size of Pepsi. Names
// the catalog gives several products are still shared.
func TestAGivenNameBeatsAShortenedOne(t *testing.T) {
	v := Vocabulary{Products: []domain.Product{
		{SKU: "PEP250", Name: "Pepsi 250ml Glass Bottle", Aliases: []string{"pepsi 250"}, Unit: "bottle"},
		{SKU: "PEP600", Name: "Pepsi 600ml PET", Aliases: []string{"pepsi 600", "pepsi"}, Unit: "bottle"},
		{SKU: "PEP125", Name: "Pepsi 1.25L PET", Aliases: []string{"pepsi 1.25"}, Unit: "bottle"},
		{SKU: "APX1L", Name: "Apex Emulsion 1L", Aliases: []string{"apex"}, Unit: "can"},
		{SKU: "APX4L", Name: "Apex Emulsion 4L", Aliases: []string{"apex"}, Unit: "can"},
	}}
	r := routerFor(t, v)
	for text, want := range map[string][]string{
		"10 case pepsi": {"PEP600"},
		"5 apex":        {"APX1L", "APX4L"},
		"apex emulsion": {"APX1L", "APX4L"},
	} {
		var got []string
		for _, e := range r.Normalize(text).Entities {
			if e.Kind == EntityProduct {
				got = e.Candidates()
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
	// The other sizes are the alias's kin: a question about stock reads them.
	for _, e := range r.Normalize("pepsi ka stock").Entities {
		if e.Kind == EntityProduct && !slices.Equal(e.Kin, []string{"PEP250", "PEP125"}) {
			t.Errorf("kin of pepsi: %v", e.Kin)
		}
	}
}

// A product's one-word alias that routing also knows as a word
// ("register") is kept, and read as the product only right after a
// quantity or a unit.
func TestAGuardedNameIsAProductBesideAQuantity(t *testing.T) {
	v := Vocabulary{Products: []domain.Product{{SKU: "REG200", Name: "Long Register 200 Pages", Aliases: []string{"register"}, Unit: "piece",
		PackSizes: []domain.PackSize{{Name: "bundle", Units: 10}}}}}
	r := routerFor(t, v)
	for text, want := range map[string]bool{
		"200 register bhejo":           true,
		"5 bundle register":            true,
		"complaint register karni hai": false,
		"register karna hai":           false,
	} {
		got := r.Normalize(text).Has(EntityProduct)
		if got != want {
			t.Errorf("%q: a product %v, want %v", text, got, want)
		}
	}
}

// An honorific belongs to the customer's name before it only within one
// sentence: in "Mehta Traders. Seth ji se milna hai" the seth is the
// distributor's, asked for after the shop named itself.
func TestAnHonorificAfterAFullStopIsNotTheName(t *testing.T) {
	v := Vocabulary{Customers: []domain.Customer{{ID: "C1", Name: "Mehta Traders", Aliases: []string{"mehta"}}}}
	r := routerFor(t, v)
	for text, want := range map[string]int{
		"Mehta Traders seth ka payment aaya":  3,
		"Sharma ji. Mehta ji ka payment":      4,
		"Mehta Traders. Seth ji se milna hai": 2,
		"mehta, bhai kal aana":                1,
	} {
		end := -1
		for _, e := range r.Normalize(text).Entities {
			if e.Kind == EntityCustomer {
				end = e.End
			}
		}
		if end != want {
			t.Errorf("%q: the customer's name ends before token %d, want %d", text, end, want)
		}
	}
	if d := r.Route(context.Background(), "Jai shree krishna 🙏 Mehta Traders. Seth ji se milna hai kal, time bata do"); d.Intent != domain.IntentHandoff {
		t.Errorf("a shop asking to meet the seth: %s (%s)", d.Intent, d.Reason)
	}
}
