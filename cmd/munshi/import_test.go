package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
)

// dumpDB reads every row of every table of the database at path, for
// telling whether a command changed anything at all.
func dumpDB(t *testing.T, path string) map[string][]string {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables []string
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		rows.Scan(&name)
		tables = append(tables, name)
	}
	rows.Close()
	out := map[string][]string{}
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + table + `"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out[table] = append(out[table], fmt.Sprint(vals...))
		}
		rows.Close()
	}
	return out
}

func TestImportHistoryCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "m.db")
	env := map[string]string{"MUNSHI_DB": db}
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const ordersCSV = "order_id,date,customer_id,sku,qty,price,gst_percent,status,placed_by\n" +
		"T-5531,2026-09-14,C01,GC500,120,92.00,18,delivered,+919900000003\n" +
		"T-5531,2026-09-14,C01,PH1L,12,65,18,delivered,+919900000003\n" +
		"T-5532,2026-09-20T17:30,c03,GC500,1000,92.50,18,committed,\n" +
		"ORD-4711,2026-10-01,C02,PH1L,6,65,18,cancelled,\n"
	const paymentsCSV = "date,customer_id,amount,mode,reference\n" +
		"2026-09-15,C01,\"12,947.60\",cheque,CHQ 004512\n" +
		"2026-09-16,C02,500,cod,\n" +
		"2026-09-16,C02,500,cod,\n"
	orders, payments := write("orders.csv", ordersCSV), write("payments.csv", paymentsCSV)

	// Without books there is nothing to import into, and no database is made.
	if _, _, err := cli(t, env, "", "import", "orders", orders); err == nil || !strings.Contains(err.Error(), "customers first") {
		t.Fatalf("orders before the books: %v", err)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("a refused import created the database")
	}
	for kind, body := range map[string][]byte{"catalog": demo.CatalogCSV, "customers": demo.CustomersCSV} {
		if _, _, err := cli(t, env, "", "import", kind, write(kind+".csv", string(body))); err != nil {
			t.Fatal(err)
		}
	}
	before := dumpDB(t, db)

	out, _, err := cli(t, env, "", "import", "orders", orders)
	if err != nil || !strings.Contains(out, "imported 4 orders rows from "+orders+": 3 orders added, 0 updated, 0 unchanged") {
		t.Fatalf("import orders: %q %v", out, err)
	}
	out, _, err = cli(t, env, "", "import", "payments", payments)
	if err != nil || !strings.Contains(out, "imported 3 payments rows from "+payments+": 3 payments added, 0 updated, 0 unchanged") {
		t.Fatalf("import payments: %q %v", out, err)
	}
	once := dumpDB(t, db)
	// History moves neither stock nor outstanding.
	for _, table := range []string{"products", "customers"} {
		if !reflect.DeepEqual(once[table], before[table]) {
			t.Errorf("the import changed %s", table)
		}
	}
	if n := len(once["orders"]) - len(before["orders"]); n != 3 {
		t.Errorf("%d orders written, want 3", n)
	}

	// The same files again change nothing: not a row of any table, but the
	// audit entries saying they were imported.
	out, _, err = cli(t, env, "", "import", "orders", orders)
	if err != nil || !strings.Contains(out, "0 orders added, 0 updated, 3 unchanged") {
		t.Fatalf("second import of orders: %q %v", out, err)
	}
	out, _, err = cli(t, env, "", "import", "payments", payments)
	if err != nil || !strings.Contains(out, "0 payments added, 0 updated, 3 unchanged") {
		t.Fatalf("second import of payments: %q %v", out, err)
	}
	twice := dumpDB(t, db)
	for table, rows := range once {
		if table != "audit_log" && !reflect.DeepEqual(twice[table], rows) {
			t.Errorf("the second import changed %s:\n got %q\nwant %q", table, twice[table], rows)
		}
	}
	if n := len(twice["audit_log"]) - len(once["audit_log"]); n != 2 {
		t.Errorf("%d audit entries for two imports", n)
	}

	books, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	o, found, err := books.Order(context.Background(), "T-5532")
	// 1,000 × ₹92.50 = ₹92,500 + 18% GST = ₹1,09,150, dated in Kolkata.
	if err != nil || !found || o.CustomerID != "C03" || o.Total != 10915000 || !o.CreatedAt.Equal(time.Date(2026, 9, 20, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("T-5532 = %+v, %v, %v", o, found, err)
	}
	if held, err := books.Committed(context.Background(), "GC500"); err != nil || held["GC500"] != 0 {
		t.Errorf("the imported committed order holds %v, %v", held, err)
	}
	// An order Munshi made itself is never overwritten by history.
	own := domain.Order{ID: "ORD-5000", CustomerID: "C01", Payment: domain.PayCOD, Status: domain.OrderCommitted, CreatedAt: time.Now()}
	err = books.AddHistory(context.Background(), []domain.Order{own}, nil)
	books.Close()
	if err != nil {
		t.Fatal(err)
	}
	withOwn := dumpDB(t, db)
	clash := write("clash.csv", ordersCSV+"ORD-5000,2026-10-02,C01,GC500,1,92,18,delivered,\n")
	_, _, err = cli(t, env, "", "import", "orders", clash)
	if err == nil || !strings.Contains(err.Error(), "line 6") || !strings.Contains(err.Error(), "ORD-5000") || !strings.Contains(err.Error(), "nothing imported") {
		t.Fatalf("an order id of Munshi's own: %v", err)
	}
	// Bad rows are named by their lines, and nothing is written.
	bad := write("bad.csv", ordersCSV+"T-6000,2026-10-02,C99,GC500,1,92,18,delivered,\nT-6001,2026-10-02,C01,NOPE,1,92,18,delivered,\n")
	_, _, err = cli(t, env, "", "import", "orders", bad)
	for _, w := range []string{"line 6", "C99", "line 7", "NOPE"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("bad rows: %v does not say %q", err, w)
		}
	}
	after := dumpDB(t, db)
	for _, table := range []string{"orders", "order_lines", "counters"} {
		if !reflect.DeepEqual(after[table], withOwn[table]) {
			t.Errorf("a refused file changed %s", table)
		}
	}
}
