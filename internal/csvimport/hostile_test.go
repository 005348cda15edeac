package csvimport_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/domain"
)

// hostileRunes are characters no imported field may hold, with a word the
// refusal must use.
var hostileRunes = []struct {
	name string
	r    rune
	word string
}{
	{"NUL", 0x00, "control character U+0000"},
	{"bell", 0x07, "control character U+0007"},
	{"tab", '\t', "control character U+0009"},
	{"line feed", '\n', "line break (U+000A)"},
	{"carriage return", '\r', "line break (U+000D)"},
	{"vertical tab", '\v', "line break"},
	{"form feed", '\f', "line break"},
	{"escape", 0x1B, "control character U+001B"},
	{"DEL", 0x7F, "control character U+007F"},
	{"next line (C1)", 0x85, "line break (U+0085)"},
	{"CSI (C1)", 0x9B, "control character U+009B"},
	{"line separator", 0x2028, "line break (U+2028)"},
	{"paragraph separator", 0x2029, "line break (U+2029)"},
	{"LRE", 0x202A, "direction control U+202A"},
	{"RLE", 0x202B, "direction control U+202B"},
	{"PDF", 0x202C, "direction control U+202C"},
	{"LRO", 0x202D, "direction control U+202D"},
	{"RLO", 0x202E, "direction control U+202E"},
	{"LRI", 0x2066, "direction control U+2066"},
	{"RLI", 0x2067, "direction control U+2067"},
	{"FSI", 0x2068, "direction control U+2068"},
	{"PDI", 0x2069, "direction control U+2069"},
	{"LRM", 0x200E, "direction control U+200E"},
	{"RLM", 0x200F, "direction control U+200F"},
	{"Arabic letter mark", 0x061C, "direction control U+061C"},
	{"zero-width space", 0x200B, "invisible character U+200B"},
	{"word joiner", 0x2060, "invisible character U+2060"},
	{"byte order mark inside a field", 0xFEFF, "invisible character U+FEFF"},
	{"soft hyphen", 0xAD, "invisible character U+00AD"},
	{"tag letter", 0xE0041, "invisible character U+E0041"},
	{"private use", 0xE000, "private-use character U+E000"},
}

// TestHostileCharactersInEveryField puts each hostile character inside
// every column of every file, quoted so that the CSV reader keeps it, and
// expects the row refused on its line with the column named.
func TestHostileCharactersInEveryField(t *testing.T) {
	files := []struct {
		kind  kind
		valid []string // one good row, field by field
	}{
		{catalog, []string{"GC500", "Glass Cleaner 500ml", "GC|colin", "bottle", "carton=24|box=6", "92.00", "18", "2400", "480"}},
		{customers, []string{"C01", "Rajesh Kirana Store", "Rajesh|राजेश", "+919810000001", "kirana", "100000", "35000", "cod|credit|upi"}},
		{users, []string{"+919900000003", "Ravi Kumar", "sales"}},
		{orders, []string{"T-5531", "2026-09-14", "C01", "GC500", "120", "92.00", "18", "delivered", "+919900000003"}},
		{payments, []string{"2026-09-15", "C01", "11040.00", "cheque", "CHQ 004512"}},
	}
	for _, f := range files {
		header := map[kind][]string{catalog: csvimport.CatalogColumns, customers: csvimport.CustomerColumns, users: csvimport.UserColumns,
			orders: csvimport.OrderColumns, payments: csvimport.PaymentColumns}[f.kind]
		for col := range f.valid {
			for _, h := range hostileRunes {
				t.Run(fmt.Sprintf("%s/%s/%s", f.kind, header[col], h.name), func(t *testing.T) {
					fields := append([]string(nil), f.valid...)
					v := fields[col]
					cut := len(v) / 2
					for cut > 0 && !utf8.RuneStart(v[cut]) {
						cut--
					}
					if cut == 0 {
						cut = len(v)
					}
					fields[col] = v[:cut] + string(h.r) + v[cut:]
					data := strings.Join(header, ",") + "\n" + quoteRow(f.valid) + "\n" + quoteRow(fields) + "\n"
					n, err := read(f.kind, data)
					if n != 0 {
						t.Fatalf("%d rows imported with the error", n)
					}
					ce := importError(t, err, f.kind.String())
					wantProblems(t, ce, p(3, header[col], h.word))
					if len(ce.Problems) != 1 {
						t.Errorf("want exactly the one problem, got %+v", ce.Problems)
					}
					for _, pr := range ce.Problems {
						if strings.ContainsRune(pr.Reason, h.r) {
							t.Errorf("the reason repeats the character itself: %q", pr.Reason)
						}
					}
				})
			}
		}
	}
}

// quoteRow writes fields as one CSV row, each quoted.
func quoteRow(fields []string) string {
	q := make([]string, len(fields))
	for i, f := range fields {
		q[i] = `"` + strings.ReplaceAll(f, `"`, `""`) + `"`
	}
	return strings.Join(q, ",")
}

func TestJoinersAndEmojiAreText(t *testing.T) {
	// ZWJ and ZWNJ shape Devanagari conjuncts and build emoji; variation
	// selectors and skin tones are part of emoji.
	names := []string{
		"क्\u200Dष ट्रेडर्स",     // ZWJ after a virama
		"श्\u200Cर स्टोर",        // ZWNJ after a virama
		"Rajesh 👨\u200D👩\u200D👧", // family emoji
		"Pride 🏳\uFE0F\u200D🌈",   // variation selector, then ZWJ
		"Coder 👩🏽\u200D💻",        // skin tone, then ZWJ
		"Love ❤\uFE0F",
		"राजेश\u00A0किराना", // no-break space
	}
	var b strings.Builder
	b.WriteString(customersHeader)
	for i, n := range names {
		fmt.Fprintf(&b, "C%02d,%s,%s,,kirana,0,0,cod\n", i+1, quoteRow([]string{n}), quoteRow([]string{n}))
	}
	cs, err := csvimport.ReadCustomers(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cs {
		if c.Name != names[i] || len(c.Aliases) != 1 || c.Aliases[0] != names[i] {
			t.Errorf("customer %d = %q %q, want %q kept as written", i, c.Name, c.Aliases, names[i])
		}
	}
}

func TestJoinersThatJoinNothing(t *testing.T) {
	for _, tc := range []struct{ name, value, word string }{
		{"ZWJ first", "\u200DRajesh", "zero-width joiner (U+200D)"},
		{"ZWJ last", "Rajesh\u200D", "zero-width joiner"},
		{"ZWNJ before a space", "Rajesh\u200C Kirana", "zero-width non-joiner (U+200C)"},
		{"ZWJ after a space", "Rajesh \u200DKirana", "joins nothing"},
		{"two joiners", "क्\u200D\u200Dष", "joins nothing"},
		{"ZWJ beside punctuation", "Rajesh\u200D, Kirana", "joins nothing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := csvimport.ReadCustomers(strings.NewReader(customersHeader + "C01," + quoteRow([]string{tc.value}) + ",,,kirana,0,0,cod\n"))
			wantProblems(t, importError(t, err, "customers"), p(2, "name", tc.word))
		})
	}
}

func TestMoneyColumns(t *testing.T) {
	tests := []struct {
		name string
		kind kind
		row  string
		want problem // a zero line means the row is accepted
	}{
		{"negative outstanding", customers, "C01,Rajesh,,,kirana,100000,-500,cod", p(2, "outstanding", `"-500"`, "can't be negative", "advance")},
		{"negative outstanding with a rupee sign", customers, `C01,Rajesh,,,kirana,100000,"₹ -1,00,000",cod`, p(2, "outstanding", "negative")},
		{"negative outstanding of a paisa", customers, "C01,Rajesh,,,kirana,100000,-0.01,cod", p(2, "outstanding", "negative")},
		{"negative credit limit", customers, "C01,Rajesh,,,kirana,-1,0,cod", p(2, "credit_limit", `"-1"`, "negative")},
		{"credit limit beyond any business", customers, "C01,Rajesh,,,kirana,99999999999999,0,cod", p(2, "credit_limit", "more than ₹10,00,00,00,000")},
		{"outstanding beyond any business", customers, "C01,Rajesh,,,kirana,0,10000000001,cod", p(2, "outstanding", "more than")},
		{"outstanding not a number", customers, "C01,Rajesh,,,kirana,0,lots,cod", p(2, "outstanding", `"lots"`, "not an amount")},
		{"zero outstanding", customers, "C01,Rajesh,,,kirana,100000,0,cod", problem{}},
		{"empty limit and outstanding", customers, "C01,Rajesh,,,kirana,,,cod", problem{}},
		{"largest balance", customers, "C01,Rajesh,,,kirana,10000000000,10000000000,cod", problem{}},
		{"negative price", catalog, "PH1L,Phenyl 1L,,bottle,,-65,18,10,0", p(2, "price", `"-65"`, "negative")},
		{"negative zero price", catalog, "PH1L,Phenyl 1L,,bottle,,-0,18,10,0", problem{}},
		{"empty price", catalog, "PH1L,Phenyl 1L,,bottle,,,18,10,0", p(2, "price", `""`, "not an amount")},
		{"zero price is a free item", catalog, "SAMPLE,Display Stand,,piece,,0,18,10,0", problem{}},
		{"price that would overflow a line", catalog, "PH1L,Phenyl 1L,,bottle,,100000000000000,18,10,0", p(2, "price", "more than ₹1,00,00,000", "one base unit")},
		{"largest price", catalog, "PH1L,Phenyl 1L,,bottle,,10000000,18,10,0", problem{}},
		{"negative stock", catalog, "PH1L,Phenyl 1L,,bottle,,65,18,-1,0", p(2, "stock_ready", `"-1"`)},
		{"negative work in progress", catalog, "PH1L,Phenyl 1L,,bottle,,65,18,1,-1", p(2, "stock_wip", `"-1"`)},
		{"negative pack size", catalog, "PH1L,Phenyl 1L,,bottle,carton=-12,65,18,1,0", p(2, "pack size", `"carton=-12"`)},
		{"negative GST", catalog, "PH1L,Phenyl 1L,,bottle,,65,-18,1,0", p(2, "gst_percent", `"-18"`)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			header := map[kind]string{catalog: catalogHeader, customers: customersHeader}[tc.kind]
			n, err := read(tc.kind, header+tc.row+"\n")
			if tc.want.line == 0 {
				if err != nil || n != 1 {
					t.Fatalf("got %d rows, %v; want the row accepted", n, err)
				}
				return
			}
			if n != 0 {
				t.Fatalf("%d rows imported with the error", n)
			}
			wantProblems(t, importError(t, err, tc.kind.String()), tc.want)
		})
	}
	cs, err := csvimport.ReadCustomers(strings.NewReader(customersHeader + "C01,Rajesh,,,kirana,,,cod\n"))
	if err != nil || cs[0].CreditLimit != 0 || cs[0].Outstanding != 0 {
		t.Errorf("empty money columns read as %+v, %v; want 0 and 0", cs, err)
	}
}

func TestReplyWordsAreNotNames(t *testing.T) {
	tests := []struct {
		name string
		kind kind
		row  string
		want []problem
	}{
		{"alias ok", catalog, "GC500,Glass Cleaner,GC|ok,bottle,,92,18,1,0",
			[]problem{p(2, `alias "ok"`, "word people reply with to confirm", "choose another alias")}},
		{"alias OKAY in capitals", catalog, "GC500,Glass Cleaner,OKAY,bottle,,92,18,1,0", []problem{p(2, `alias "OKAY"`, "confirm")}},
		{"alias haan", customers, "C01,Rajesh Kirana,Rajesh|haan,,kirana,0,0,cod", []problem{p(2, `alias "haan"`, "confirm")}},
		{"alias in Devanagari", customers, "C01,Rajesh Kirana,हां|ठीक है,,kirana,0,0,cod",
			[]problem{p(2, `alias "हां"`, "confirm"), p(2, `alias "ठीक है"`, "confirm")}},
		{"alias thumbs up", catalog, "GC500,Glass Cleaner,👍,bottle,,92,18,1,0", []problem{p(2, `alias "👍"`, "confirm")}},
		{"alias haan ji", customers, "C01,Rajesh Kirana,haan ji,,kirana,0,0,cod", []problem{p(2, `alias "haan ji"`, "confirm")}},
		{"aliases yes and confirm", catalog, "GC500,Glass Cleaner,yes|Confirm,bottle,,92,18,1,0",
			[]problem{p(2, `alias "yes"`, "confirm"), p(2, `alias "Confirm"`, "confirm")}},
		{"alias approve", customers, "C01,Rajesh Kirana,approve,,kirana,0,0,cod", []problem{p(2, `alias "approve"`, "confirm")}},
		{"alias cancel", catalog, "GC500,Glass Cleaner,cancel,bottle,,92,18,1,0", []problem{p(2, `alias "cancel"`, "to cancel")}},
		{"alias reject", customers, "C01,Rajesh Kirana,reject,,kirana,0,0,cod", []problem{p(2, `alias "reject"`, "to cancel")}},
		{"alias no", catalog, "GC500,Glass Cleaner,no,bottle,,92,18,1,0", []problem{p(2, `alias "no"`, "to cancel")}},
		{"alias nahi in Devanagari", catalog, "GC500,Glass Cleaner,नहीं,bottle,,92,18,1,0", []problem{p(2, `alias "नहीं"`, "to cancel")}},
		{"alias stop", catalog, "GC500,Glass Cleaner,STOP,bottle,,92,18,1,0", []problem{p(2, `alias "STOP"`, "to cancel")}},
		{"alias help", customers, "C01,Rajesh Kirana,help,,kirana,0,0,cod", []problem{p(2, `alias "help"`, "ask for help")}},
		{"alias more", catalog, "GC500,Glass Cleaner,more,bottle,,92,18,1,0", []problem{p(2, `alias "more"`, "rest of an answer")}},
		{"alias aage in Devanagari", customers, "C01,Rajesh Kirana,आगे,,kirana,0,0,cod", []problem{p(2, `alias "आगे"`, "rest of an answer")}},
		{"product name", catalog, "OK1,Ok,,bottle,,92,18,1,0", []problem{p(2, `name "Ok"`, "confirm", "choose another name")}},
		{"customer name", customers, "C01,Cancel,,,kirana,0,0,cod", []problem{p(2, `name "Cancel"`, "to cancel")}},
		{"sku", catalog, "OK,Glass Cleaner,,bottle,,92,18,1,0", []problem{p(2, `sku "OK"`, "confirm", "choose another sku")}},
		{"several rows at once", catalog, "GC500,Glass Cleaner,GC,bottle,,92,18,1,0\nPH1L,Phenyl,ok,bottle,,65,18,1,0\nTC500,Toilet Cleaner,haan|TC,bottle,,85,18,1,0\nFC1L,Floor Cleaner,FC,bottle,,120,18,1,0\nDW500,Dishwash,help,bottle,,99,18,1,0",
			[]problem{p(3, `"ok"`), p(4, `"haan"`), p(6, `"help"`)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			header := map[kind]string{catalog: catalogHeader, customers: customersHeader}[tc.kind]
			n, err := read(tc.kind, header+tc.row+"\n")
			if n != 0 {
				t.Fatalf("%d rows imported with the error", n)
			}
			ce := importError(t, err, tc.kind.String())
			wantProblems(t, ce, tc.want...)
			if len(ce.Problems) != len(tc.want) {
				t.Errorf("got %d problems, want %d: %+v", len(ce.Problems), len(tc.want), ce.Problems)
			}
		})
	}
}

// TestNamesThatOnlyContainReplyWords keeps ordinary names that hold a
// reply word among others.
func TestNamesThatOnlyContainReplyWords(t *testing.T) {
	data := catalogHeader +
		"GD100,Good Day Biscuits,Good Day|gdb,pack,,10,18,1,0\n" +
		"OKS,OK Soap,ok soap|OK-1,bar,,25,18,1,0\n" +
		"YB1,Yes Brand Bleach,yes brand,bottle,,40,18,1,0\n"
	ps, err := csvimport.ReadCatalog(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 || ps[1].Aliases[0] != "ok soap" {
		t.Errorf("got %+v", ps)
	}
	cs, err := csvimport.ReadCustomers(strings.NewReader(customersHeader +
		"C01,Sahi Traders,Sahi Kanpur|सही ट्रेडर्स,,kirana,0,0,cod\nC02,Help Age Foundation,help age,,institution,0,0,cheque\n"))
	if err != nil || len(cs) != 2 {
		t.Fatalf("got %+v, %v", cs, err)
	}
	want := domain.Customer{ID: "C01", Name: "Sahi Traders", Aliases: []string{"Sahi Kanpur", "सही ट्रेडर्स"}, Segment: "kirana",
		PaymentModes: []domain.PaymentMode{domain.PayCOD}}
	if !reflect.DeepEqual(cs[0], want) {
		t.Errorf("got %+v, want %+v", cs[0], want)
	}
}

// TestHostileFileReportsEveryRow mixes every kind of hostile row in one
// file: each is reported on its own line and nothing is imported.
func TestHostileFileReportsEveryRow(t *testing.T) {
	data := customersHeader +
		c01 + // 2: fine
		"C02,\"Sharma\x00 Store\",,,kirana,0,0,cod\n" + // 3: NUL
		"C03,\"Mehta\r\nTraders\",,,kirana,0,0,cod\n" + // 4–5: CR LF inside
		"C04,\"Gupta \u202Eetrams\",,,kirana,0,0,cod\n" + // 6: RLO
		"C05,Hotel Shivam,ok|Shivam,,horeca,0,0,cod\n" + // 7: alias ok
		"C06,City Hospital,,,institution,500000,-100000,cheque\n" + // 8: negative outstanding
		"C07,Agarwal\u200BMedical,,,pharmacy,0,0,cod\n" + // 9: zero-width space
		"C08,Ashok\x7F,,,kirana,0,0,cod\n" // 10: DEL
	_, err := csvimport.ReadCustomers(strings.NewReader(data))
	ce := importError(t, err, "customers")
	wantProblems(t, ce,
		p(3, "name", "U+0000"),
		p(4, "name", "line break"),
		p(6, "name", "U+202E"),
		p(7, `alias "ok"`, "confirm"),
		p(8, "outstanding", "negative"),
		p(9, "name", "U+200B"),
		p(10, "name", "U+007F"),
	)
	if len(ce.Problems) != 7 {
		t.Errorf("got %d problems, want 7: %+v", len(ce.Problems), ce.Problems)
	}
	for _, l := range []string{"line 3:", "line 4:", "line 6:", "line 7:", "line 8:", "line 9:", "line 10:"} {
		if !strings.Contains(ce.Error(), l) {
			t.Errorf("Error() lacks %q:\n%s", l, ce.Error())
		}
	}
	if strings.Contains(ce.Error(), "line 2:") {
		t.Errorf("Error() blames the good line 2:\n%s", ce.Error())
	}
}
