package intent

import (
	"math"
	"strconv"
	"strings"
)

// unitSpellings lists the pack and base units field staff write, per
// canonical unit. A starred spelling is also an ordinary word ("can we",
// "bar bar", "nos"), so it counts as a unit only next to a number.
const unitSpellings = `
carton: carton cartons ctn ctns crtn crtns cartn karton cartoon* cartoons* peti petti petis कार्टन पेटी कारटन
box: box boxes bx* bxs बॉक्स
pack: pack packs pk* pkt pkts packet packets packt pckt pckts paket पैकेट पैक
bag: bag bags bori bora* boriya katta* katte* बोरी बैग बेग कट्टा* कट्टे* ब्याग ब्यागुलु मूट्टै* mootai* थेला*
dozen: dozen dozens dzn doz dozn dz darjan darzan दर्जन दरजन डझन डजन dazan
gross: gross*
ream: ream* reams* rim* रिम*
bottle: bottle bottles btl btls botal botl बोतल
piece: piece pieces pcs pc* nag* nos* peice peices पीस पिस nang* नंग* wota*
can: can* cans* कैन*
case: case* cases* केस*
roll: roll* rolls* रोल*
bar: bar* bars*
tin: tin* tins* टिन*
jar: jar* jars* जार*
pouch: pouch pouches पाउच
sachet: sachet sachets
strip: strip* strips* patta* patte* पत्ता* पत्ते* ladi*
bundle: bundle* bundles* बंडल*
drum: drum* drums* ड्रम*
bucket: bucket* buckets* bkt balti* बकेट* बाल्टी*
set: set* sets*
pair: pair* pairs* jode*
unit: unit* units*
tray: tray* trays* ट्रे*
crate: crate* crates* क्रेट*
metre: metre* metres* meter* meters* mtr* mtrs* मीटर*
length: length* lengths* lambai* लंबाई*
`

// unitWord is what a typed unit word stands for.
type unitWord struct {
	unit       string // canonical unit
	needsCount bool   // an ordinary word too: a unit only beside a number
	// among are the packs a word may mean, joined by "|", where one
	// product comes in two that the table spells alike (packs.go).
	among string
}

// id is the unit an entity names: the canonical unit, or the packs it
// may be.
func (u unitWord) id() string {
	if u.among != "" {
		return u.among
	}
	return u.unit
}

var builtinUnits = parseUnits()

// containerWords name a container of any kind: a "dabba" of thinner is
// its tin, a dabba of tea bags its box. The product says which.
var containerWords = map[string]string{
	"dabba": "box|can|tin", "dabbe": "box|can|tin", "dibbe": "box|can|tin",
	"डिब्बा": "box|can|tin", "डिब्बे": "box|can|tin",
	"dabe": "box|can|tin", "डबे": "box|can|tin", "ڈبے": "box|can|tin",
}

// measureSuffixes are the sizes printed in product names: 500ml, 1L, 1kg.
var measureSuffixes = map[string]string{
	"ml": "ml", "mls": "ml",
	"l": "l", "ltr": "l", "ltrs": "l", "lt": "l", "litre": "l", "litres": "l", "liter": "l", "liters": "l", "लीटर": "l", "लिटर": "l", "لیٹر": "l",
	"kg": "kg", "kgs": "kg", "kilo": "kg", "kilos": "kg", "किलो": "kg",
	"किल्लो": "kg", // Gurmukhi's "ਕਿੱਲੋ", its l doubled
	"g":      "g", "gm": "g", "gms": "g", "gram": "g", "grams": "g", "grm": "g", "ग्राम": "g",
	"mm": "mm",                                       // a bar's, a wire's or a pipe's thickness: "12mm sariya"
	"w":  "w", "watt": "w", "watts": "w", "वाट": "w", // a bulb's or a fan's power: "9w bulb"
	// a pipe's or a brush's width: "1/2 inch", "aadha inch"
	"inch": "inch", "inches": "inch", "इंच": "inch",
}

// numberWord is a number said in words: "paanch", "twenty", "सौ".
type numberWord struct {
	value      float64
	multiplier bool // sau, hazaar, hundred: scales what came before
}

const numberSpellings = `
0.5: aadha half
0.75: pauna
1: one ek एक ondu ik oka
1.5: dedh डेढ
2: two do दो दु du rendu eradu
2.5: dhai dhaai ढाई
3: three teen तीन moodu मूरु
4: four char chaar चार
5: five paanch panch paach पांच पाच ऐदु
6: six chhe che chhah chah छह छः
7: seven saat सात
8: eight aath आठ
9: nine nau नौ
10: ten das dus दस दहा हत्तु पदि دس धा
11: eleven gyarah gyaarah gyara ग्यारह
12: twelve barah baarah बारह
13: thirteen terah tera तेरह
14: fourteen chaudah chaudha चौदह
15: fifteen pandrah pandra पंद्रह पन्ध्र
16: sixteen solah sola सोलह
17: seventeen satrah satra सत्रह
18: eighteen athaarah atharah अठारह
19: nineteen unnees unnis उन्नीस
20: twenty bees बीस iravai vis veeh iruvathu ippattu
21: ikkees ikkis इक्कीस
22: baaees bais बाईस
24: chaubees chaubis चौबीस
25: pachees pachis पच्चीस pochish pachi pochis pachisi iruvathanju
30: thirty tees तीस
40: forty chalis chaalis चालीस
50: fifty pachaas pachas पचास
55: pachpan पचपन
60: sixty साठ
70: seventy sattar सत्तर
80: eighty assi अस्सी
90: ninety nabbe
100*: hundred sau सौ
1000*: thousand hazaar hazar hajar हजार हजारचा velu साविर aayiram ہزار saavira
10000*: पत्तायिरम
100000*: lakh lac लाख
`

var numberWords = parseNumbers()

func parseUnits() map[string]unitWord {
	builtinUnits := map[string]unitWord{}
	for line := range strings.Lines(unitSpellings) {
		canon, variants, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		for _, v := range strings.Fields(variants) {
			w := unitWord{unit: canon}
			if strings.HasSuffix(v, "*") {
				v, w.needsCount = strings.TrimSuffix(v, "*"), true
			}
			builtinUnits[foldDevanagari(v)] = w
		}
	}
	for w, among := range containerWords {
		builtinUnits[foldDevanagari(w)] = unitWord{unit: "box", among: among}
	}
	return builtinUnits
}

func parseNumbers() map[string]numberWord {
	numberWords := map[string]numberWord{}
	for line := range strings.Lines(numberSpellings) {
		val, words, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		mult := strings.HasSuffix(val, "*")
		f, err := strconv.ParseFloat(strings.TrimSuffix(val, "*"), 64)
		if err != nil {
			panic("intent: bad number table line " + line)
		}
		for _, w := range strings.Fields(words) {
			numberWords[foldDevanagari(w)] = numberWord{f, mult}
		}
	}
	return numberWords
}

// isNumber reports whether w is written in digits: "5", "1.5", "120000".
func isNumber(w string) bool {
	if w == "" || w[0] < '0' || w[0] > '9' {
		return false
	}
	dot := false
	for i := 1; i < len(w); i++ {
		switch c := w[i]; {
		case c >= '0' && c <= '9':
		case c == '.' && !dot && i < len(w)-1:
			dot = true
		default:
			return false
		}
	}
	return true
}

// splitCount splits a number glued to a word ("5ctn", "500ml", "10x") into
// its digits and the rest; ok is false when w does not start with digits or
// the rest has digits again (an SKU like "gc500" or "2pm3").
func splitCount(w string) (digits, rest string, ok bool) {
	i := 0
	for i < len(w) && (w[i] >= '0' && w[i] <= '9' || w[i] == '.') {
		i++
	}
	if i == 0 || i == len(w) || w[i-1] == '.' {
		return "", "", false
	}
	for j := i; j < len(w); j++ {
		if w[j] >= '0' && w[j] <= '9' {
			return "", "", false
		}
	}
	return w[:i], w[i:], true
}

// formatNumber writes a quantity the way Normalized.Text shows it. Scaling
// in binary floating point leaves dust ("1.15 lakh" is
// 114999.99999999999): it is rounded to six decimal places, far below any
// quantity or paisa a message can mean.
func formatNumber(f float64) string {
	return strconv.FormatFloat(math.Round(f*1e6)/1e6, 'f', -1, 64)
}

// IsUnitWord reports a word Munshi reads as a unit beside a number:
// "tin", "bag", "pouch", "cartons".
func IsUnitWord(w string) bool {
	_, ok := builtinUnits[w]
	return ok
}

// RoutingWord reports a word the router reads as itself (a rule's word, a
// unit, a number or a currency: "rupees", "register"), which a name that
// ends with it does not make a name of its own.
func RoutingWord(w string) bool { return reservedWord(w) }
