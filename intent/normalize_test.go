package intent

import (
	"slices"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

func TestNormalizeText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Theek   hai!!", "theek hai"},
		{"thik h", "theek hai"},
		{"thek hai", "theek hai"},
		{"nahin yaar", "nahi yaar"},
		{"nhi", "nahi"},
		{"nahee", "nahi"},
		{"haaan", "haan"},
		{"han ji", "haan ji"},
		{"haanji", "haan ji"},
		{"ha theek hai", "haan theek hai"},
		{"stock kitna ha", "stock kitna hai"},
		{"ha ha ha", "haha haha haha"},
		{"hahaha", "haha"},
		{"ktna", "kitna"},
		{"kitnaa", "kitna"},
		{"bhej do", "bhejo"},
		{"bhejdo", "bhejo"},
		{"bhej dijiye", "bhejo"},
		{"chaiye", "chahiye"},
		{"chahie", "chahiye"},
		{"k liye", "keliye"},
		{"dikha do na", "dikhao na"},
		{"pls", "please"},
		{"500 gm", "500g"},      // grams, not "good morning"
		{"10 மூட்டை", "10 bag"}, // Tamil's sack, only after a count
		{"10 dozn", "10 dozen"}, {"2 packt", "2 pack"}, {"2 થેલા", "2 bag"}, {"1 ಡಜನ್", "1 dozen"}, {"500 পিস", "500 piece"},
		{"thank you", "thanks"},
		{"👍", "ok"},
		{"👍🏽", "ok"},
		{"✅", "ok"},
		{"🙏", "thanks"},
		{"ok👍", "ok ok"},
		{"हाँ जी", "haan ji"},
		{"हां जी", "haan ji"},
		{"ठीक है", "theek hai"},
		{"नहीं", "nahi"},
		{"१० कार्टन", "10 carton"},
		{"what's up", "whats up"},
		{"I’m", "im"},
		{"1,200 pcs", "1200 piece"},
		{"1.5 carton", "1.5 carton"},
		{"Mehta ka o/s", "mehta ka outstanding"},
		{"paanch carton", "5 carton"},
		{"do sau pcs", "200 piece"},
		{"dedh sau box", "150 box"},
		{"saadhe teen carton", "3.5 carton"},
		{"5 क्रेट", "5 crate"},
		{"100 meter", "100 metre"},
		{"bulb 9 watt", "bulb 9w"},
		{"9 वाट बल्ब", "9w बल्ब"},
		{"du peti", "2 carton"},
		{"20 ਕਿੱਲੋ", "20kg"},
		{"பத்தாயிரம் ரொக்கம்", "10000 cash"},
		{"iruvathanju aayiram", "25000"},
		// Twenty thousand in Gujarati and Konkani, Punjabi, Tamil and
		// Kannada; ten thousand in Konkani's script.
		{"vis hajar", "20000"}, {"veeh hazaar", "20000"}, {"iruvathu aayiram", "20000"}, {"ippattu saavira", "20000"},
		{"धा हजार रोख", "10000 cash"},
		{"40 mootai", "40 bag"}, // Tamil's sack, romanised
		{"ek go peti aur du go carton", "1 carton aur 2 carton"},
		{"40 mtr", "40 metre"},
		{"2 टिन", "2 tin"},
		{"50 पाउच", "50 pouch"},
		{"3 बाल्टी", "3 bucket"},
		{"साढ़े 3 crate", "3.5 crate"},
		{"sava do sau box", "225 box"},
		{"paune do carton", "1.75 carton"},
		{"sava 2 baje", "sava 2 baje"},
		{"sawa litre pepsi", "1.25l pepsi"},
		{"a dozen soap", "1 dozen soap"},
		{"half a box of monaco", "0.5 box of monaco"},
		{"what a day", "what a day"},
		{"paune kilo", "0.75kg"},
		{"twenty five bottles", "25 bottle"},
		{"ek do carton", "ek 2 carton"},
		{"bhej do 5 carton", "bhejo 5 carton"},
		{"500 ml", "500ml"},
		{"1 Ltr", "1l"},
		{"5ctn", "5 carton"},
		{"10x", "10"},
		{"২টা ভাঙা", "2 भाङा"}, // Bengali's count classifier: two of them
		{"৬টো", "6"},
		{"1 ਦਰਜਨ", "1 dozen"},
		{"approve ORDER-123", "approve order-123"},
		{"order #45 cancel", "order-45 cancel"},
		{"ORD-2024-0012", "order-2024-0012"},
		{"Order: 5 ctn GC", "order 5 carton gc"},
		{"order - 5 box", "order 5 box"},
		{"ORD1042 delivered", "order-1042 delivered"},
		{"order1042", "order-1042"},
		{"approve D-57", "approve draft-57"},
		{"reject draft 57", "reject draft-57"},
		{"d#57 cancel", "draft-57 cancel"},
		{"approve PRP-12", "approve prp-12"},
		{"reject prp 12", "reject prp-12"},
		{"PRP-A1 cancel", "prp a1 cancel"},
		{"GC for D-Mart", "gc for d mart"},
		{"ordinary", "ordinary"},
		{"25k UPI", "25000 upi"},
		{"1.5k", "1500"},
		{"2lakh cheque", "200000 cheque"},
		{"1.2 lakh", "120000"},
		{"1.15 lakh", "115000"}, // not 114999.99999999999
		{"1.15lakh", "115000"},
		{"4.1lakh", "410000"},
		{"0.07lakh", "7000"},
		{"pachas hazaar", "50000"},
		{"₹25,000", "rupees 25000"},
		{"Rs.500", "rupees 500"},
		{"rs500", "rupees 500"},
		{"INR5000", "rupees 5000"},
		{"2l phenyl", "2l phenyl"}, // two litres, not two lakh
		{"maal aa gaya", "maal aaya"},
		{"pahunch gaya", "pahuncha"},
		{"mil gaya", "mila"},
		{"ORD-1042 पहुंच गया", "order-1042 pahuncha"},
		{"मेहता से 50 हजार का चेक मिला", "मेहता se 50000 ka cheque mila"},
		{"hellooooo", "hello"},
		{"4 hazar phone pe kiya", "4000 phonepe kiya"},
		{"phone pe bola 2 carton bhej do", "phone pe bola 2 carton bhejo"},
		{"फ़ोन पे नहीं होगा", "फोन pe nahi hoga"},
		{"११४०० फोन पे कर दिए", "11400 phonepe kar diya"},
		{"११,४०० दिए", "11400 diya"},
		{"१,२०,००० दिए", "120000 diya"},
		{"১২,৫০০ টাকা", "12500 rupees"},
		{"२.५ लाख", "250000"},
		{"bhai...", "bhai"},
		{"  ", ""},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in).Text; got != tt.want {
			t.Errorf("Normalize(%q).Text = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Every canonical word must be its own canonical form, or normalising
// twice would change a message.
func TestCanonicalWordsAreFixedPoints(t *testing.T) {
	for variant, canon := range canonicalWords {
		for _, w := range canon {
			if c, ok := canonicalWords[w]; !ok || len(c) != 1 || c[0] != w {
				t.Errorf("%q → %q, but %q → %q", variant, canon, w, c)
			}
		}
	}
	for pair, w := range phrasePairs {
		if c, ok := canonicalWords[w]; ok && (len(c) != 1 || c[0] != w) {
			t.Errorf("phrase %q → %q is not canonical (%q)", pair, w, c)
		}
	}
}

func TestNormalizeOffsets(t *testing.T) {
	text := "Rajesh ke liye 5 GC"
	n := Normalize(text)
	var got []string
	for _, tok := range n.Tokens {
		got = append(got, text[tok.Start:tok.End])
	}
	want := []string{"Rajesh", "ke liye", "5", "GC"}
	if !slices.Equal(got, want) {
		t.Errorf("token sources = %q, want %q", got, want)
	}
}

func TestNormalizeQuestion(t *testing.T) {
	if !Normalize("GC ka stock?").Question || Normalize("GC ka stock").Question {
		t.Error("Question must say whether the message had a question mark")
	}
}

type entityWant struct {
	kind EntityKind
	id   string
	text string
}

func entitiesOf(n Normalized) []entityWant {
	var out []entityWant
	for _, e := range n.Entities {
		out = append(out, entityWant{e.Kind, e.ID, e.Text})
	}
	return out
}

func TestEntitiesDemoCatalog(t *testing.T) {
	r := demoRouter(t)
	tests := []struct {
		in   string
		want []entityWant
	}{
		{"Rajesh ke liye 5 GC aur 10 phenyl bhej do, cash payment", []entityWant{
			{EntityCustomer, "C01", "rajesh"}, {EntityNumber, "5", "5"}, {EntityProduct, "GC500", "gc"},
			{EntityNumber, "10", "10"}, {EntityProduct, "PH1L", "phenyl"},
		}},
		{"5 carton glass cleaner aur 10 pack phenyl for Rajesh, COD", []entityWant{
			{EntityNumber, "5", "5"}, {EntityUnit, "carton", "carton"}, {EntityProduct, "GC500", "glass cleaner"},
			{EntityNumber, "10", "10"}, {EntityUnit, "pack", "pack"}, {EntityProduct, "PH1L", "phenyl"},
			{EntityCustomer, "C01", "rajesh"},
		}},
		{"Sharma ji: 10 ctns harpic", []entityWant{
			{EntityCustomer, "C02", "sharma ji"}, {EntityNumber, "10", "10"}, {EntityUnit, "carton", "carton"},
			{EntityProduct, "TC500", "harpic"},
		}},
		{"राजेश के लिए फिनाइल १० पेटी", []entityWant{
			{EntityCustomer, "C01", "राजेश"}, {EntityProduct, "PH1L", "फिनाइल"}, {EntityNumber, "10", "10"},
			{EntityUnit, "carton", "carton"},
		}},
		{"Glass Cleaner 500ml 2 box", []entityWant{
			{EntityProduct, "GC500", "glass cleaner 500ml"}, {EntityNumber, "2", "2"}, {EntityUnit, "box", "box"},
		}},
		{"Rajesh Kirana Store ko garbage bags", []entityWant{
			{EntityCustomer, "C01", "rajesh kirana store"}, {EntityProduct, "GB30", "garbage bags"},
		}},
		{"Ashok ko do dozen jhadu", []entityWant{
			{EntityCustomer, "C08", "ashok"}, {EntityNumber, "2", "2"}, {EntityUnit, "dozen", "dozen"},
			{EntityProduct, "BR01", "jhadu"},
		}},
		{"can we get 5 cans of odonil", []entityWant{
			{EntityNumber, "5", "5"}, {EntityUnit, "can", "can"}, {EntityProduct, "AF250", "odonil"},
		}},
		{"approve ORDER-123", []entityWant{{EntityOrderRef, "ORDER-123", "order-123"}}},
		{"approve D-57", []entityWant{{EntityOrderRef, "DRAFT-57", "draft-57"}}},
		{"approve PRP-12", []entityWant{{EntityOrderRef, "PRP-12", "prp-12"}}},
	}
	for _, tt := range tests {
		if got := entitiesOf(r.Normalize(tt.in)); !slices.Equal(got, tt.want) {
			t.Errorf("%q:\n got %v\nwant %v", tt.in, got, tt.want)
		}
	}
}

func TestEntitiesSharedNameAndTypos(t *testing.T) {
	r := demoRouter(t)
	es := r.Entities("Gupta ko 5 ctn surf")
	if len(es) == 0 || es[0].Kind != EntityCustomer || !slices.Equal(es[0].IDs, []string{"C04", "C09"}) {
		t.Errorf("Gupta names two customers: got %+v", es)
	}
	es = r.Entities("phenl 5ctn")
	if len(es) == 0 || es[0].ID != "PH1L" || !es[0].Fuzzy {
		t.Errorf("phenl is a typo of phenyl: got %+v", es)
	}
	es = r.Entities("harpik aur napthalene")
	if len(es) != 2 || es[0].ID != "TC500" || es[1].ID != "NB100" {
		t.Errorf("typos of harpic and naphthalene: got %+v", es)
	}
}

// A word written with some of its vowels left out is the name's word with
// the same consonants, in a name of several words too ("ocean perl
// restrant", "jagnath bulders"); vowels written otherwise, another first
// letter or a word training has are not.
func TestEntitiesWithVowelsLeftOut(t *testing.T) {
	lex := mustLexicon(Vocabulary{
		Products: []domain.Product{
			{SKU: "SP75", Name: "Bathing Soap 75g", Aliases: []string{"sabun"}},
			{SKU: "CL500", Name: "Colin Glass Cleaner 500ml", Aliases: []string{"colin"}},
			{SKU: "SP550", Name: "Waaree Solar Panel 550W", Aliases: []string{"solar panel"}},
		},
		Customers: []domain.Customer{{ID: "G07", Name: "Ocean Pearl Restaurant"}, {ID: "M03", Name: "Jagannath Builders"}},
	})
	for in, want := range map[string]string{
		"ocean perl restrant ko 30 pkt": "G07", "jagnath bulders 400 bag": "M03", "10 solar panl": "SP550",
	} {
		named := 0
		for _, e := range lex.normalize(in).Entities {
			if e.Kind == EntityProduct || e.Kind == EntityCustomer {
				named++
				if e.ID != want || !e.Fuzzy {
					t.Errorf("%q: %+v, want %s with a typo", in, e, want)
				}
			}
		}
		if named != 1 {
			t.Errorf("%q: %d names, want %s", in, named, want)
		}
	}
	for _, in := range []string{"Sabine ko hi kaho", "chat requests ko kholen", "sbn 5", "solar pinal"} {
		for _, e := range lex.normalize(in).Entities {
			if e.Kind == EntityProduct || e.Kind == EntityCustomer {
				t.Errorf("%q: %q read as %s %s", in, e.Text, e.Kind, e.ID)
			}
		}
	}
}

// A measure that begins a product's name is the name's, and the number
// before it counts the product; elsewhere a number and a measure are a
// size.
func TestMeasureThatBeginsAName(t *testing.T) {
	lex := mustLexicon(Vocabulary{Products: []domain.Product{
		{SKU: "HAM05", Name: "Ball Pein Hammer 500 g", Aliases: []string{"hammer"}},
		{SKU: "HAM10", Name: "Ball Pein Hammer 1 kg", Aliases: []string{"hammer", "kilo wala hammer"}},
	}})
	es := lex.normalize("20 kilo wala hammer bhejo").Entities
	if len(es) != 2 || es[0].Kind != EntityNumber || es[0].Value != 20 || es[1].ID != "HAM10" {
		t.Errorf("20 kilo wala hammer: %+v", es)
	}
	es = lex.normalize("20 kilo hammer").Entities
	if len(es) != 2 || es[0].Kind != EntitySize || es[0].ID != "20kg" {
		t.Errorf("20 kilo hammer: %+v", es)
	}
}

// Names match whole words only, and ordinary words never become names by
// typo.
func TestEntitiesWordBoundaries(t *testing.T) {
	r := demoRouter(t)
	for _, in := range []string{
		"book a cab", "Facebook pe photo", "okra", "tokens", "final hai", "brook", "bloom", "colon",
		"gaadi kharab hai", "shop band hai", "sabzi le aana", "mopping", "soapy water", "goliyan",
		"hospitality", "groom", "final", "phone", "money", "order karo",
	} {
		for _, e := range r.Entities(in) {
			if e.Kind == EntityProduct || e.Kind == EntityCustomer {
				t.Errorf("%q: %q read as %s %s", in, e.Text, e.Kind, e.ID)
			}
		}
	}
	n := r.Normalize("Ashok bhai")
	if strings.Contains(" "+n.Text+" ", " ok ") || len(n.Entities) != 1 || n.Entities[0].ID != "C08" {
		t.Errorf("Ashok is a customer and contains no ok: %q %+v", n.Text, n.Entities)
	}
}

// TestBooksOrderNumbersAreOneReference: an order number another system
// gave ("T-6001", "so-2231", "T-2026-0042") is one reference when its
// prefix is no word Munshi reads; a product's code ("GC-500"), an amount
// ("rs-500") and numbers too short to be an order stay as they were. A
// capital letter and a number of four digits or more spaced apart ("T
// 7008") is one too, and a letter typed tight against one ("t7006"); "a
// 5000", "x 1000" and "x1000" are not.
func TestBooksOrderNumbersAreOneReference(t *testing.T) {
	booksRefsRead(t, demoRouter(t), map[string]string{
		"T-6001 deliver ho gaya": "T-6001", "order so-2231 ka maal de diya": "SO-2231",
		"T-2026-0042 pahunch gaya": "T-2026-0042", "ORD-1042 delivered": "ORDER-1042",
		"T 7008 ka maal de diya bhai": "T-7008", "a 5000 ka payment": "", "5 carton x 1000": "", "t 7008 ka maal": "",
		"t7006 dilivered ho gaya": "T-7006", "5 carton x1000": "", "t700 wala": "",
		"GC-500 5 ctn": "", "rs-500 cash": "", "5000 NEFT kiya UTR-556677": "", "ref-556677": "", "A-12 wala": "", "t - 6001": "", "x-12345678901": "",
		// Letters Munshi also reads as a word ("kb" is "kab"), but not
		// those marking a paper's number.
		"KB-5104 da maal deliver ho gaya": "KB-5104", "chq no-220915": "",
	})
}

// TestBooksOrderNumberBeginsWithAKnownLetter: where the catalog makes a
// letter a word ("Parle-G Biscuit"), that letter still begins an order
// number with its hyphen and four digits or more ("G-7003"); with fewer
// digits, or spaced, it stays the word.
func TestBooksOrderNumberBeginsWithAKnownLetter(t *testing.T) {
	v := Vocabulary{Products: []domain.Product{{SKU: "PGB100", Name: "Parle-G Biscuit", Aliases: []string{"parle"}, Unit: "packet"}}}
	r := routerFor(t, v)
	booksRefsRead(t, r, map[string]string{
		"G-7003 ka status kya hai": "G-7003", "Annapurna ka maal pahuncha diya, G-7003": "G-7003",
		"g-700 wala": "", "G 7003 wala": "", "5 carton parle-g": "",
	})
}

func booksRefsRead(t *testing.T, r *Router, cases map[string]string) {
	t.Helper()
	for text, want := range cases {
		if got := lastEntity(r, text, EntityOrderRef).ID; got != want {
			t.Errorf("%q: order reference %q, want %q", text, got, want)
		}
	}
}

// TestInchesAreSizes: a width in inches is a size, whether in digits, a
// fraction with a slash, or words ("aadha", "pauna", "sava", "ek"), and
// so is a fraction of a kilo or a litre; a slash elsewhere still parts
// two numbers, since "1/2" may be a date. A
// number said in words before a size and a product counts them.
func TestInchesAreSizes(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"PVC Pipe 1/2 inch 3m", "pvc pipe 0.5inch 3m"},
		{"3/4 inch pvc pipe", "0.75inch pvc pipe"},
		{"3/4inch", "0.75inch"},
		{"3/8 इंच", "0.375inch"},
		{"half inch tee", "0.5inch tee"},
		{"aadha inch", "0.5inch"},
		{"pauna inch elbow", "0.75inch elbow"},
		{"sava inch", "1.25inch"},
		{"ek inch wala", "1inch wala"},
		{"2 inches", "2inch"},
		{"1/2 carton", "1 2 carton"},
		{"1/2 kg", "0.5kg"},
		{"100 ग्राम", "100g"},
		{"કિચન કિંગ 100 ગ્રામ", "किचन किंग 100g"},
		{"3/4 litre", "0.75l"},
		{"cheque 3/4 ko", "cheque 3 4 ko"},
	} {
		if got := Normalize(c.in).Text; got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	r := routerFor(t, Vocabulary{Products: []domain.Product{{SKU: "BR1", Name: "Paint Brush 1 inch", Aliases: []string{"brush"}, Unit: "piece"}}})
	for in, want := range map[string]string{"aath 1 inch brush": "8 1inch brush", "do 1 inch brush": "do 1inch brush"} {
		if got := r.Normalize(in).Text; got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestANameWithoutItsTitleAndTrade: a customer's name is also read
// without the title before it and the trade after it, so "Ganesh" names
// both Shree Ganesh Sanitary and Ganesh Plumbing Works, and is asked
// about; "Gill" names Gill Auto Parts.
func TestANameWithoutItsTitleAndTrade(t *testing.T) {
	r := routerFor(t, Vocabulary{Customers: []domain.Customer{
		{ID: "P01", Name: "Shree Ganesh Sanitary"},
		{ID: "P02", Name: "Ganesh Plumbing Works"},
		{ID: "L03", Name: "Gill Auto Parts"},
	}})
	for text, want := range map[string][]string{
		"Ganesh se 5000 upi aaya":     {"P01", "P02"},
		"ganesh plumbing ko 2 carton": {"P02"},
		"shree ganesh 5000 cash":      {"P01"},
		"Gill ko 1 carton":            {"L03"},
	} {
		es := r.Entities(text)
		if len(es) == 0 || es[0].Kind != EntityCustomer || !slices.Equal(es[0].Candidates(), want) {
			t.Errorf("%q: got %+v, want the customer %v", text, es, want)
		}
	}
}

// TestAPluralNameBesideAnotherNamesPlural: "sports shoes" is the product
// called "sports shoe", though another product is called "school shoes"
// and so the plural is a word of a name in its own right.
func TestAPluralNameBesideAnotherNamesPlural(t *testing.T) {
	r := routerFor(t, Vocabulary{Products: []domain.Product{
		{SKU: "SPX", Name: "Sparx Sports Shoe Gents", Aliases: []string{"sparx", "sports shoe"}, Unit: "pair"},
		{SKU: "PTSH", Name: "Bata PT Canvas Shoe White", Aliases: []string{"pt shoe"}, Unit: "pair"},
		{SKU: "SCHB", Name: "Action School Shoe Black (1-5)", Aliases: []string{"school shoe", "school shoes"}, Unit: "pair"},
		{SKU: "SCHK", Name: "Action School Shoe Black Kids (10-13)", Aliases: []string{"school shoe", "school shoes"}, Unit: "pair"},
	}})
	for in, want := range map[string]string{"3 carton sports shoes": "SPX", "2 set pt shoes": "PTSH", "5 set school shoes": "SCHB|SCHK"} {
		var got []string
		for _, e := range r.Normalize(in).Entities {
			if e.Kind == EntityProduct {
				got = append(got, strings.Join(e.Candidates(), "|"))
			}
		}
		if strings.Join(got, ",") != want {
			t.Errorf("%q names %v, want %s", in, got, want)
		}
	}
}
