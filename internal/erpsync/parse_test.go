package erpsync

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

var testEnv = env(map[string]string{"ERP_DSN": "postgres://munshi:s3cret@erp.local/books"})

func mustParse(t *testing.T, src string) *Mapping {
	t.Helper()
	m, err := Parse([]byte(src), testEnv)
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, src)
	}
	return m
}

// refused checks that src is refused with a problem on line naming every
// word.
func refused(t *testing.T, src string, line int, words ...string) {
	t.Helper()
	_, err := Parse([]byte(src), testEnv)
	if err == nil {
		t.Fatalf("Parse accepted:\n%s", src)
	}
	var me *MappingError
	if !errors.As(err, &me) {
		t.Fatalf("error %T %v, want *MappingError", err, err)
	}
	for _, p := range me.Problems {
		if p.Line != line {
			continue
		}
		s := p.String()
		all := true
		for _, w := range words {
			if !strings.Contains(s, w) {
				all = false
			}
		}
		if all {
			if !strings.HasPrefix(err.Error(), "erpsync: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			return
		}
	}
	t.Fatalf("no problem on line %d with %q in:\n%v", line, words, err)
}

const small = `source:
  dsn: ${ERP_DSN}
entities:
  products:
    query: SELECT ItemCode, ItemName, Rate FROM Items
    fields:
      sku: {column: ItemCode, transform: [trim, upper]}
      name: {column: ItemName}
      price: {column: Rate}
`

func TestParseGoodFile(t *testing.T) {
	data, err := os.ReadFile("testdata/mapping.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(data, env(map[string]string{"ERP_DSN": "sqlite:///tmp/erp.db"}))
	if err != nil {
		t.Fatal(err)
	}
	if m.Source.DSN != "${ERP_DSN}" || m.Source.ExpandedDSN != "sqlite:///tmp/erp.db" {
		t.Errorf("dsn %q expanded %q", m.Source.DSN, m.Source.ExpandedDSN)
	}
	if got := m.Mapped(); len(got) != 7 || got[0] != Products || got[1] != Customers || got[6] != Receipts {
		t.Errorf("mapped %v", got)
	}
	if m.Location().String() != "Asia/Kolkata" || m.SettleDays != 7 {
		t.Errorf("zone %v settle %d", m.Location(), m.SettleDays)
	}
	if time.Duration(m.Source.ConnectTimeout) != 5*time.Second || m.Source.MaxConns != 2 {
		t.Errorf("source %+v", m.Source)
	}
	p := m.Entities[Products]
	if p.TierOf(Products) != time.Hour || !p.IsFull(Products) || p.Incremental() {
		t.Errorf("products tier %v full %v", p.TierOf(Products), p.IsFull(Products))
	}
	if f := p.Fields["unit"]; f.Default != "piece" || f.Values["btl"] != "bottle" || f.Transform[1] != "lower" {
		t.Errorf("unit %+v", f)
	}
	if f := p.Fields["gst_percent"]; f.Default != "18" {
		t.Errorf("gst default %q", f.Default)
	}
	if f := p.Fields["price"]; f.Money != Rupees {
		t.Errorf("price money %q", f.Money)
	}
	s := m.Entities[Sales]
	if !s.Incremental() || s.IsFull(Sales) || time.Duration(s.Since.Overlap) != 10*time.Minute || s.TierOf(Sales) != 15*time.Minute {
		t.Errorf("sales %+v since %+v", s, s.Since)
	}
	if s.Fields["status"].Default != string(domain.OrderDelivered) || s.Fields["status"].Values["9"] != "cancelled" {
		t.Errorf("status %+v", s.Fields["status"])
	}
	for e, want := range map[Entity]time.Duration{Dues: 2 * time.Minute, Bills: 2 * time.Minute, Payments: 2 * time.Minute,
		Customers: time.Hour, Receipts: 5 * time.Minute} {
		if got := m.Entities[e].TierOf(e); got != want {
			t.Errorf("%s tier %v, want %v", e, got, want)
		}
	}
	if m.Entities[Payments].Fields["mode"].Values["rtgs"] != "bank_transfer" || m.Entities[Receipts].Fields["qty"].Factor != 12 {
		t.Error("payments mode values or receipts factor lost")
	}
	if !strings.Contains(m.Entities[Products].Query, "\n") {
		t.Error("the literal block query lost its lines")
	}
}

func TestParseDefaults(t *testing.T) {
	m, err := Parse([]byte(small), env(map[string]string{"ERP_DSN": "x", "MUNSHI_TZ": "Asia/Dubai"}))
	if err != nil {
		t.Fatal(err)
	}
	if m.Location().String() != "Asia/Dubai" || m.Source.Timezone != "" {
		t.Errorf("zone %v (written %q), want MUNSHI_TZ's", m.Location(), m.Source.Timezone)
	}
	if m.SettleDays != DefaultSettleDays {
		t.Errorf("settle_days %d", m.SettleDays)
	}
	f := m.Entities[Products].Fields
	if f["unit"] == nil || f["unit"].Default != "piece" || f["gst_percent"].Default != "18" || f["price"].Money != Rupees {
		t.Errorf("defaults %+v %+v %+v", f["unit"], f["gst_percent"], f["price"])
	}
	m = mustParse(t, small)
	if m.Location().String() != domain.DefaultZone {
		t.Errorf("zone %v, want %s", m.Location(), domain.DefaultZone)
	}
	// A bare value is the column.
	m = mustParse(t, strings.Replace(small, "name: {column: ItemName}", "name: ItemName", 1))
	if m.Entities[Products].Fields["name"].Column != "ItemName" {
		t.Error("name: ItemName is not the column")
	}
}

func TestParseExpandsOnlyTheDSN(t *testing.T) {
	src := strings.Replace(small, "${ERP_DSN}", "sqlserver://sa:${ERP_PASSWORD}@erp:1433?database=Books&x=$keep", 1)
	src = strings.Replace(src, "FROM Items", "FROM Items WHERE Code <> '${ERP_PASSWORD}'", 1)
	m, err := Parse([]byte(src), env(map[string]string{"ERP_PASSWORD": "p@ss"}))
	if err != nil {
		t.Fatal(err)
	}
	if m.Source.ExpandedDSN != "sqlserver://sa:p@ss@erp:1433?database=Books&x=$keep" {
		t.Errorf("expanded %q", m.Source.ExpandedDSN)
	}
	if !strings.Contains(m.Entities[Products].Query, "'${ERP_PASSWORD}'") {
		t.Errorf("the query was rewritten: %q", m.Entities[Products].Query)
	}
	if out, _ := m.Marshal(); strings.Contains(string(out), "p@ss") {
		t.Errorf("Marshal wrote the password:\n%s", out)
	}
	// Without the variable set the file is refused, naming it.
	if _, err := Parse([]byte(small), env(map[string]string{})); err == nil || !strings.Contains(err.Error(), "ERP_DSN") {
		t.Errorf("an unset ${ERP_DSN} gave %v", err)
	}
}

func TestParseRefuses(t *testing.T) {
	with := func(old, new string) string {
		if !strings.Contains(small, old) {
			t.Fatalf("%q not in the file", old)
		}
		return strings.Replace(small, old, new, 1)
	}
	payments := `source:
  dsn: x
entities:
  payments:
    query: SELECT * FROM R
    fields:
      date: {column: D}
      customer_id: {column: C}
      amount: {column: A}
      mode: {column: M, values: {chq: check}}
`
	sales := `source:
  dsn: x
entities:
  sales:
    since: {column: ModifiedOn, overlap: -5m}
    full: true
    query: SELECT * FROM S WHERE ModifiedOn > :since
    fields:
      order_id: O
      date: D
      customer_id: C
      sku: S
      qty: {column: Q, factor: 0}
      price: {column: P, money: dollars}
      status: {column: St, values: {"1": shipped}}
`
	for _, tc := range []struct {
		name  string
		src   string
		line  int
		words []string
	}{
		{"unknown top key", with("entities:", "entitis:"), 3, []string{`unknown key "entitis"`, "source, settle_days, entities"}},
		{"unknown source key", with("  dsn:", "  dns:"), 2, []string{"source", `unknown key "dns"`}},
		{"unknown entity", with("  products:", "  prodcts:"), 4, []string{"entities", `unknown key "prodcts"`, "products, customers"}},
		{"unknown field", with("      name:", "      nam:"), 8, []string{"entities.products.fields", `unknown key "nam"`, "sku, name"}},
		{"unknown field key", with("{column: ItemName}", "{colum: ItemName}"), 8, []string{"entities.products.fields.name", `unknown key "colum"`}},
		{"unknown transform", with("[trim, upper]", "[trim, strip]"), 7, []string{"entities.products.fields.sku.transform", `unknown transform "strip"`, "collapse"}},
		{"money unit", with("{column: Rate}", "{column: Rate, money: dollars}"), 9, []string{"fields.price.money", `"dollars" is not rupees or paise`}},
		{"money on text", with("{column: ItemCode,", "{column: ItemCode, money: rupees,"), 7, []string{"fields.sku.money", "only for an amount"}},
		{"factor on money", with("{column: Rate}", "{column: Rate, factor: 2}"), 9, []string{"fields.price.factor", "only for a quantity"}},
		{"missing query", with("    query: SELECT ItemCode, ItemName, Rate FROM Items\n", ""), 4, []string{"entities.products.query", "missing"}},
		{"empty query", with("SELECT ItemCode, ItemName, Rate FROM Items", `"  "`), 5, []string{"entities.products.query", "empty"}},
		{"neither column nor default", with("{column: ItemName}", "{transform: [trim]}"), 8, []string{"fields.name", "needs a column or a default"}},
		{"required field missing", with("      price: {column: Rate}\n", ""), 4, []string{"entities.products.fields.price", "missing", "price"}},
		{"bare tier", with("    query:", "    tier: 5\n    query:"), 5, []string{"entities.products.tier", "not a duration"}},
		{"tier too short", with("    query:", "    tier: 1s\n    query:"), 5, []string{"entities.products.tier", "shorter than 10s"}},
		{"key twice", with("      price: {column: Rate}", "      price: {column: Rate}\n      price: {column: Rate2}"), 10, []string{`"price" is given twice`, "line 9"}},
		{"anchor", with("{column: ItemName}", "&n {column: ItemName}"), 8, []string{"anchors (&n) are not allowed"}},
		{"alias", with("      price: {column: Rate}", "      price: *n"), 0, []string{"not YAML", "unknown anchor"}},
		{"a tab", with("      name:", "\tname:"), 8, []string{"not YAML"}},
		{"settle days zero", with("entities:", "settle_days: 0\nentities:"), 3, []string{"settle_days", "from 1 to 365"}},
		{"settle days text", with("entities:", "settle_days: a week\nentities:"), 3, []string{"settle_days", "not a whole number"}},
		{"timezone", with("  dsn: ${ERP_DSN}", "  dsn: ${ERP_DSN}\n  timezone: Mars/Olympus"), 2, []string{"source.timezone", `"Mars/Olympus" is not a time zone`}},
		{"values on money", with("{column: Rate}", "{column: Rate, values: {a: b}}"), 9, []string{"fields.price.values", "only for text"}},
		{"bad default", with("{column: Rate}", "{column: Rate, default: free}"), 9, []string{"fields.price.default", `"free"`, "not a number"}},
		{"a second document", small + "---\nsource: {}\n", 10, []string{"second YAML document"}},
		{"no source", "entities:\n  products:\n    query: x\n", 1, []string{"source", "missing"}},
		{"not a mapping", "- a\n- b\n", 1, []string{"want a mapping of source"}},
		{"dsn unterminated", strings.Replace(small, "${ERP_DSN}", "${ERP_DSN", 1), 2, []string{"source.dsn", "without its closing }"}},
		{"control character", with("{column: ItemName}", `{column: "Item\u0007Name"}`), 8, []string{"fields.name.column", "control character U+0007"}},
		{"mode values", payments, 10, []string{"entities.payments.fields.mode.values.chq", `"check" is not a payment mode`}},
		{"negative overlap", sales, 5, []string{"entities.sales.since.overlap", "can't be negative"}},
		{"full with since", sales, 6, []string{"entities.sales.full", "has no meaning for sales"}},
		{"factor zero", sales, 13, []string{"entities.sales.fields.qty.factor", "must be more than 0"}},
		{"sales money", sales, 14, []string{"entities.sales.fields.price.money", "dollars"}},
		{"status values", sales, 15, []string{"entities.sales.fields.status.values.1", `"shipped" is not committed, delivered or cancelled`}},
		{"since without column", strings.Replace(sales, "{column: ModifiedOn, overlap: -5m}", "{overlap: 5m}", 1), 5, []string{"entities.sales.since.column", "missing"}},
	} {
		t.Run(tc.name, func(t *testing.T) { refused(t, tc.src, tc.line, tc.words...) })
	}
}

func TestParseEmptyAndHostile(t *testing.T) {
	for name, src := range map[string]string{
		"empty":         "",
		"comments only": "# nothing\n",
		"null":          "~\n",
		"no entities":   "source:\n  dsn: x\nentities: {}\n",
		"bad utf-8":     "source:\n  dsn: \xff\xfe\n",
		"deep nesting":  "source: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n",
		"billion laughs": "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b]\n" +
			"source: [*c, *c, *c, *c, *c, *c]\n",
		"merge key":     "source: {dsn: x}\nentities:\n  products:\n    <<: {query: x}\n",
		"binary":        "source:\n  dsn: !!binary aGVsbG8=\nentities: {}\n",
		"huge query":    "source:\n  dsn: x\nentities:\n  products:\n    query: " + strings.Repeat("x", maxQueryBytes+1) + "\n",
		"huge file":     strings.Repeat("# padding\n", MaxMappingBytes/10+1),
		"list of lists": "[[1], [2]]\n",
		"unicode key":   "source:\n  dsn: x\nentities:\n  उत्पाद:\n    query: x\n",
	} {
		t.Run(name, func(t *testing.T) {
			m, err := Parse([]byte(src), testEnv)
			if err == nil {
				t.Fatalf("accepted: %+v", m)
			}
			if !strings.HasPrefix(err.Error(), "erpsync: ") || len(err.Error()) > 8000 {
				t.Errorf("error %.300q", err)
			}
		})
	}
	// Unicode in names and queries is fine.
	m := mustParse(t, strings.Replace(strings.Replace(small, "ItemName", "वस्तु_नाम", 2), "FROM Items", "FROM Items -- माल", 1))
	if m.Entities[Products].Fields["name"].Column != "वस्तु_नाम" {
		t.Errorf("column %q", m.Entities[Products].Fields["name"].Column)
	}
}

func TestParseListsManyProblems(t *testing.T) {
	var b strings.Builder
	b.WriteString("source:\n  dsn: x\nentities:\n  products:\n    query: q\n    fields:\n")
	for i := range 40 {
		b.WriteString("      bad" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ": x\n")
	}
	_, err := Parse([]byte(b.String()), testEnv)
	var me *MappingError
	if !errors.As(err, &me) || len(me.Problems) != maxListed || me.More == 0 {
		t.Fatalf("%v", err)
	}
	if !strings.Contains(err.Error(), "… and") {
		t.Errorf("the count of the rest is missing: %v", err)
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	data, err := os.ReadFile("testdata/mapping.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(data, testEnv)
	if err != nil {
		t.Fatal(err)
	}
	m.Entities[Sales].Fields["price"].Review = "Rate is before discount;\nDiscRate is after it."
	m.Entities[Sales].Fields["sku"].Suggested = true
	out, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(out, testEnv)
	if err != nil {
		t.Fatalf("Marshal wrote what Parse refuses: %v\n%s", err, out)
	}
	out2, _ := again.Marshal()
	if string(out) != string(out2) {
		t.Fatalf("not stable:\n%s\n----\n%s", out, out2)
	}
	s := string(out)
	order := []string{"source:", "settle_days:", "entities:", "  products:", "  customers:", "  dues:", "  bills:", "  sales:", "  payments:", "  receipts:"}
	last := -1
	for _, w := range order {
		i := strings.Index(s, w)
		if i < last {
			t.Fatalf("%q out of order in:\n%s", w, s)
		}
		last = i
	}
	for _, w := range []string{"query: |\n      SELECT ItemCode", "sku: {column: ItemCode, transform: [trim, upper]}", "review: |", "suggested: true",
		"since: {column: ModifiedOn, overlap: 10m}", "qty: {column: Qty, factor: 12}"} {
		if !strings.Contains(s, w) {
			t.Errorf("%q not in:\n%s", w, s)
		}
	}
	if again.Entities[Sales].Fields["price"].Review != m.Entities[Sales].Fields["price"].Review {
		t.Errorf("review %q", again.Entities[Sales].Fields["price"].Review)
	}
	// Fields come in Munshi's order, not the map's.
	if i, j := strings.Index(s, "order_id:"), strings.Index(s, "status:"); i > j {
		t.Error("sales fields out of order")
	}
}
