package catalogtest

import (
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode"

	"github.com/munshi/munshi/internal/domain"
)

// Size is how big a generated catalog and customer list are.
type Size struct {
	Products  int
	Customers int
}

// WithCustomers is a catalog of that many SKUs with the customer list
// that goes with it: a customer for every five SKUs.
func WithCustomers(skus int) Size { return Size{Products: skus, Customers: skus / 5} }

// Books is a generated catalog and customer list.
type Books struct {
	Products  []domain.Product
	Customers []domain.Customer
}

// Without returns a copy of the books whose aliases drop leaves out:
// generated initials can spell a word the importer refuses as an alias
// ("NA", "HN" are replies), and books that go through `munshi import`
// must be what a distributor could import.
func (b Books) Without(drop func(alias string) bool) Books {
	keep := func(as []string) []string {
		var out []string
		for _, a := range as {
			if !drop(a) {
				out = append(out, a)
			}
		}
		return out
	}
	out := Books{Products: make([]domain.Product, len(b.Products)), Customers: make([]domain.Customer, len(b.Customers))}
	for i, p := range b.Products {
		p.Aliases = keep(p.Aliases)
		out.Products[i] = p
	}
	for i, c := range b.Customers {
		c.Aliases = keep(c.Aliases)
		out.Customers[i] = c
	}
	return out
}

// Generate builds a catalog and a customer list of that size. The same
// size and seed always give the same books.
//
// Products are "Brand Kind [Variant] Size": a few principal brands hold
// over a tenth of the catalog each and a long tail of regional brands a
// few SKUs each (popularity is Zipf-like), every kind comes in many brands,
// variants and sizes, sizes are written as "500ml", "500 ml", "1 Ltr".
// Aliases repeat across products: a brand and kind's initials ("SFC") and
// short name ("surya phenyl") name every size and variant of it, a kind's
// Hinglish name ("jhadu") names some SKUs of every brand, and Devanagari
// names ("सूर्या फिनाइल") appear beside romanised ones. Units and pack
// names include the catalog's own ("ladi", "outer", "master carton").
//
// Customers share surnames (skewed: many Guptas, few Kohlis) and business
// words, many have the same name in different towns, and aliases add
// honorifics ("Gupta ji") and Devanagari surnames.
func Generate(size Size, seed uint64) Books {
	rng := rand.New(rand.NewPCG(seed, 0x6d756e736869))
	return Books{Products: products(rng, size.Products), Customers: customers(rng, size.Customers)}
}

// A brand: its name and how it is written in Devanagari.
type brand struct{ name, deva string }

var brands = []brand{
	{"Surya", "सूर्या"}, {"Ganga", "गंगा"}, {"Kaveri", "कावेरी"}, {"Himalaya Fresh", "हिमालया"}, {"Vindhya", "विंध्या"},
	{"Sagar", "सागर"}, {"Prabhat", "प्रभात"}, {"Kamal", "कमल"}, {"Nilgiri", "नीलगिरी"}, {"Tulsi", "तुलसी"},
	{"Shakti", "शक्ति"}, {"Amrit", "अमृत"}, {"Jyoti", "ज्योति"}, {"Kiran", "किरण"}, {"Moti", "मोती"},
	{"Roshni", "रोशनी"}, {"Sona", "सोना"}, {"Vijay", "विजय"}, {"Anmol", "अनमोल"}, {"Shree Ganesh", "श्री गणेश"},
	{"Royal Star", "रॉयल स्टार"}, {"Bharat", "भारत"}, {"Navratna", "नवरत्न"}, {"Sunrise", "सनराइज"}, {"Swastik", "स्वस्तिक"},
	{"Laxmi", "लक्ष्मी"}, {"Durga", "दुर्गा"}, {"Parvati", "पार्वती"}, {"Chandan", "चंदन"}, {"Kesari", "केसरी"},
	{"Mayur", "मयूर"}, {"Hans", "हंस"}, {"Gagan", "गगन"}, {"Pawan", "पवन"}, {"Indus", "इंडस"},
	{"Everfresh", ""}, {"Cleanex", ""}, {"Sparkle", ""}, {"Brightex", ""}, {"Shinex", ""},
	{"Purewell", ""}, {"Hygiene Plus", ""}, {"Magic Touch", ""}, {"Green Leaf", ""}, {"Blue Bird", ""},
	{"Red Rose", "रेड रोज़"}, {"White Lotus", ""}, {"Golden Harvest", ""}, {"Silver Line", ""}, {"Crystal", ""},
	{"Ujala Gold", "उजाला"}, {"Nirmal", "निर्मल"}, {"Swachh", "स्वच्छ"}, {"Sugandh", "सुगंध"}, {"Mahak", "महक"},
	{"Khushboo", "खुशबू"}, {"Anand", "आनंद"}, {"Sukh", "सुख"}, {"Vishal", "विशाल"}, {"Ajanta", "अजंता"},
	{"Ellora", "एलोरा"}, {"Konark", "कोणार्क"}, {"Vaishali", "वैशाली"}, {"Magadh", "मगध"}, {"Avadh", "अवध"},
	{"Rajhans", "राजहंस"}, {"Garuda", "गरुड़"}, {"Airawat", "ऐरावत"}, {"Kamdhenu", "कामधेनु"}, {"Nandi", "नंदी"},
	{"Trishul", "त्रिशूल"}, {"Damru", "डमरू"}, {"Chakra", "चक्र"}, {"Kalash", "कलश"}, {"Deepak", "दीपक"},
	{"Shivam", "शिवम"}, {"Sundaram", "सुंदरम"}, {"Satyam", "सत्यम"}, {"Om Sai", "ओम साई"}, {"Jai Mata Di", ""},
	{"Apna", "अपना"}, {"Desi", "देसी"}, {"Gharelu", "घरेलू"}, {"Saathi", "साथी"}, {"Mitra", "मित्र"},
	{"Pioneer", ""}, {"Champion", ""}, {"Victory", ""}, {"Supreme", ""}, {"Elite", ""},
	{"Fresho", ""}, {"Cleano", ""}, {"Washo", ""}, {"Shiny", ""}, {"Softy", ""},
	{"Aqua Pure", ""}, {"Neelam", "नीलम"}, {"Panna", "पन्ना"}, {"Heera", "हीरा"}, {"Manik", "माणिक"},
	{"Kohinoor", "कोहिनूर"}, {"Taj", "ताज"}, {"Lal Qila", "लाल किला"}, {"Qutub", "कुतुब"}, {"Charminar", "चारमीनार"},
	{"Gateway", ""}, {"Marine", ""}, {"Coral", ""}, {"Pearl", ""}, {"Sapphire", ""},
	{"Aroma", ""}, {"Fragrance King", ""}, {"Dr Clean", ""}, {"Mr Shine", ""}, {"Super Wash", ""},
}

// A distributor carries a few principal companies' ranges in depth: the
// first brands share this percentage of the SKUs, besides the ones
// popularity gives them.
const (
	principals     = 3
	principalShare = 40
)

// tailBrands are the long tail of a distributor's brands: regional and
// house brands, a few SKUs each, made of Indian-sounding syllables with
// their Devanagari spelling. Thousands of distinct brand words of similar
// length are what a typo has to be told apart from.
var tailBrands = syllableBrands(4000)

// syllables are romanised syllables with their Devanagari spelling.
var syllables = [][2]string{
	{"ka", "का"}, {"la", "ला"}, {"ma", "मा"}, {"ra", "रा"}, {"na", "ना"}, {"sa", "सा"}, {"ta", "टा"}, {"va", "वा"},
	{"ki", "कि"}, {"li", "लि"}, {"mi", "मि"}, {"ri", "रि"}, {"ni", "नि"}, {"si", "सि"}, {"ti", "ति"}, {"vi", "वि"},
	{"ku", "कु"}, {"lu", "लु"}, {"mu", "मु"}, {"ru", "रु"}, {"nu", "नु"}, {"su", "सु"}, {"tu", "तु"}, {"ve", "वे"},
	{"ko", "को"}, {"lo", "लो"}, {"mo", "मो"}, {"ro", "रो"}, {"no", "नो"}, {"so", "सो"}, {"to", "तो"}, {"vo", "वो"},
	{"dha", "धा"}, {"pra", "प्र"}, {"shri", "श्री"}, {"gan", "गन"}, {"jay", "जय"}, {"dev", "देव"}, {"har", "हर"}, {"pur", "पुर"},
	{"bha", "भा"}, {"cha", "चा"}, {"kha", "खा"}, {"ya", "या"}, {"vin", "विन"}, {"ram", "राम"}, {"sun", "सुन"}, {"tej", "तेज"},
}

// syllableBrands makes n distinct brand names of two or three syllables
// ("Kalira", "Tejvo"); every third has no Devanagari spelling in the
// catalog. They are the same whatever the catalog's size and seed.
func syllableBrands(n int) []brand {
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[string]bool{}
	for _, b := range brands {
		seen[strings.ToLower(b.name)] = true
	}
	out := make([]brand, 0, n)
	for len(out) < n {
		var name, deva string
		for range 2 + rng.IntN(2) {
			s := syllables[rng.IntN(len(syllables))]
			name, deva = name+s[0], deva+s[1]
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		if len(out)%3 == 2 {
			deva = ""
		}
		out = append(out, brand{strings.ToUpper(name[:1]) + name[1:], deva})
	}
	return out
}

// sizeClass says how a kind of product is sized and sold.
type sizeClass int

const (
	liquid sizeClass = iota
	powder
	bar
	pieces
	bulk // sold by the kilo or litre: the base unit is a measure
)

// A kind of product: its name, what people also call it (shared by many
// SKUs), its Devanagari name, and how it is sized.
type kind struct {
	name     string
	hinglish []string
	deva     string
	class    sizeClass
}

var kinds = []kind{
	{"Floor Cleaner", []string{"pocha liquid", "floor liquid"}, "फ्लोर क्लीनर", liquid},
	{"Glass Cleaner", []string{"glass liquid", "sheesha cleaner"}, "ग्लास क्लीनर", liquid},
	{"Toilet Cleaner", []string{"toilet liquid", "latrine cleaner"}, "टॉयलेट क्लीनर", liquid},
	{"Phenyl", []string{"phenyle", "finail"}, "फिनाइल", liquid},
	{"Dishwash Liquid", []string{"bartan liquid", "dish liquid"}, "डिशवॉश", liquid},
	{"Handwash", []string{"hand wash", "haath dhone wala"}, "हैंडवॉश", liquid},
	{"Shampoo", []string{"sampoo"}, "शैम्पू", liquid},
	{"Hair Oil", []string{"baalon ka tel", "tel"}, "हेयर ऑयल", liquid},
	{"Coconut Oil", []string{"nariyal tel", "nariyal oil"}, "नारियल तेल", liquid},
	{"Bleach", []string{"bleaching liquid"}, "ब्लीच", liquid},
	{"Hand Sanitiser", []string{"sanitizer", "sanitiser"}, "सैनिटाइज़र", liquid},
	{"Liquid Detergent", []string{"kapde ka liquid"}, "लिक्विड डिटर्जेंट", liquid},
	{"Fabric Conditioner", []string{"comfort liquid"}, "", liquid},
	{"Mosquito Liquid", []string{"machhar liquid", "machchar liquid"}, "मच्छर लिक्विड", liquid},
	{"Cockroach Spray", []string{"cockroach medicine"}, "कॉकरोच स्प्रे", liquid},
	{"Air Freshener", []string{"room spray", "air freshner"}, "एयर फ्रेशनर", liquid},
	{"Face Wash", []string{"facewash"}, "फेस वॉश", liquid},
	{"Body Lotion", []string{"lotion"}, "लोशन", liquid},
	{"Rose Water", []string{"gulab jal"}, "गुलाब जल", liquid},
	{"Tomato Ketchup", []string{"sauce", "ketchup"}, "सॉस", liquid},
	{"Detergent Powder", []string{"surf", "sarf", "washing powder"}, "सर्फ", powder},
	{"Dishwash Powder", []string{"bartan powder"}, "", powder},
	{"Talcum Powder", []string{"talc", "powder"}, "पाउडर", powder},
	{"Turmeric Powder", []string{"haldi"}, "हल्दी", powder},
	{"Chilli Powder", []string{"lal mirch", "mirchi powder"}, "लाल मिर्च", powder},
	{"Coriander Powder", []string{"dhaniya"}, "धनिया", powder},
	{"Garam Masala", []string{"masala"}, "गरम मसाला", powder},
	{"Tea", []string{"chai patti", "chai"}, "चाय पत्ती", powder},
	{"Coffee", []string{"kafi"}, "कॉफी", powder},
	{"Fabric Starch", []string{"kalaf"}, "", powder},
	{"Namkeen", []string{"bhujia", "mixture"}, "नमकीन", powder},
	{"Biscuits", []string{"biscuit", "biskut"}, "बिस्कुट", powder},
	{"Noodles", []string{"maggi type", "noodle"}, "नूडल्स", powder},
	{"Bathing Soap", []string{"sabun", "nahane ka sabun"}, "साबुन", bar},
	{"Dishwash Bar", []string{"bartan bar", "vim bar"}, "बर्तन बार", bar},
	{"Detergent Cake", []string{"kapde ka sabun", "washing bar"}, "", bar},
	{"Carbolic Soap", []string{"lal sabun"}, "", bar},
	{"Toothpaste", []string{"manjan", "paste"}, "टूथपेस्ट", bar},
	{"Shaving Cream", []string{"shave cream"}, "", bar},
	{"Petroleum Jelly", []string{"vaseline"}, "", bar},
	{"Floor Broom", []string{"jhadu", "jhaadu"}, "झाड़ू", pieces},
	{"Floor Mop", []string{"pocha", "poncha"}, "पोछा", pieces},
	{"Scrub Pad", []string{"scrubber", "jhaava"}, "", pieces},
	{"Steel Scrubber", []string{"steel wool", "jaali"}, "", pieces},
	{"Garbage Bags", []string{"kachra bag", "dustbin bag"}, "कचरा बैग", pieces},
	{"Tissue Roll", []string{"tissue", "toilet roll"}, "टिश्यू", pieces},
	{"Paper Napkins", []string{"napkin", "rumal paper"}, "", pieces},
	{"Agarbatti", []string{"incense sticks", "dhoop batti"}, "अगरबत्ती", pieces},
	{"Mosquito Coil", []string{"machhar coil", "coil"}, "मच्छर कॉइल", pieces},
	{"Naphthalene Balls", []string{"goli", "naphthalene"}, "फिनाइल गोली", pieces},
	{"Candles", []string{"mombatti"}, "मोमबत्ती", pieces},
	{"Matchbox", []string{"machis", "maachis"}, "माचिस", pieces},
	{"Toothbrush", []string{"brush", "dant brush"}, "ब्रश", pieces},
	{"Sanitary Pads", []string{"pads"}, "", pieces},
	{"Baby Diapers", []string{"diaper", "diapers"}, "", pieces},
	{"Wet Wipes", []string{"wipes"}, "", pieces},
	{"Aluminium Foil", []string{"foil", "silver foil"}, "", pieces},
	{"Battery", []string{"cell", "batteries"}, "बैटरी", pieces},
	{"LED Bulb", []string{"bulb", "led"}, "बल्ब", pieces},
	{"Sugar", []string{"cheeni", "chini", "shakkar"}, "चीनी", bulk},
	{"Rice", []string{"chawal"}, "चावल", bulk},
	{"Wheat Flour", []string{"atta", "aata"}, "आटा", bulk},
	{"Gram Flour", []string{"besan"}, "बेसन", bulk},
	{"Mustard Oil", []string{"sarson tel", "sarso ka tel"}, "सरसों तेल", bulk},
	{"Refined Oil", []string{"refined", "soyabean oil"}, "रिफाइंड", bulk},
	{"Toor Dal", []string{"arhar dal", "tuar dal"}, "अरहर दाल", bulk},
}

var variants = strings.Split("Lemon|Rose|Jasmine|Lavender|Pine|Sandal|Neem|Aloe Vera|Mint|Orange|Original|Active|Power|Ultra|"+
	"Gold|Herbal|Classic|Fresh|Plus|Extra Strong|Citrus|Ocean Breeze|Floral|Green Apple|Tulsi|Haldi Chandan|Kesar|Lime|"+
	"Strawberry|Mango|Total|Advanced|Sensitive|Max|Pro|Lite|Double Power|Super|Regular|Premium|Lal|Kala|Safed|Nimbu", "|")

// A size as people write it in a catalog; key is its canonical form, so
// that "1L" and "1 Ltr" are one size.
type sizeName struct{ key, name string }

var classSizes = map[sizeClass][]sizeName{
	liquid: {{"100ml", "100ml"}, {"200ml", "200ml"}, {"250ml", "250 ml"}, {"500ml", "500ml"}, {"500ml", "500 ML"},
		{"1l", "1L"}, {"1l", "1 Ltr"}, {"2l", "2L"}, {"5l", "5 Litre"}, {"5l", "5L"}},
	powder: {{"50g", "50g"}, {"100g", "100g"}, {"200g", "200 gm"}, {"500g", "500g"}, {"1kg", "1kg"}, {"1kg", "1 Kg"},
		{"2kg", "2kg"}, {"5kg", "5 KG"}},
	bar:    {{"75g", "75g"}, {"100g", "100g"}, {"125g", "125 gm"}, {"150g", "150g"}, {"4x100g", "4x100g"}},
	pieces: {{"small", "Small"}, {"medium", "Medium"}, {"large", "Large"}, {"jumbo", "Jumbo"}, {"30pc", "30pc"}, {"30pc", "30 pcs"}, {"6", "Pack of 6"}, {"120", "120 Sheets"}},
	bulk:   {{"premium", "Premium"}, {"regular", "Regular"}, {"no1", "No 1"}, {"super", "Super"}, {"m30", "M30"}},
}

// A pack: the names a catalog gives it and how many base units it holds.
type pack struct {
	names []string
	units []int64
}

var classPacks = map[sizeClass][]pack{
	liquid: {{[]string{"carton", "ctn", "Carton", "peti", "पेटी"}, []int64{12, 24, 48}}, {[]string{"box", "case"}, []int64{6, 12}}, {[]string{"outer", "master carton"}, []int64{96}}},
	powder: {{[]string{"bag", "bori"}, []int64{10, 20, 25}}, {[]string{"carton", "ctn"}, []int64{24, 60, 100}}, {[]string{"ladi", "strip"}, []int64{10, 12}}},
	bar:    {{[]string{"carton", "ctn", "peti"}, []int64{72, 144}}, {[]string{"dozen"}, []int64{12}}, {[]string{"box"}, []int64{24, 48}}},
	pieces: {{[]string{"dozen"}, []int64{12}}, {[]string{"bundle", "gaddi"}, []int64{10, 20}}, {[]string{"carton", "ctn"}, []int64{50, 100}}},
	bulk:   {{[]string{"bag", "bori", "katta"}, []int64{25, 50}}, {[]string{"tin"}, []int64{15}}},
}

var classUnits = map[sizeClass][]string{
	liquid: {"bottle", "bottle", "bottle", "can", "pouch", "jar"},
	powder: {"pack", "pack", "pouch", "packet", "jar"},
	bar:    {"bar", "bar", "piece", "tube"},
	pieces: {"piece", "piece", "roll", "pack", "set"},
	bulk:   {"kg", "kg", "litre"},
}

func products(rng *rand.Rand, n int) []domain.Product {
	all := append(brands[:len(brands):len(brands)], tailBrands...)
	zipf := rand.NewZipf(rng, 1.1, 4, uint64(len(all)-1))
	seen := map[string]bool{}
	out := make([]domain.Product, 0, n)
	for len(out) < n {
		b := all[zipf.Uint64()]
		if rng.IntN(100) < principalShare {
			b = brands[rng.IntN(principals)]
		}
		k := kinds[rng.IntN(len(kinds))]
		sizes := classSizes[k.class]
		sz := sizes[rng.IntN(len(sizes))]
		variant := ""
		if rng.IntN(10) < 7 {
			variant = variants[rng.IntN(len(variants))]
		}
		key := strings.ToLower(b.name + "|" + k.name + "|" + variant + "|" + sz.key)
		if seen[key] {
			// Past what the combinations hold, a catalog numbers its
			// lines: "Surya Phenyl Lemon 1L 2".
			key += "|" + strconv.Itoa(len(out))
		}
		seen[key] = true
		words := []string{b.name, k.name}
		if variant != "" {
			words = append(words, variant)
		}
		words = append(words, sz.name)
		if strings.Count(key, "|") > 3 {
			words = append(words, strconv.Itoa(len(out)%97+2))
		}
		p := domain.Product{
			SKU:        fmt.Sprintf("%s%s%06d", code(b.name), code(k.name), len(out)+1),
			Name:       strings.Join(words, " "),
			Unit:       classUnits[k.class][rng.IntN(len(classUnits[k.class]))],
			Price:      domain.Paise(500 + rng.IntN(100000)),
			GSTPercent: domain.GSTRate([]int{500, 1200, 1800, 1800, 1800, 2800}[rng.IntN(6)]),
			StockReady: int64(rng.IntN(6000)),
		}
		if rng.IntN(4) == 0 {
			p.StockWIP = int64(rng.IntN(2000))
		}
		for _, pk := range classPacks[k.class] {
			if rng.IntN(3) == 0 && len(p.PackSizes) > 0 {
				continue
			}
			name := strings.ToLower(pk.names[rng.IntN(len(pk.names))])
			if p.Unit == name || hasPack(p.PackSizes, name) {
				continue
			}
			p.PackSizes = append(p.PackSizes, domain.PackSize{Name: name, Units: pk.units[rng.IntN(len(pk.units))]})
		}
		p.Aliases = productAliases(rng, b, k, variant, sz)
		out = append(out, p)
	}
	return out
}

func hasPack(ps []domain.PackSize, name string) bool {
	for _, p := range ps {
		if p.Name == name {
			return true
		}
	}
	return false
}

// productAliases are what sales staff call a product: most are shared with
// the product's other sizes and variants, or with its kind in every brand.
func productAliases(rng *rand.Rand, b brand, k kind, variant string, sz sizeName) []string {
	var as []string
	add := func(percent int, alias string) {
		if alias != "" && rng.IntN(100) < percent && !contains(as, alias) {
			as = append(as, alias)
		}
	}
	initials := initialsOf(b.name + " " + k.name)
	add(50, initials)
	add(40, strings.ToLower(firstWord(b.name)+" "+k.name))
	add(10, k.hinglish[rng.IntN(len(k.hinglish))])
	if b.deva != "" && k.deva != "" {
		add(20, b.deva+" "+k.deva)
	}
	if variant != "" {
		add(15, strings.ToLower(firstWord(b.name)+" "+variant))
	}
	add(20, initials+strings.TrimRight(sz.key, "abcdefghijklmnopqrstuvwxyz"))
	add(5, strings.ToLower(firstWord(b.name))+" "+k.hinglish[0])
	return as
}

func customers(rng *rand.Rand, n int) []domain.Customer {
	zipf := rand.NewZipf(rng, 1.05, 3, uint64(len(surnames)-1))
	out := make([]domain.Customer, 0, n)
	for i := range n {
		s := surnames[zipf.Uint64()]
		first := firstNames[rng.IntN(len(firstNames))]
		shop := shops[rng.IntN(len(shops))]
		town := towns[rng.IntN(len(towns))]
		var name string
		switch x := rng.IntN(100); {
		case x < 30:
			name = s.name + " " + shop
		case x < 50:
			name = first + " " + s.name + " " + shop
		case x < 65:
			name = first + " " + shop
		case x < 75:
			name = "M/s " + s.name + " " + shop
		case x < 85:
			name = s.name + " " + shop + ", " + town
		case x < 90:
			name = []string{"Hotel " + first, town + " Hospital", first + " Dhaba", town + " Public School"}[rng.IntN(4)]
		default:
			name = town + " " + shop
		}
		c := domain.Customer{
			ID:          fmt.Sprintf("C%06d", i+1),
			Name:        name,
			Phone:       fmt.Sprintf("+9198%08d", i+1),
			Segment:     []string{"kirana", "general_store", "wholesale", "supermarket", "pharmacy", "horeca"}[rng.IntN(6)],
			CreditLimit: domain.Paise(int64(20000+rng.IntN(480000)) * 100),
		}
		if rng.IntN(10) < 4 {
			c.Outstanding = domain.Paise(rng.Int64N(int64(c.CreditLimit)))
		}
		for _, m := range domain.PaymentModes {
			if rng.IntN(2) == 0 {
				c.PaymentModes = append(c.PaymentModes, m)
			}
		}
		if len(c.PaymentModes) == 0 {
			c.PaymentModes = []domain.PaymentMode{domain.PayCOD}
		}
		add := func(percent int, alias string) {
			if alias != "" && rng.IntN(100) < percent && !contains(c.Aliases, alias) && alias != name {
				c.Aliases = append(c.Aliases, alias)
			}
		}
		if strings.Contains(name, s.name) {
			add(30, s.name+" ji")
			add(20, s.deva)
			add(15, s.name+" "+town)
		}
		if strings.HasPrefix(name, first) {
			add(15, first+" bhai")
		}
		out = append(out, c)
	}
	return out
}

type surname struct{ name, deva string }

// surnames are ordered from the most common: Zipf picks the first ones most.
var surnames = []surname{
	{"Gupta", "गुप्ता"}, {"Sharma", "शर्मा"}, {"Agarwal", "अग्रवाल"}, {"Jain", "जैन"}, {"Verma", "वर्मा"},
	{"Singh", "सिंह"}, {"Yadav", "यादव"}, {"Mehta", "मेहता"}, {"Patel", "पटेल"}, {"Shah", "शाह"},
	{"Goel", "गोयल"}, {"Bansal", "बंसल"}, {"Mittal", "मित्तल"}, {"Garg", "गर्ग"}, {"Singhal", "सिंघल"},
	{"Khandelwal", "खंडेलवाल"}, {"Maheshwari", "माहेश्वरी"}, {"Chaudhary", "चौधरी"}, {"Mishra", "मिश्रा"}, {"Tiwari", "तिवारी"},
	{"Pandey", "पांडे"}, {"Dubey", "दुबे"}, {"Srivastava", "श्रीवास्तव"}, {"Saxena", "सक्सेना"}, {"Kapoor", "कपूर"},
	{"Malhotra", "मल्होत्रा"}, {"Khanna", "खन्ना"}, {"Arora", "अरोड़ा"}, {"Bhatia", "भाटिया"}, {"Sethi", "सेठी"},
	{"Chopra", "चोपड़ा"}, {"Kohli", "कोहली"}, {"Ahuja", "आहूजा"}, {"Rastogi", "रस्तोगी"}, {"Varshney", "वार्ष्णेय"},
	{"Kushwaha", "कुशवाहा"}, {"Maurya", "मौर्य"}, {"Rathore", "राठौर"}, {"Chauhan", "चौहान"}, {"Thakur", "ठाकुर"},
	{"Reddy", ""}, {"Naidu", ""}, {"Iyer", ""}, {"Nair", ""}, {"Menon", ""}, {"Pillai", ""}, {"Das", "दास"},
	{"Ghosh", "घोष"}, {"Banerjee", "बनर्जी"}, {"Mukherjee", "मुखर्जी"}, {"Sen", "सेन"}, {"Bose", "बोस"},
	{"Ansari", "अंसारी"}, {"Qureshi", "कुरैशी"}, {"Khan", "खान"}, {"Siddiqui", "सिद्दीकी"}, {"Shaikh", "शेख"},
	{"Deshmukh", ""}, {"Patil", "पाटिल"}, {"Joshi", "जोशी"}, {"Kulkarni", ""}, {"Bhatt", "भट्ट"}, {"Trivedi", "त्रिवेदी"},
}

var firstNames = strings.Fields(`Rajesh Suresh Ramesh Mahesh Dinesh Ashok Anil Sunil Vinod Manoj Sanjay Vijay Ajay Rakesh
	Mukesh Naresh Umesh Ganesh Kamlesh Rajendra Surendra Narendra Mohan Sohan Shyam Ram Gopal Krishna Hari Om Prakash
	Deepak Pankaj Amit Sumit Rohit Mohit Ankit Nitin Sachin Rahul Vikas Vishal Gaurav Saurabh Abhishek Arun Varun Tarun
	Kiran Sunita Anita Geeta Seema Rekha Pooja Neha Priya Kavita Savita Lalit Lokesh Yogesh Jitendra Dharmendra Bhupendra
	Imran Salim Javed Rafiq Aslam Irfan Arif Shahid Harish Girish Satish Jagdish Praveen Naveen Sandeep Kuldeep Pradeep
	Bablu Pappu Guddu Munna Chhotu Raju Sonu Monu Pintu Bunty Tinku Rinku`)

var shops = []string{"Kirana Store", "General Store", "Traders", "Medical Stores", "Enterprises", "Agencies",
	"Provision Store", "Supermart", "Brothers", "& Sons", "Trading Company", "Bhandar", "Distributors", "Wholesale",
	"Emporium", "Mart", "Medicos", "Departmental Store", "Agency", "Stores"}

var towns = strings.Fields(`Kanpur Lucknow Agra Meerut Varanasi Prayagraj Bareilly Aligarh Moradabad Gorakhpur Jhansi
	Mathura Ghaziabad Noida Saharanpur Firozabad Etawah Mainpuri Hardoi Sitapur Unnao Rae-Bareli Sultanpur Faizabad
	Ayodhya Gonda Basti Deoria Ballia Azamgarh Jaunpur Mirzapur Banda Hamirpur Lalitpur Orai Kannauj Farrukhabad Budaun
	Shahjahanpur Pilibhit Rampur Bijnor Muzaffarnagar Shamli Baghpat Bulandshahr Hapur Hathras Etah Kasganj`)

// code is the first three letters of a name, for SKUs.
func code(name string) string {
	var b strings.Builder
	for _, r := range name {
		if unicode.IsLetter(r) && b.Len() < 3 {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// initialsOf is "SFC" for "Surya Floor Cleaner".
func initialsOf(name string) string {
	var b strings.Builder
	for _, w := range strings.Fields(name) {
		r := []rune(w)[0]
		if unicode.IsLetter(r) {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	if b.Len() < 2 {
		return ""
	}
	return b.String()
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(s, " ")
	return w
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// WriteCatalog writes products in the catalog CSV format `munshi import
// catalog` reads.
func WriteCatalog(w io.Writer, ps []domain.Product) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"sku", "name", "aliases", "unit", "pack_sizes", "price", "gst_percent", "stock_ready", "stock_wip"})
	for _, p := range ps {
		packs := make([]string, len(p.PackSizes))
		for i, ps := range p.PackSizes {
			packs[i] = ps.Name + "=" + strconv.FormatInt(ps.Units, 10)
		}
		cw.Write([]string{p.SKU, p.Name, strings.Join(p.Aliases, "|"), p.Unit, strings.Join(packs, "|"),
			hundredths(int64(p.Price)), hundredths(int64(p.GSTPercent)),
			strconv.FormatInt(p.StockReady, 10), strconv.FormatInt(p.StockWIP, 10)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteCustomers writes customers in the CSV format `munshi import
// customers` reads.
func WriteCustomers(w io.Writer, cs []domain.Customer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"id", "name", "aliases", "phone", "segment", "credit_limit", "outstanding", "payment_modes"})
	for _, c := range cs {
		modes := make([]string, len(c.PaymentModes))
		for i, m := range c.PaymentModes {
			modes[i] = string(m)
		}
		cw.Write([]string{c.ID, c.Name, strings.Join(c.Aliases, "|"), c.Phone, c.Segment,
			hundredths(int64(c.CreditLimit)), hundredths(int64(c.Outstanding)), strings.Join(modes, "|")})
	}
	cw.Flush()
	return cw.Error()
}

// hundredths writes paise as rupees, or basis points as a percentage.
func hundredths(n int64) string {
	return fmt.Sprintf("%d.%02d", n/100, n%100)
}
