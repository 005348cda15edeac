package erpsync_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/erpsync"
)

// TestCheckGoodSource: every entity would sync; five rows of each are
// shown by Munshi's fields, and the draft's notes are printed.
func TestCheckGoodSource(t *testing.T) {
	f := newFixture(t)
	f.s.Mapping.Entities[erpsync.Products].Fields["price"].Review = "Rate is the list price;\nMRP is in another column."
	f.s.Mapping.Entities[erpsync.Customers].Fields["segment"].Suggested = true
	var out bytes.Buffer
	rep, err := f.s.Check(ctx, &out)
	if err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !rep.OK() || rep.Problems != 0 || rep.Notes != 2 {
		t.Fatalf("report %+v\n%s", rep, s)
	}
	for _, w := range []string{"source: sqlite:", "(sqlite)", "== products: 3 rows read", "sku", "stock_ready",
		"GC500", "Glass Cleaner 500ml", "₹92.50", "bottle", "== sales: 3 rows read", "T-1", "delivered",
		"price: review: Rate is the list price; MRP is in another column.", "segment: suggested",
		"No problems: every entity would sync. 2 notes"} {
		if !strings.Contains(s, w) {
			t.Errorf("%q not in:\n%s", w, s)
		}
	}
	if states, _ := f.books.SyncStates(ctx); len(states) != 0 {
		t.Errorf("Check wrote states %+v", states)
	}
}

// TestCheckReportsEachProblemByRow: bad rows of every kind are reported
// by entity, row, key and column; Check writes nothing, and what bills,
// sales and payments name is checked against the mapping's own products
// and customers.
func TestCheckReportsEachProblemByRow(t *testing.T) {
	f := newFixture(t)
	e := f.erp
	e.exec(t, `INSERT INTO Items VALUES ('gc500', 'Glass Cleaner again', NULL, 'btl', '92', 18, 1, 0, 1)`)
	e.exec(t, `UPDATE Items SET QtyOnHand = -5 WHERE ItemCode = 'PH1L'`)
	e.exec(t, `UPDATE Items SET Rate = 'abc' WHERE ItemCode = 'soap'`)
	e.exec(t, `UPDATE Parties SET Mobile = '12345' WHERE PartyCode = 'C02'`)
	e.exec(t, `INSERT INTO Bills VALUES ('B-2', 'C01', 'someday', '100', '100'), ('B-3', 'C99', '2026-03-01', '100', '100')`)
	e.exec(t, `INSERT INTO SalesLines VALUES ('T-5', 1, '2026-03-05', 'C01', 'XX1', 1, '10', '18', 2, '2026-03-05 10:00:00'),
		('T-1', 3, '2026-03-01', 'C01', 'GC500', 1, '10', '18', 2, '2026-03-05 10:00:00')`)
	// Without line, an order's lines are told apart by their SKU.
	delete(f.s.Mapping.Entities[erpsync.Sales].Fields, "line")
	e.exec(t, `INSERT INTO MoneyReceipts VALUES ('R-3', '2026-03-07', 'C01', '100', 'barter'), ('R-4', '2026-03-07', 'C01', '1,2,3', 'upi')`)
	f.s.Mapping.Entities[erpsync.Receipts].Fields["qty"].Column = "AccQty"
	var out bytes.Buffer
	rep, err := f.s.Check(ctx, &out)
	if err != nil {
		t.Fatal(err)
	}
	s := out.String()
	want := []string{
		`products row 3 (GC500): duplicate sku "GC500" (first on row 1)`,
		`products row 2 (PH1L): stock_ready (column QtyOnHand): "-5" must be a whole number of base units from 0`,
		`products row 4 (SOAP): price (column Rate): "abc" is not a number`,
		`customers row 2 (C02): phone (column Mobile): "12345" is not a phone number`,
		`bills row 2 (B-2): date (column BillDate): "someday" is not a date`,
		`bills row 3 (B-3): customer_id (column PartyCode): "C99" is not a customer in the books (sync customers first)`,
		`sales row 4 (T-1 GC500): sku (column ItemCode): order T-1 has sku "GC500" twice (first on row 1); map line to tell its lines apart`,
		`sales row 5 (T-5 XX1): sku (column ItemCode): "XX1" is not a product in the books (sync products first)`,
		`payments row 3 (C01 R-3): mode (column Mode): "barter" is not a payment mode`,
		`payments row 4 (C01 R-4): amount (column Amount): "1,2,3" groups its digits wrongly`,
		`receipts: qty (column AccQty): the query returns no such column (it returns GRNNo, GRNDate, ItemCode, Qty)`,
	}
	for _, w := range want {
		found := false
		for _, er := range rep.Entities {
			for _, p := range er.Problems {
				if strings.HasPrefix(p.String(), w) {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("no problem %q in:\n%s", w, s)
		}
		if !strings.Contains(s, strings.TrimPrefix(w[strings.Index(w, " ")+1:], "")) {
			t.Errorf("%q not printed", w)
		}
	}
	if rep.OK() || rep.Problems != len(want) {
		var all []string
		for _, er := range rep.Entities {
			for _, p := range er.Problems {
				all = append(all, p.String())
			}
		}
		t.Errorf("%d problems, want %d:\n%s", rep.Problems, len(want), strings.Join(all, "\n"))
	}
	if !strings.Contains(s, fmt.Sprintf("%d problems (products, customers, bills, sales, payments, receipts)", len(want))) {
		t.Errorf("verdict missing:\n%s", s)
	}
	if ps, _ := f.books.Products(ctx); len(ps) != 0 {
		t.Errorf("Check wrote products %+v", ps)
	}
	if states, _ := f.books.SyncStates(ctx); len(states) != 0 {
		t.Errorf("Check wrote states %+v", states)
	}
}

// TestCheckStopsAtTheLimit: the entities that are not masters read at
// most the limit; a failing query is a problem, not an error.
func TestCheckStopsAtTheLimit(t *testing.T) {
	f := newFixture(t)
	f.s.Mapping.Entities[erpsync.Bills].Query = "SELECT * FROM NoSuchTable"
	var out bytes.Buffer
	rep, err := f.s.CheckLimit(ctx, &out, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, er := range rep.Entities {
		switch er.Entity {
		case erpsync.Products:
			if er.Rows != 3 || er.Limited {
				t.Errorf("products read %d rows (limited %v): masters are read whole", er.Rows, er.Limited)
			}
		case erpsync.Sales:
			if er.Rows != 2 || !er.Limited {
				t.Errorf("sales read %d rows", er.Rows)
			}
		case erpsync.Bills:
			if er.Err == nil || er.Count != 1 || !strings.Contains(er.Problems[0].Reason, "no such table") {
				t.Errorf("bills %+v", er)
			}
		}
	}
	if rep.Problems != 1 || !strings.Contains(out.String(), "== bills: query failed") || !strings.Contains(out.String(), "(stopped at 2)") {
		t.Errorf("report %+v\n%s", rep, out.String())
	}
}
