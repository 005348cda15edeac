package intake_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/intake"
	"github.com/munshi/munshi/internal/store"
)

var (
	ctx     = context.Background()
	kolkata = time.FixedZone("IST", 5*3600+1800)
	day     = time.Date(2026, 9, 14, 0, 0, 0, 0, kolkata)
)

// books is a SQLite database holding the demo catalog and customers, taken
// in through intake, and the path of its file.
func books(t *testing.T) (store.Store, string, intake.Intake) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.db")
	s, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	in := intake.Intake{Books: s, Actor: "test", Audit: audit.New(s, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))}
	products, customers, users, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	for _, take := range []func() (intake.Taken, error){
		func() (intake.Taken, error) { return in.Catalog(ctx, "catalog.csv", products) },
		func() (intake.Taken, error) { return in.Customers(ctx, "customers.csv", customers) },
		func() (intake.Taken, error) { return in.Users(ctx, "users.csv", users) },
	} {
		if _, err := take(); err != nil {
			t.Fatal(err)
		}
	}
	return s, path, in
}

// count is the number of rows of a table, read from the file itself.
func count(t *testing.T, path, table string) int {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM "` + table + `"`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// history counts what history tables and the audit log hold.
func history(t *testing.T, path string) [4]int {
	return [4]int{count(t, path, "orders"), count(t, path, "order_lines"), count(t, path, "payments"), count(t, path, "audit_log")}
}

func row(line int, id, customer, sku string, qty int64) intake.OrderRow {
	return intake.OrderRow{Line: line, OrderID: id, Date: day, CustomerID: customer, SKU: sku, Qty: qty,
		Price: 9200, GSTRate: 1800, Status: domain.OrderDelivered}
}

// refusal checks that err is a *intake.Refusal of file by source and
// returns its problems as "line: reason".
func refusal(t *testing.T, err error, source, file string) []string {
	t.Helper()
	var r *intake.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("error %T %v, want an *intake.Refusal", err, err)
	}
	if r.Source != source || r.File != file || !strings.Contains(r.Error(), source+": "+file+" file refused, nothing imported") {
		t.Errorf("refusal %q of %s/%s", r.Error(), r.Source, r.File)
	}
	var out []string
	for _, p := range r.Problems {
		out = append(out, fmt.Sprintf("%d: %s", p.Line, p.Reason))
	}
	return out
}

// mustSay checks each problem holds its words, in order.
func mustSay(t *testing.T, got []string, want ...[]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("problems %q, want %d", got, len(want))
	}
	for i, words := range want {
		for _, w := range words {
			if !strings.Contains(got[i], w) {
				t.Errorf("problem %d %q does not say %q", i+1, got[i], w)
			}
		}
	}
}

// Rows naming what the books do not hold are refused with their lines,
// among the rows the source could not read, in line order; nothing of the
// batch is written, not even its audit entry.
func TestOrdersRefusedByLineWriteNothing(t *testing.T) {
	s, path, in := books(t)
	before := history(t, path)
	rows := intake.Rows[intake.OrderRow]{Source: "sheets", Rows: []intake.OrderRow{
		row(2, "T-1", "c01", "gc500", 120),
		row(3, "T-2", "C99", "GC500", 1),
		row(5, "T-3", "C01", "NOPE", 1),
		row(6, "T-1", "C02", "PH1L", 1),
		{Line: 7, OrderID: "T-4", CustomerID: "C01", SKU: "GC500", Unread: []string{"qty \"x\" must be a whole number"}},
		row(8, "T-4", "C01", "GC500", 1),
	}, Unreadable: []intake.Problem{{Line: 4, Reason: "has 3 fields, the header has 9"}}}
	_, err := in.Orders(ctx, "orders tab", rows)
	mustSay(t, refusal(t, err, "sheets", "orders"),
		[]string{"3: ", "customer_id", "C99", "not a customer"},
		[]string{"4: ", "3 fields"},
		[]string{"5: ", "sku", "NOPE", "not a product"},
		[]string{"6: ", "T-1", "customer_id", "C02", "line 2"},
		[]string{"7: ", "qty"},
	)
	if after := history(t, path); after != before {
		t.Errorf("a refused batch wrote: orders, lines, payments, audit %v → %v", before, after)
	}
	if _, found, err := s.Order(ctx, "T-1"); found || err != nil {
		t.Errorf("T-1 in the books after a refusal: %v %v", found, err)
	}
}

// The same rows taken twice change nothing the second time; the orders are
// in the books in the books' spelling, priced line by line.
func TestOrdersTwiceChangeNothing(t *testing.T) {
	s, path, in := books(t)
	rows := intake.Rows[intake.OrderRow]{Source: "csvimport", Rows: []intake.OrderRow{
		row(2, "T-5531", "c01", "gc500", 120), row(3, "T-5531", "C01", "PH1L", 12), row(4, "T-5532", "C03", "GC500", 1000),
	}}
	first, err := in.Orders(ctx, "orders.csv", rows)
	if err != nil {
		t.Fatal(err)
	}
	if want := (intake.Taken{Kind: "orders", Rows: 3, Tally: domain.Tally{Added: 2}}); first != want {
		t.Errorf("first import %+v, want %+v", first, want)
	}
	once := history(t, path)
	second, err := in.Orders(ctx, "orders.csv", rows)
	if err != nil {
		t.Fatal(err)
	}
	if want := (intake.Taken{Kind: "orders", Rows: 3, Tally: domain.Tally{Unchanged: 2}}); second != want {
		t.Errorf("second import %+v, want %+v", second, want)
	}
	twice := history(t, path)
	if once[0] != twice[0] || once[1] != twice[1] || twice[3] != once[3]+1 {
		t.Errorf("the second import changed the books: %v → %v (only one audit entry more)", once, twice)
	}
	o, found, err := s.Order(ctx, "T-5531")
	// 120 × ₹92 + 12 × ₹92 = ₹12,144, 18% GST ₹2,185.92.
	if err != nil || !found || o.CustomerID != "C01" || len(o.Lines) != 2 || o.Lines[0].SKU != "GC500" || o.Total != 1432992 {
		t.Errorf("T-5531 = %+v, %v, %v", o, found, err)
	}
	entries, err := s.AuditEntries(ctx, audit.KindImport)
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	if last.Actor != "test" || last.Subject != "orders" || last.Detail["file"] != "orders.csv" || fmt.Sprint(last.Detail["unchanged"]) != "2" {
		t.Errorf("audit entry %+v", last)
	}
}

// An order id Munshi made itself is never overwritten: the batch is refused
// naming the row, and nothing is written.
func TestOrdersClashWithMunshisOwnNamedByLine(t *testing.T) {
	s, path, in := books(t)
	own := domain.Order{ID: "ORD-5000", CustomerID: "C01", Payment: domain.PayCOD, Status: domain.OrderCommitted, CreatedAt: day}
	if err := s.AddHistory(ctx, []domain.Order{own}, nil); err != nil {
		t.Fatal(err)
	}
	before := history(t, path)
	_, err := in.Orders(ctx, "orders.csv", intake.Rows[intake.OrderRow]{Source: "csvimport", Rows: []intake.OrderRow{
		row(2, "T-1", "C01", "GC500", 1), row(3, "ORD-5000", "C01", "GC500", 1),
	}})
	mustSay(t, refusal(t, err, "csvimport", "orders"), []string{"3: ", "ORD-5000", "Munshi made"})
	if after := history(t, path); after != before {
		t.Errorf("a refused batch wrote: %v → %v", before, after)
	}
}

// Payments: a reference twice for one customer is refused with both lines;
// good rows taken twice are added once.
func TestPayments(t *testing.T) {
	_, path, in := books(t)
	pay := func(line int, customer string, amount domain.Paise, ref string) intake.PaymentRow {
		return intake.PaymentRow{Line: line, Date: day, CustomerID: customer, Amount: amount, Mode: domain.PayUPI, Reference: ref}
	}
	before := history(t, path)
	_, err := in.Payments(ctx, "payments.csv", intake.Rows[intake.PaymentRow]{Source: "csvimport", Rows: []intake.PaymentRow{
		pay(2, "C01", 10000, "UTR991"), pay(3, "c01", 20000, "utr991"), pay(4, "C02", 0, ""), pay(5, "C404", 100, ""),
	}})
	mustSay(t, refusal(t, err, "csvimport", "payments"),
		[]string{"3: ", "utr991", "line 2"}, []string{"4: ", "amount", "more than zero"}, []string{"5: ", "C404", "not a customer"})
	if after := history(t, path); after != before {
		t.Errorf("a refused batch wrote: %v → %v", before, after)
	}
	good := intake.Rows[intake.PaymentRow]{Source: "csvimport", Rows: []intake.PaymentRow{pay(2, "c01", 10000, "UTR991"), pay(3, "C02", 500, "")}}
	for i, want := range []domain.Tally{{Added: 2}, {Unchanged: 2}} {
		got, err := in.Payments(ctx, "payments.csv", good)
		if err != nil {
			t.Fatal(err)
		}
		if got != (intake.Taken{Kind: "payments", Rows: 2, Tally: want}) {
			t.Errorf("import %d: %+v, want %+v", i+1, got, want)
		}
	}
	if n := count(t, path, "payments"); n != 2 {
		t.Errorf("%d payments in the books, want 2", n)
	}
}

// A refusal lists the first MaxProblems problems and counts the rest, the
// unreadable rows a source counted included.
func TestRefusalCountsWhatItDoesNotList(t *testing.T) {
	_, _, in := books(t)
	rows := intake.Rows[intake.OrderRow]{Source: "csvimport", MoreUnreadable: 7}
	for i := range 60 {
		rows.Rows = append(rows.Rows, row(i+2, fmt.Sprintf("T-%d", i), "C99", "GC500", 1))
	}
	_, err := in.Orders(ctx, "orders.csv", rows)
	var r *intake.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("error %v", err)
	}
	if len(r.Problems) != intake.MaxProblems || r.More != 60-intake.MaxProblems+7 || !strings.Contains(r.Error(), "… and 17 more") {
		t.Errorf("%d problems listed and %d more; %q", len(r.Problems), r.More, r.Error())
	}
	if r.Problems[0].Line != 2 || r.Problems[49].Line != 51 {
		t.Errorf("listed lines %d…%d, want 2…51", r.Problems[0].Line, r.Problems[49].Line)
	}
}

// Catalog, customers and users are upserted by key: the rows taken say so,
// and each import is audited.
func TestRecordsUpsertByKey(t *testing.T) {
	s, _, in := books(t)
	products, _, _, _ := demo.Data()
	p := products[0]
	p.Price += 100
	got, err := in.Catalog(ctx, "catalog.csv", []domain.Product{p})
	if err != nil || got != (intake.Taken{Kind: "catalog", Rows: 1}) {
		t.Fatalf("catalog: %+v, %v", got, err)
	}
	all, err := s.Products(ctx)
	if err != nil || len(all) != len(products) {
		t.Fatalf("%d products, want %d: %v", len(all), len(products), err)
	}
	for _, x := range all {
		if x.SKU == p.SKU && !reflect.DeepEqual(x, p) {
			t.Errorf("%s after the upsert: %+v, want %+v", p.SKU, x, p)
		}
	}
	entries, err := s.AuditEntries(ctx, audit.KindImport)
	if err != nil || len(entries) != 4 {
		t.Fatalf("%d import entries, want 4 (catalog, customers, users, catalog): %v", len(entries), err)
	}
	if last := entries[3]; last.Subject != "catalog" || last.Detail["file"] != "catalog.csv" || fmt.Sprint(last.Detail["rows"]) != "1" {
		t.Errorf("audit entry %+v", last)
	}
}
