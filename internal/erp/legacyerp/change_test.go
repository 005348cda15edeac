package legacyerp_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/erp/legacyerp"
	"github.com/munshi/munshi/internal/erpsync"
)

// TestChanges moves the ERP as a sync test does and checks that Truth and
// the reviewed mapping's queries see each change.
func TestChanges(t *testing.T) {
	for _, dialect := range legacyerp.Dialects {
		t.Run(dialect, func(t *testing.T) {
			ctx := t.Context()
			db, f := build(t, dialect, small)
			m := mapping(t, dialect)
			products := func() result { return runQuery(t, db, dialect, m.Entities[erpsync.Products], "") }

			// A stock count.
			sku := f.SKUs[0]
			if err := legacyerp.SetStock(ctx, db, dialect, " "+sku+" ", 1234, 56); err != nil {
				t.Fatal(err)
			}
			if r, _ := legacyerp.ReadyStock(ctx, db, dialect, sku); r != 1234 {
				t.Errorf("ready stock after the count = %d", r)
			}
			if w, _ := legacyerp.WIPStock(ctx, db, dialect, sku); w != 56 {
				t.Errorf("WIP after the count = %d", w)
			}
			if got := whole(t, products()[0]["ready"]); got != 1234 {
				t.Errorf("the mapping reads %d after the count", got)
			}
			if err := legacyerp.SetStock(ctx, db, dialect, "NOSUCH", 1, 1); !errors.Is(err, legacyerp.ErrNotFound) {
				t.Errorf("SetStock of an unknown item: %v", err)
			}

			// A payment, set against the party's oldest bills.
			dues, err := legacyerp.DuesByParty(ctx, db, dialect)
			if err != nil {
				t.Fatal(err)
			}
			var party string
			for _, id := range f.CustomerIDs {
				if dues[id] > 150000 {
					party = id
					break
				}
			}
			before, _ := legacyerp.TotalDues(ctx, db, dialect)
			paidBefore, _ := legacyerp.PaymentsOn(ctx, db, dialect, f.LastDay)
			no, err := legacyerp.AddPayment(ctx, db, dialect, legacyerp.Payment{CustomerID: party, Date: f.LastDay.Add(11 * time.Hour),
				Amount: 150000, Mode: "Chq", Reference: "004521"})
			if err != nil {
				t.Fatal(err)
			}
			if after, _ := legacyerp.TotalDues(ctx, db, dialect); after != before-150000 {
				t.Errorf("dues %d after a payment of 1500.00, were %d", after, before)
			}
			if paid, _ := legacyerp.PaymentsOn(ctx, db, dialect, f.LastDay); paid.Payments != paidBefore.Payments+1 || paid.Amount != paidBefore.Amount+150000 {
				t.Errorf("payments on the day %+v, were %+v", paid, paidBefore)
			}
			duesMatchBills(t, db, dialect)
			pays := runQuery(t, db, dialect, m.Entities[erpsync.Payments], f.LastDay.Format(time.DateTime))
			if !slices.ContainsFunc(pays, func(r map[string]any) bool { return str(r["rcptno"]) == no }) {
				t.Errorf("the mapping does not read payment %s", no)
			}

			// A late commit: an order whose ModifiedOn is before the
			// watermark, inside the overlap.
			day := f.LastDay
			sales, _ := legacyerp.SalesOn(ctx, db, dialect, day)
			late := f.LastModified.Add(-5 * time.Minute)
			order, err := legacyerp.AddOrder(ctx, db, dialect, legacyerp.Order{CustomerID: f.CustomerIDs[0], Date: day.Add(10 * time.Hour),
				ModifiedOn: late, Status: legacyerp.StatusApproved,
				Lines: []legacyerp.Line{{SKU: f.SKUs[1], Qty: 24}, {SKU: f.SKUs[2], Qty: 10, Price: 5000}}})
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := legacyerp.SalesOn(ctx, db, dialect, day); got.Orders != sales.Orders+1 || got.Lines != sales.Lines+2 || got.Value <= sales.Value {
				t.Errorf("sales on the day %+v, were %+v", got, sales)
			}
			overlap := runQuery(t, db, dialect, m.Entities[erpsync.Sales], f.LastModified.Add(-10*time.Minute).Format(time.DateTime))
			if n := lines(overlap, order); n != 2 {
				t.Errorf("the late order has %d lines in the overlap's read", n)
			}
			if n := lines(runQuery(t, db, dialect, m.Entities[erpsync.Sales], f.LastModified.Format(time.DateTime)), order); n != 0 {
				t.Errorf("the late order is read after the watermark without the overlap (%d lines)", n)
			}

			// A broken row: a negative quantity.
			if err := legacyerp.SetLineQty(ctx, db, dialect, order, 1, -5, f.LastModified.Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			changed := runQuery(t, db, dialect, m.Entities[erpsync.Sales], f.LastModified.Format(time.DateTime))
			if !slices.ContainsFunc(changed, func(r map[string]any) bool { return str(r["ordno"]) == order && whole(t, r["qty"]) == -5 }) {
				t.Error("the mapping does not read the negative quantity")
			}

			// An item deleted, and one whose code is blanked.
			if err := legacyerp.DeleteItem(ctx, db, dialect, f.SKUs[3]); err != nil {
				t.Fatal(err)
			}
			if err := legacyerp.BlankItemCode(ctx, db, dialect, f.SKUs[4]); err != nil {
				t.Fatal(err)
			}
			ps := products()
			if len(ps) != f.Items-1 {
				t.Errorf("products read %d after a delete, want %d", len(ps), f.Items-1)
			}
			blank := 0
			for _, r := range ps {
				if r["itmcd"] == nil {
					blank++
				}
			}
			if blank != 1 {
				t.Errorf("%d products without a code, want 1", blank)
			}
			if r, _ := legacyerp.ReadyStock(ctx, db, dialect, f.SKUs[3]); r != 0 {
				t.Errorf("a deleted item has stock %d", r)
			}
		})
	}
}

func lines(rows result, order string) int {
	n := 0
	for _, r := range rows {
		if str(r["ordno"]) == order {
			n++
		}
	}
	return n
}
