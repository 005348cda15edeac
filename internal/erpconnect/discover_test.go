package erpconnect_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/erp"
	"github.com/munshi/munshi/internal/erpconnect"
	"github.com/munshi/munshi/internal/erpsync"
)

func discover(t *testing.T, src erpconnect.Catalog, o erpconnect.Options) *erpconnect.Draft {
	t.Helper()
	d, err := erpconnect.Discover(context.Background(), src, o)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func report(t *testing.T, d *erpconnect.Draft) string {
	t.Helper()
	var b strings.Builder
	if err := d.Report(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func yamlOf(t *testing.T, d *erpconnect.Draft) []byte {
	t.Helper()
	b, err := d.YAML()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDistributorFields: every field of the distributor lands on its
// column, SupplerPhone is no customer's phone and the log is nothing.
func TestDistributorFields(t *testing.T) {
	d := discover(t, openSource(t, buildDistributor(t, 50)), erpconnect.Options{})
	want := map[erpsync.Entity]map[string]string{
		erpsync.Products: {"sku": "ItemMaster.ItmCd", "name": "ItemMaster.ItmNm", "price": "ItemMaster.Rt", "unit": "ItemMaster.UOM",
			"gst_percent": "ItemMaster.TaxPer", "stock_ready": "ItemMaster.ClQty", "stock_wip": "ItemMaster.WIPQty", "aliases": ""},
		erpsync.Customers: {"id": "PartyMaster.PartyCd", "name": "PartyMaster.PartyNm", "phone": "PartyMaster.Mob",
			"credit_limit": "PartyMaster.CrLmt", "outstanding": "PartyMaster.Bal", "segment": "", "payment_modes": ""},
		erpsync.Stock: {"sku": "ItemMaster.ItmCd", "stock_ready": "ItemMaster.ClQty", "stock_wip": "ItemMaster.WIPQty"},
		erpsync.Dues:  {"customer_id": "PartyMaster.PartyCd", "outstanding": "PartyMaster.Bal", "credit_limit": "PartyMaster.CrLmt"},
		erpsync.Bills: {"bill_no": "BillRegister.BillNo", "customer_id": "BillRegister.PartyCd", "date": "BillRegister.BillDt",
			"amount": "BillRegister.Amount", "balance": "BillRegister.BalAmt"},
		erpsync.Sales: {"order_id": "SalesOrderDtl.SONo", "line": "SalesOrderDtl.LineNo", "date": "SalesOrderHdr.SODt",
			"customer_id": "SalesOrderHdr.PartyCd", "sku": "SalesOrderDtl.ItmCd", "qty": "SalesOrderDtl.Qty", "price": "SalesOrderDtl.Rt",
			"status": "SalesOrderHdr.Status", "gst_percent": ""},
		erpsync.OpenOrders: {"order_id": "SalesOrderDtl.SONo", "sku": "SalesOrderDtl.ItmCd", "qty": "SalesOrderDtl.Qty", "status": "SalesOrderHdr.Status"},
		erpsync.Payments: {"date": "Receipts.RcptDt", "customer_id": "Receipts.PartyCd", "amount": "Receipts.Amt", "mode": "Receipts.Mode",
			"reference": "Receipts.RcptNo"},
		erpsync.Receipts: {"reference": "PurGRN.GRNNo", "sku": "PurGRN.ItmCd", "qty": "PurGRN.Qty", "date": "PurGRN.GRNDt"},
	}
	for e, fields := range want {
		ec := d.Entity(e)
		if ec == nil {
			t.Errorf("%s not placed", e)
			continue
		}
		for f, col := range fields {
			fc := ec.Field(f)
			if fc == nil {
				t.Errorf("%s.%s: no such field in the draft", e, f)
				continue
			}
			if fc.Column != col {
				t.Errorf("%s.%s = %q, want %q (candidates %+v)", e, f, fc.Column, col, fc.Candidates)
			}
		}
	}
	for _, ec := range d.Entities {
		if ec.Table == "AppLog" || ec.Table == "SupplierMaster" || ec.Header == "AppLog" {
			t.Errorf("%s placed on %s", ec.Entity, ec.Table)
		}
		for _, f := range ec.Fields {
			if strings.Contains(f.Column, "SupplerPhone") {
				t.Errorf("%s.%s took %s", ec.Entity, f.Field, f.Column)
			}
		}
	}
	if len(d.Missing) != 0 {
		t.Errorf("missing %+v", d.Missing)
	}
	rep := report(t, d)
	if !strings.Contains(rep, "SupplierMaster.SupplerPhone: 100% phone-like, but SupplierMaster is not a customer table") {
		t.Errorf("report does not say why SupplerPhone is left:\n%s", rep)
	}
}

func evidence(d *erpconnect.Draft, column string) string {
	for _, c := range d.Columns {
		if c.Column == column {
			return strings.Join(c.Evidence, "; ")
		}
	}
	return ""
}

// TestAmountsToldApart: AMT is an order total because its lines' Amt
// add up to it, Amt is a line amount (Qty × Rt) and no price, Amount is
// the bill's.
func TestAmountsToldApart(t *testing.T) {
	d := discover(t, openSource(t, buildDistributor(t, 50)), erpconnect.Options{})
	if ev := evidence(d, "SalesOrderHdr.AMT"); !strings.Contains(ev, "a header total: the sum of SalesOrderDtl.Amt for 50/50 orders") {
		t.Errorf("AMT: %q", ev)
	}
	ev := evidence(d, "SalesOrderDtl.Amt")
	if !strings.Contains(ev, "a line amount: values sum to SalesOrderHdr.AMT for 50/50 orders") || !strings.Contains(ev, "Qty × Rt = Amt in 150/150 rows") {
		t.Errorf("Amt: %q", ev)
	}
	price := d.Entity(erpsync.Sales).Field("price")
	for _, c := range price.Candidates {
		if strings.HasSuffix(c.Column, ".Amt") || strings.HasSuffix(c.Column, ".AMT") {
			t.Errorf("price candidate %+v", c)
		}
	}
	if !strings.Contains(strings.Join(price.Candidates[0].Evidence, "; "), "Qty × Rt = Amt") {
		t.Errorf("price evidence %+v", price.Candidates[0])
	}
	amount := d.Entity(erpsync.Bills).Field("amount")
	if amount.Column != "BillRegister.Amount" || amount.Review != "" {
		t.Errorf("bills amount %+v", amount)
	}
	rep := report(t, d)
	for _, s := range []string{"SalesOrderHdr.AMT: a header total", "SalesOrderDtl.Amt: a line amount", "amount        BillRegister.Amount"} {
		if !strings.Contains(rep, s) {
			t.Errorf("report lacks %q:\n%s", s, rep)
		}
	}
}

// TestDistributorQueries: the queries join the lines to their header with
// UPPER() on both sides (the lines write the order number in lower case),
// keep the company with the most rows and say so, read sales from
// ModifiedOn on, and take open orders from the status.
func TestDistributorQueries(t *testing.T) {
	d := discover(t, openSource(t, buildDistributor(t, 50)), erpconnect.Options{})
	m := d.Mapping
	sales := m.Entities[erpsync.Sales]
	for _, s := range []string{`JOIN "SalesOrderHdr" h ON UPPER(h."SONo") = UPPER(t."SONo")`, `h."CompanyID" = 1`, `h."ModifiedOn" > :since`, `t."Qty" > 0`} {
		if !strings.Contains(sales.Query, s) {
			t.Errorf("sales query lacks %s:\n%s", s, sales.Query)
		}
	}
	if sales.Since == nil || sales.Since.Column != "ModifiedOn" || sales.Since.Overlap <= 0 {
		t.Errorf("sales since %+v", sales.Since)
	}
	for _, e := range []erpsync.Entity{erpsync.Products, erpsync.Customers, erpsync.Bills, erpsync.Dues, erpsync.OpenOrders} {
		if m.Entities[e].Since != nil {
			t.Errorf("%s is incremental: it is read in full so what is gone is seen gone", e)
		}
	}
	open := m.Entities[erpsync.OpenOrders]
	if !strings.Contains(open.Query, `UPPER(LTRIM(RTRIM(h."Status"))) IN ('OPEN')`) {
		t.Errorf("open orders:\n%s", open.Query)
	}
	if st := sales.Fields["status"]; st.Values["open"] != "committed" || st.Values["delivered"] != "delivered" || st.Values["cancelled"] != "cancelled" {
		t.Errorf("status values %v", st.Values)
	}
	id := m.Entities[erpsync.Customers].Fields["id"]
	if !strings.Contains(id.Review, "keeps PartyMaster.CompanyID = 1, the company with the most rows; also in the source: 2") {
		t.Errorf("customers id review %q", id.Review)
	}
	for _, e := range []erpsync.Entity{erpsync.Customers, erpsync.Sales, erpsync.Bills, erpsync.Payments, erpsync.Dues} {
		f := m.Entities[e].Fields["customer_id"]
		if e == erpsync.Customers {
			f = m.Entities[e].Fields["id"]
		}
		if strings.Join(f.Transform, ",") != "trim,upper" {
			t.Errorf("%s customer transform %v: the headers write party codes in lower case", e, f.Transform)
		}
	}
	if name := m.Entities[erpsync.Customers].Fields["name"]; !strings.Contains(name.Review, "SHARMA TRADERS/Sharma Traders") {
		t.Errorf("customer name review %q", name.Review)
	}
	mode := m.Entities[erpsync.Payments].Fields["mode"]
	wantModes := map[string]string{"cash": "cod", "chq": "cheque", "chq.": "cheque", "neft": "bank_transfer", "upi": "upi"}
	if strings.Join(mode.Transform, ",") != "trim,lower" || len(mode.Values) != len(wantModes) {
		t.Errorf("mode %+v", mode)
	}
	for k, v := range wantModes {
		if mode.Values[k] != v {
			t.Errorf("mode %s → %q, want %q", k, mode.Values[k], v)
		}
	}
	if price := m.Entities[erpsync.Products].Fields["price"]; price.Money != "rupees" {
		t.Errorf("price %+v", price)
	}
	if sku := m.Entities[erpsync.Products].Fields["sku"]; strings.Join(sku.Transform, ",") != "trim,upper" {
		t.Errorf("sku %+v", sku)
	}
	rcpt := m.Entities[erpsync.Receipts]
	if !strings.Contains(rcpt.Query, `t."GRNNo" || '/' || t."LineNo" AS "Reference"`) || rcpt.Fields["reference"].Column != "Reference" {
		t.Errorf("receipts: a GRN's lines need a reference each:\n%s", rcpt.Query)
	}
}

// TestDraftRuns: the draft's YAML parses, and erpsync's check reads every
// row of every entity through it without a problem.
func TestDraftRuns(t *testing.T) {
	src := openSource(t, buildDistributor(t, 50))
	d := discover(t, src, erpconnect.Options{})
	checkRuns(t, d, src)
}

// checkRuns parses the draft's YAML and checks it against src reading
// every row, and returns how many rows each entity read.
func checkRuns(t *testing.T, d *erpconnect.Draft, src *erp.Source) map[erpsync.Entity]int {
	t.Helper()
	m, err := erpsync.Parse(yamlOf(t, d), func(k string) string {
		if k == "ERP_DSN" {
			return "sqlite:unused" // Check reads through src
		}
		return ""
	})
	if err != nil {
		t.Fatalf("the draft does not parse: %v\n%s", err, yamlOf(t, d))
	}
	if len(m.Entities) != len(d.Entities) {
		t.Errorf("%d entities parsed, %d drafted", len(m.Entities), len(d.Entities))
	}
	var out bytes.Buffer
	s := &erpsync.Syncer{Mapping: m, Source: src}
	rep, err := s.CheckLimit(context.Background(), &out, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Errorf("check found %d problems:\n%s", rep.Problems, out.String())
	}
	rows := map[erpsync.Entity]int{}
	for _, er := range rep.Entities {
		t.Logf("check: %s read %d rows", er.Entity, er.Rows)
		if er.Rows == 0 {
			t.Errorf("%s read no rows", er.Entity)
		}
		rows[er.Entity] = er.Rows
	}
	return rows
}

// TestDeterministic: the same database gives the same draft byte for
// byte, read twice or built twice.
func TestDeterministic(t *testing.T) {
	a := discover(t, openSource(t, buildDistributor(t, 50)), erpconnect.Options{})
	b := discover(t, openSource(t, buildDistributor(t, 50)), erpconnect.Options{})
	src := openSource(t, buildDistributor(t, 50))
	c := discover(t, src, erpconnect.Options{})
	again := discover(t, src, erpconnect.Options{})
	for _, d := range []*erpconnect.Draft{b, c, again} {
		if !bytes.Equal(yamlOf(t, a), yamlOf(t, d)) {
			t.Errorf("YAML differs:\n%s\n---\n%s", yamlOf(t, a), yamlOf(t, d))
		}
		if report(t, a) != report(t, d) {
			t.Errorf("report differs:\n%s\n---\n%s", report(t, a), report(t, d))
		}
	}
}

// TestSuggest: the model is asked about a column nothing placed, sees at
// most five values with every digit masked, and what it names is marked
// suggested with a review note.
func TestSuggest(t *testing.T) {
	src := openSource(t, buildDistributor(t, 50))
	var asked []string
	suggest := func(_ context.Context, column string, samples []string) (string, bool) {
		asked = append(asked, column)
		if len(samples) == 0 || len(samples) > 5 {
			t.Errorf("%s: %d samples", column, len(samples))
		}
		for _, s := range samples {
			if strings.ContainsAny(s, "012345678") {
				t.Errorf("%s: sample %q shows a digit", column, s)
			}
		}
		if column == "ItemMaster.Fld7" {
			if samples[0] != "ai 999ml" {
				t.Errorf("Fld7 samples %q", samples)
			}
			return "aliases", true
		}
		if column == "PartyMaster.City" {
			return "phone", true // its values say otherwise: not taken
		}
		return "", false
	}
	d := discover(t, src, erpconnect.Options{Suggest: suggest})
	if len(asked) == 0 {
		t.Fatal("the model was not asked")
	}
	al := d.Entity(erpsync.Products).Field("aliases")
	if al.Column != "ItemMaster.Fld7" || !al.Suggested || !strings.Contains(al.Review, "named by the model") {
		t.Errorf("aliases %+v", al)
	}
	spec := d.Mapping.Entities[erpsync.Products].Fields["aliases"]
	if spec == nil || spec.Column != "Fld7" || !spec.Suggested {
		t.Errorf("aliases spec %+v", spec)
	}
	if !bytes.Contains(yamlOf(t, d), []byte("suggested: true")) {
		t.Error("YAML does not mark the suggestion")
	}
	if p := d.Entity(erpsync.Customers).Field("phone"); p.Column != "PartyMaster.Mob" {
		t.Errorf("phone %+v", p)
	}
	checkRuns(t, d, src)
	without := discover(t, src, erpconnect.Options{})
	if f := without.Entity(erpsync.Products).Field("aliases"); f.Column != "" {
		t.Errorf("without the model aliases = %q", f.Column)
	}
}

// TestHostileNames: quotes, spaces, brackets and Devanagari in table and
// column names are quoted in every query the draft writes, and the
// queries run.
func TestHostileNames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostile.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	stmts := []string{
		`CREATE TABLE "Item ""Master"" it's" ("Itm""Cd" VARCHAR(10) PRIMARY KEY, "Itm Nm" VARCHAR(50), "Rt]" DECIMAL(10,2), "[Tax] Per" DECIMAL(5,2), "Cl` + "`" + `Qty" INTEGER)`,
		`CREATE TABLE "ग्राहक सूची" ("Party""Cd" VARCHAR(8) PRIMARY KEY, "Party Nm" VARCHAR(50), "मोबाइल" VARCHAR(20), "नाम" VARCHAR(50))`,
		`CREATE TABLE "Sales; DROP TABLE x; --" ("SO No" VARCHAR(10), "Ln" INTEGER, "Party""Cd" VARCHAR(8), "Itm""Cd" VARCHAR(10), "Qty" INTEGER, "Rt]" DECIMAL(10,2), "SO Dt" DATE, PRIMARY KEY ("SO No", "Ln"))`,
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	for i := 0; i < 20; i++ {
		code := "IT" + string(rune('A'+i)) + "1"
		if _, err := db.Exec(`INSERT INTO "Item ""Master"" it's" VALUES (?, ?, ?, 18, ?)`, code, "Item's \"best\" "+string(rune('A'+i)), 10.5+float64(i), i*3); err != nil {
			t.Fatal(err)
		}
		party := "P" + string(rune('A'+i))
		if _, err := db.Exec(`INSERT INTO "ग्राहक सूची" VALUES (?, ?, ?, ?)`, party, "राम ट्रेडर्स "+string(rune('A'+i)), "+91 98100 1234"+string(rune('0'+i%10)), "नाम "+string(rune('A'+i))); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO "Sales; DROP TABLE x; --" VALUES (?, 1, ?, ?, ?, ?, '2026-10-01')`, "S"+string(rune('A'+i)), party, code, 1+i, 10.5+float64(i)); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	src := openSource(t, path)
	d := discover(t, src, erpconnect.Options{Suggest: func(context.Context, string, []string) (string, bool) { return "", false }})
	if d.Entity(erpsync.Products) == nil {
		t.Fatalf("products not placed:\n%s", report(t, d))
	}
	for e, spec := range d.Mapping.Entities {
		n := 0
		err := src.Query(context.Background(), spec.Query, strPtr("2000-01-01 00:00:00"), 5, func([]string, []any) error { n++; return nil })
		if err != nil {
			t.Errorf("%s: %v\n%s", e, err, spec.Query)
		}
		if n == 0 {
			t.Errorf("%s returned nothing:\n%s", e, spec.Query)
		}
	}
	checkRuns(t, d, src)
}

func strPtr(s string) *string { return &s }

// TestNothingToMap: an empty database, and one that holds only a log,
// give ErrNothingToMap with a reason a person can act on.
func TestNothingToMap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
	db.Close()
	d, err := erpconnect.Discover(context.Background(), openSource(t, path), erpconnect.Options{})
	if !errors.Is(err, erpconnect.ErrNothingToMap) || d != nil || !strings.Contains(err.Error(), "nothing to map: the source has no tables") {
		t.Errorf("empty: %v, %v", d, err)
	}

	db, _ = sql.Open("sqlite3", "file:"+path)
	if _, err := db.Exec(`CREATE TABLE AppLog (LogID INTEGER PRIMARY KEY, Msg VARCHAR(200), LoggedAt DATETIME)`); err != nil {
		t.Fatal(err)
	}
	db.Exec(`INSERT INTO AppLog VALUES (1, 'started', '2026-11-01 10:00:00')`)
	db.Close()
	d, err = erpconnect.Discover(context.Background(), openSource(t, path), erpconnect.Options{})
	if !errors.Is(err, erpconnect.ErrNothingToMap) || d == nil || !strings.Contains(err.Error(), "AppLog") {
		t.Fatalf("log only: %v", err)
	}
	if rep := report(t, d); !strings.Contains(rep, "0 entities placed") || !strings.Contains(rep, "products: no table has columns for all of sku, name, price") {
		t.Errorf("report:\n%s", rep)
	}
}

// counted is a source that says one table is huge and counts what is
// read.
type counted struct {
	*erp.Source
	samples []int // n of each Sample call
	sampled int   // rows Sample returned
	queried int   // rows Query returned
}

func (c *counted) Tables(ctx context.Context) ([]erp.Table, error) {
	ts, err := c.Source.Tables(ctx)
	for i := range ts {
		if ts[i].Name == "AppLog" || ts[i].Name == "SalesOrderDtl" {
			ts[i].Rows = 5_000_000_000
		}
	}
	return ts, err
}

func (c *counted) Sample(ctx context.Context, t erp.Table, n int) ([]string, [][]any, error) {
	c.samples = append(c.samples, n)
	cols, rows, err := c.Source.Sample(ctx, t, n)
	c.sampled += len(rows)
	return cols, rows, err
}

func (c *counted) Query(ctx context.Context, q string, since *string, limit int, each func([]string, []any) error) error {
	return c.Source.Query(ctx, q, since, limit, func(cols []string, vals []any) error {
		c.queried++
		return each(cols, vals)
	})
}

// TestHugeTableNotReadInFull: a table the catalog counts in billions is
// sampled, not read: every sample asks for at most 500 rows, and the
// queries discovery runs return a few thousand rows in all.
func TestHugeTableNotReadInFull(t *testing.T) {
	src := &counted{Source: openSource(t, buildDistributor(t, 20000))}
	d := discover(t, src, erpconnect.Options{})
	for _, n := range src.samples {
		if n <= 0 || n > 500 {
			t.Errorf("sampled %d rows", n)
		}
	}
	if src.sampled > 9*500 || src.queried > 3000 {
		t.Errorf("read %d sampled rows and %d queried", src.sampled, src.queried)
	}
	if d.Entity(erpsync.Sales) == nil {
		t.Error("sales not placed")
	}
	io.WriteString(io.Discard, report(t, d))
}

// sqlServerLike is the distributor as a SQL Server source would present
// it: bracket quoting and @since. SQLite reads both (and CONCAT), so the
// queries the draft writes for SQL Server run here.
type sqlServerLike struct{ *erp.Source }

func (sqlServerLike) Dialect() erp.Dialect { return erp.SQLServer }

func (sqlServerLike) QuoteIdent(n string) string { return "[" + strings.ReplaceAll(n, "]", "]]") + "]" }

func TestSQLServerDialect(t *testing.T) {
	src := sqlServerLike{openSource(t, buildDistributor(t, 50))}
	d := discover(t, src, erpconnect.Options{})
	m := d.Mapping
	sales := m.Entities[erpsync.Sales].Query
	for _, s := range []string{"FROM [SalesOrderDtl] t", "JOIN [SalesOrderHdr] h ON UPPER(h.[SONo]) = UPPER(t.[SONo])", "h.[ModifiedOn] > @since"} {
		if !strings.Contains(sales, s) {
			t.Errorf("sales query lacks %s:\n%s", s, sales)
		}
	}
	if q := m.Entities[erpsync.Receipts].Query; !strings.Contains(q, "CONCAT(t.[GRNNo], '/', t.[LineNo]) AS [Reference]") {
		t.Errorf("receipts:\n%s", q)
	}
	for e, spec := range m.Entities {
		if err := src.Query(context.Background(), spec.Query, strPtr("2000-01-01 00:00:00"), 5, func([]string, []any) error { return nil }); err != nil {
			t.Errorf("%s: %v\n%s", e, err, spec.Query)
		}
	}
}
