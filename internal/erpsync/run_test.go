package erpsync_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erpsync"
)

// TestFirstFullRun: Once takes every entity in run order into empty
// books, each value converted exactly (decimal text, Indian grouping,
// day-first dates, the ERP's payment modes), and each run is audited.
func TestFirstFullRun(t *testing.T) {
	f := newFixture(t)
	res, err := f.s.Once(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var order []erpsync.Entity
	for _, r := range res {
		order = append(order, r.Entity)
		if r.Queries != 1 || !r.Full {
			t.Errorf("%s: %d queries, full %v", r.Entity, r.Queries, r.Full)
		}
	}
	want := []erpsync.Entity{erpsync.Products, erpsync.Customers, erpsync.Dues, erpsync.Bills, erpsync.Sales, erpsync.Payments, erpsync.Receipts}
	if !slices.Equal(order, want) {
		t.Fatalf("ran %v, want %v", order, want)
	}
	if p := res[0]; p.Rows != 3 || p.Written.Added != 3 {
		t.Errorf("products %+v", p)
	}
	gc := f.product(t, "GC500")
	if gc.Name != "Glass Cleaner 500ml" || gc.Price != 9250 || gc.Unit != "bottle" || gc.GSTPercent != 1800 ||
		gc.StockReady != 2400 || gc.StockWIP != 480 || !slices.Equal(gc.Aliases, []string{"GC"}) {
		t.Errorf("GC500 %+v", gc)
	}
	if soap := f.product(t, "SOAP"); soap.Price != 123400 || soap.GSTPercent != 500 || soap.Unit != "piece" || len(soap.Aliases) != 2 {
		t.Errorf("SOAP %+v", soap)
	}
	c1 := f.customer(t, "C01")
	if c1.Phone != "+919810000001" || c1.Segment != "kirana" || c1.CreditLimit != 5000000 || c1.Outstanding != 1200050 ||
		!slices.Equal(c1.PaymentModes, []domain.PaymentMode{domain.PayCOD, domain.PayCheque}) {
		t.Errorf("C01 %+v", c1)
	}
	if c2 := f.customer(t, "C02"); c2.CreditLimit != 10000000 || !slices.Equal(c2.PaymentModes, []domain.PaymentMode{domain.PayBankTransfer}) {
		t.Errorf("C02 %+v", c2)
	}
	// A customer new to the books without modes may pay any way.
	if c3 := f.customer(t, "C03"); len(c3.PaymentModes) != len(domain.PaymentModes) {
		t.Errorf("C03 %+v", c3)
	}
	o, found, err := f.books.Order(ctx, "T-1")
	if err != nil || !found || len(o.Lines) != 2 || o.Status != domain.OrderDelivered || o.CustomerID != "C01" ||
		o.Subtotal != 24*9250+12*6500 || !o.CreatedAt.Equal(time.Date(2026, 3, 1, 0, 0, 0, 0, ist)) {
		t.Errorf("T-1 %+v %v %v", o, found, err)
	}
	if o, _, _ := f.books.Order(ctx, "T-2"); o.Status != domain.OrderCommitted || o.Lines[0].SKU != "SOAP" || o.Lines[0].GSTRate != 500 {
		t.Errorf("T-2 %+v", o)
	}
	sales := res[4]
	if sales.Rows != 3 || sales.Written.Added != 2 || sales.Since != "1900-01-01 00:00:00" || sales.Watermark != "2026-03-02 11:00:00" {
		t.Errorf("sales %+v", sales)
	}
	if st := f.state(t, erpsync.Sales); st.Watermark != "2026-03-02 11:00:00" || !st.LastGood.Equal(T0) || st.Rows != 3 || st.LastError != "" {
		t.Errorf("sales state %+v", st)
	}
	if pays := res[5]; pays.Rows != 2 || pays.Written.Added != 2 {
		t.Errorf("payments %+v", pays)
	}
	if rec := res[6]; rec.Written.Added != 1 {
		t.Errorf("receipts %+v", rec)
	}
	own, err := f.books.Owned(ctx)
	if err != nil || !slices.Contains(own, erpsync.FigureStock) || !slices.Contains(own, erpsync.FigureDues) {
		t.Errorf("owned %v %v", own, err)
	}
	entries, err := f.books.AuditEntries(ctx, erpsync.AuditKind)
	if err != nil || len(entries) != 7 {
		t.Fatalf("%d audit entries, %v", len(entries), err)
	}
	if e := entries[4]; e.Subject != "sales" || e.Detail["ok"] != true || e.Detail["rows"] != float64(3) && e.Detail["rows"] != 3 ||
		e.Detail["watermark"] != "2026-03-02 11:00:00" || !strings.HasPrefix(e.Detail["source"].(string), "sqlite:") {
		t.Errorf("audit %+v", e)
	}
	// A second run of the same rows changes nothing.
	again := f.run(t, erpsync.Products)
	if again.Written.Unchanged != 3 || again.Written.Added+again.Written.Updated != 0 {
		t.Errorf("second products run %+v", again.Written)
	}
}

// TestIncrementalRun: a run after the first reads only the rows changed
// since the watermark less the overlap: an order changed later, a new
// one, and one the ERP committed late with an earlier change time inside
// the overlap. A row changed before the window is not read again.
func TestIncrementalRun(t *testing.T) {
	f := newFixture(t)
	if _, err := f.s.Once(ctx); err != nil {
		t.Fatal(err)
	}
	f.erp.exec(t, `UPDATE SalesLines SET Qty = 120, ModifiedOn = '2026-03-10 12:05:00' WHERE OrderNo = 'T-2'`)
	f.erp.exec(t, `INSERT INTO SalesLines VALUES ('T-3', 1, '2026-03-10', 'C01', 'GC500', 48, '92.50', '18', 2, '2026-03-10 12:06:00')`)
	f.clock.Advance(15 * time.Minute)
	r := f.run(t, erpsync.Sales)
	if r.Full || r.Since != "2026-03-02 10:50:00" || r.Rows != 2 || r.Written.Added != 1 || r.Written.Updated != 1 || r.Watermark != "2026-03-10 12:06:00" {
		t.Fatalf("second run %+v", r)
	}
	if o, _, _ := f.books.Order(ctx, "T-2"); o.Lines[0].Qty != 120 {
		t.Errorf("T-2 %+v", o.Lines)
	}
	// Committed late: changed at 12:00, after the run that reached 12:06.
	f.erp.exec(t, `INSERT INTO SalesLines VALUES ('T-4', 1, '2026-03-10', 'C02', 'PH1L', 6, '65', '18', 2, '2026-03-10 12:00:00')`)
	// Before the window: never read again.
	f.erp.exec(t, `INSERT INTO SalesLines VALUES ('T-0', 1, '2026-03-09', 'C02', 'PH1L', 6, '65', '18', 2, '2026-03-10 11:50:00')`)
	f.clock.Advance(15 * time.Minute)
	r = f.run(t, erpsync.Sales)
	if r.Since != "2026-03-10 11:56:00" || r.Rows != 3 || r.Written.Added != 1 || r.Written.Unchanged != 2 || r.Watermark != "2026-03-10 12:06:00" {
		t.Fatalf("third run %+v", r)
	}
	if _, found, _ := f.books.Order(ctx, "T-4"); !found {
		t.Error("the late row inside the overlap was not read")
	}
	if _, found, _ := f.books.Order(ctx, "T-0"); found {
		t.Error("a row before the window was read")
	}
}

// TestDeletedProductBecomesInactive: a full products run marks what the
// ERP no longer lists inactive, and active again when it returns.
func TestDeletedProductBecomesInactive(t *testing.T) {
	f := newFixture(t)
	f.run(t, erpsync.Products)
	f.erp.exec(t, `UPDATE Items SET Active = 0 WHERE ItemCode = 'PH1L'`)
	r := f.run(t, erpsync.Products)
	if r.Deactivated != 1 || r.Rows != 2 {
		t.Fatalf("run %+v", r)
	}
	if p := f.product(t, "PH1L"); !p.Inactive {
		t.Errorf("PH1L %+v, want inactive", p)
	}
	if p := f.product(t, "GC500"); p.Inactive {
		t.Error("GC500 inactive")
	}
	f.erp.exec(t, `UPDATE Items SET Active = 1 WHERE ItemCode = 'PH1L'`)
	if r := f.run(t, erpsync.Products); r.Deactivated != 0 || f.product(t, "PH1L").Inactive {
		t.Errorf("PH1L not active again: %+v", r)
	}
	// A query that returns nothing is a query gone wrong: nothing becomes inactive.
	f.erp.exec(t, `UPDATE Items SET Active = 0`)
	_, err := f.s.Run(ctx, erpsync.Products)
	var fl *erpsync.Failure
	if !errors.As(err, &fl) || fl.Class != "empty" || f.product(t, "GC500").Inactive {
		t.Errorf("an empty products query: %v", err)
	}
}

// TestSourceOutage: a source that fails keeps the last good data, records
// the failure, tells the owners once, and the next run recovers.
func TestSourceOutage(t *testing.T) {
	f := newFixture(t)
	f.run(t, erpsync.Products)
	good := f.state(t, erpsync.Products)
	f.erp.exec(t, `UPDATE Items SET QtyOnHand = 1 WHERE ItemCode = 'GC500'`)
	src := f.s.Source.(interface{ Close() error })
	src.Close()
	f.clock.Advance(time.Hour)
	for range 3 {
		_, err := f.s.Run(ctx, erpsync.Products)
		var fl *erpsync.Failure
		if !errors.As(err, &fl) || fl.Class != "source" {
			t.Fatalf("Run on a closed source: %v", err)
		}
		f.clock.Advance(time.Minute)
	}
	if p := f.product(t, "GC500"); p.StockReady != 2400 {
		t.Errorf("stock %d: the last good data was not kept", p.StockReady)
	}
	st := f.state(t, erpsync.Products)
	if st.Failures != 3 || !strings.Contains(st.LastError, "did not answer") || !st.LastGood.Equal(good.LastGood) || st.Rows != good.Rows {
		t.Errorf("state %+v (was %+v)", st, good)
	}
	if told := f.told(t, owner); len(told) != 1 || !contains(told[0], "cannot reach the ERP") {
		t.Fatalf("owners told %q, want once", told)
	}
	f.s.Source = f.erp.open(t)
	r := f.run(t, erpsync.Products)
	if r.Written.Updated != 1 || f.product(t, "GC500").StockReady != 1 {
		t.Errorf("recovery %+v", r)
	}
	if st := f.state(t, erpsync.Products); st.Failures != 0 || st.LastError != "" || !st.LastGood.Equal(f.clock.Now()) {
		t.Errorf("state after recovery %+v", st)
	}
	if told := f.told(t, owner); len(told) != 2 || !contains(told[1], "reaches the ERP again") {
		t.Errorf("owners told %q", told)
	}
}

// TestBadRowWritesNothing: one bad row refuses the whole run, even with
// batches of one row: no row is written and the state keeps its
// watermark and last good run; the failure names the row.
func TestBadRowWritesNothing(t *testing.T) {
	f := newFixture(t)
	f.s.Batch = 1
	if _, err := f.s.Once(ctx); err != nil {
		t.Fatal(err)
	}
	before := f.state(t, erpsync.Sales)
	f.erp.exec(t, `UPDATE SalesLines SET ModifiedOn = '2026-03-10 12:01:00', Qty = 30 WHERE OrderNo = 'T-1'`)
	f.erp.exec(t, `INSERT INTO SalesLines VALUES ('T-9', 1, '2026-03-10', 'C01', 'GC500', 1, '92.505', '18', 2, '2026-03-10 12:02:00')`)
	f.clock.Advance(time.Hour)
	_, err := f.s.Run(ctx, erpsync.Sales)
	var fl *erpsync.Failure
	if !errors.As(err, &fl) || fl.Class != "rows" || fl.Count != 1 {
		t.Fatalf("Run: %v", err)
	}
	p := fl.Problems[0]
	if p.Entity != erpsync.Sales || p.Row != 4 || p.Key != "T-9 #1" || p.Field != "price" || p.Column != "Rate" || !contains(p.Reason, "92.505", "two decimal places") {
		t.Errorf("problem %+v", p)
	}
	if o, _, _ := f.books.Order(ctx, "T-1"); o.Lines[0].Qty != 24 {
		t.Errorf("T-1 was half-written: %+v", o.Lines)
	}
	if _, found, _ := f.books.Order(ctx, "T-9"); found {
		t.Error("T-9 written")
	}
	st := f.state(t, erpsync.Sales)
	if st.Watermark != before.Watermark || !st.LastGood.Equal(before.LastGood) || st.Failures != 1 ||
		!contains(st.LastError, "1 bad row, nothing written", "sales row 4 (T-9 #1): price (column Rate)") {
		t.Errorf("state %+v", st)
	}
	// Put right in the ERP: the next run takes it all.
	f.erp.exec(t, `UPDATE SalesLines SET Rate = '92.50' WHERE OrderNo = 'T-9'`)
	if r := f.run(t, erpsync.Sales); r.Written.Added != 1 || r.Written.Updated != 1 || r.Watermark != "2026-03-10 12:02:00" {
		t.Errorf("after the fix %+v", r)
	}
}

// TestOwnersToldOncePerProblem: a problem is told once however often the
// run fails the same way; another kind of problem is told; putting it
// right is told once ("syncing again"), and the same problem later is
// told again.
func TestOwnersToldOncePerProblem(t *testing.T) {
	f := newFixture(t)
	f.run(t, erpsync.Products)
	f.erp.exec(t, `UPDATE Items SET Rate = 'ninety' WHERE ItemCode = 'GC500'`)
	for range 3 {
		if _, err := f.s.Run(ctx, erpsync.Products); err == nil {
			t.Fatal("a bad price was taken")
		}
	}
	told := f.told(t, owner)
	if len(told) != 1 || !contains(told[0], "products have rows Munshi cannot take", "row 1 (GC500): price (column Rate)", "ninety") {
		t.Fatalf("told %q", told)
	}
	// Another problem of the same entity: the query loses a column.
	spec := f.s.Mapping.Entities[erpsync.Products]
	query := spec.Query
	spec.Query = strings.Replace(query, "QtyInProcess", "0 AS Other", 1)
	f.s.Run(ctx, erpsync.Products)
	f.s.Run(ctx, erpsync.Products)
	if told = f.told(t, owner); len(told) != 2 || !contains(told[1], "no longer returns what the mapping reads", "QtyInProcess") {
		t.Fatalf("told %q", told)
	}
	spec.Query = query
	f.erp.exec(t, `UPDATE Items SET Rate = '90' WHERE ItemCode = 'GC500'`)
	f.run(t, erpsync.Products)
	f.run(t, erpsync.Products)
	if told = f.told(t, owner); len(told) != 3 || !contains(told[2], "Products syncing again") {
		t.Fatalf("told %q", told)
	}
	f.erp.exec(t, `UPDATE Items SET Rate = 'ninety' WHERE ItemCode = 'GC500'`)
	f.s.Run(ctx, erpsync.Products)
	if told = f.told(t, owner); len(told) != 4 {
		t.Fatalf("told %q", told)
	}
	// Accounts are not told of sync problems.
	if n := len(f.told(t, accounts)); n != 0 {
		t.Errorf("accounts told %d messages", n)
	}
}

// TestStatus: each entity's age, tier and staleness by the clock.
func TestStatus(t *testing.T) {
	f := newFixture(t)
	f.run(t, erpsync.Products)
	f.run(t, erpsync.Customers)
	f.run(t, erpsync.Dues)
	f.clock.Advance(7 * time.Minute)
	sts, err := f.s.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	by := map[erpsync.Entity]erpsync.EntityStatus{}
	for _, s := range sts {
		by[s.Entity] = s
	}
	if p := by[erpsync.Products]; p.Age != 7*time.Minute || p.Tier != time.Hour || p.Stale {
		t.Errorf("products %+v", p)
	}
	if d := by[erpsync.Dues]; d.Age != 7*time.Minute || d.Tier != 2*time.Minute || !d.Stale {
		t.Errorf("dues %+v", d)
	}
	if s := by[erpsync.Sales]; !s.Stale || !s.LastGood.IsZero() {
		t.Errorf("sales never synced: %+v", s)
	}
	f.s.Source.(interface{ Close() error }).Close()
	f.s.Run(ctx, erpsync.Dues)
	sts, _ = f.s.Status(ctx)
	for _, s := range sts {
		if s.Entity == erpsync.Dues && (s.Failures != 1 || s.LastError == "" || s.Age != 7*time.Minute) {
			t.Errorf("dues after a failure %+v", s)
		}
	}
}
