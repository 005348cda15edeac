package storetest

import (
	"encoding/json"
	"testing"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
)

// testSyncKeepsStockAndDues: a scheduled pull's upsert changes names,
// prices and limits but not the stock or the outstanding the books
// already hold; what is new takes what it is given, all in one
// transaction.
func testSyncKeepsStockAndDues(t *testing.T, s store.Store, _ *Clock) {
	seed(t, s)
	ps := products()
	gc := ps[0]
	gc.Price, gc.StockReady, gc.StockWIP = 9900, 1, 2
	fresh := domain.Product{SKU: "NEW1", Name: "New Thing", Unit: "piece", Price: 1000, GSTPercent: 1800, StockReady: 50}
	if err := s.UpsertProductsKeepingStock(ctx, []domain.Product{gc, fresh}); err != nil {
		t.Fatal(err)
	}
	got := map[string]domain.Product{}
	all, _ := s.Products(ctx)
	for _, p := range all {
		got[p.SKU] = p
	}
	if p := got["GC500"]; p.Price != 9900 || p.StockReady != ps[0].StockReady || p.StockWIP != ps[0].StockWIP {
		t.Errorf("GC500 after a sync = %+v; want the new price and the books' stock %d/%d", p, ps[0].StockReady, ps[0].StockWIP)
	}
	if p := got["NEW1"]; p.StockReady != 50 {
		t.Errorf("a new product's stock = %d, want 50", p.StockReady)
	}
	cs := customers()
	c := cs[0]
	c.Name, c.CreditLimit, c.Outstanding = "Rajesh Kirana & Sons", 20000000, 0
	if err := s.UpsertCustomersKeepingDues(ctx, []domain.Customer{c}); err != nil {
		t.Fatal(err)
	}
	after, _ := s.Customers(ctx)
	if after[0].Name != c.Name || after[0].CreditLimit != 20000000 || after[0].Outstanding != cs[0].Outstanding {
		t.Errorf("C01 after a sync = %+v; want the new name and limit, the books' outstanding %v", after[0], cs[0].Outstanding)
	}
	// All or nothing, as the plain upsert.
	bad := []domain.Product{{SKU: "NEW2", Name: "x", Unit: "piece", Price: 100}, {SKU: "GC500", Name: "y", Unit: "bottle", Price: -1}}
	if err := s.UpsertProductsKeepingStock(ctx, bad); err == nil {
		t.Error("a negative price was stored")
	}
	if all, _ := s.Products(ctx); len(all) != len(ps)+1 {
		t.Errorf("a refused sync wrote part of itself: %d products", len(all))
	}
}

// testCommitLogsTheOrder: a commit's Log is given the order as it is
// written, number and time included, and its effects go to the outbox
// with the commit.
func testCommitLogsTheOrder(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	d := show(t, s, c, ravi, "C01", domain.PayCOD, orders.Item{SKU: "GC500", Qty: 48})
	var logged domain.Order
	id, err := s.Commit(ctx, orders.Commitment{Draft: d, By: ravi, Judge: func(orders.Snapshot) error { return nil },
		Log: func(o domain.Order) []domain.Effect {
			logged = o
			return []domain.Effect{domain.OrderLogged(domain.LogOrder(o, "Rajesh Kirana Store", nil, o.CommittedAt))}
		}})
	if err != nil {
		t.Fatal(err)
	}
	o, ok, err := s.Order(ctx, id)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if logged.ID != id || logged.Status != domain.OrderCommitted || !logged.CommittedAt.Equal(c.Now()) || logged.Total != o.Total ||
		len(logged.Lines) != 1 || logged.Lines[0].Qty != 48 {
		t.Errorf("Log was given %+v; want the order as written, %+v", logged, o)
	}
	msgs, _ := s.OutboxMessages(ctx)
	if len(msgs) != 1 || msgs[0].Kind != domain.EffectSheets || msgs[0].About != id {
		t.Fatalf("outbox %+v; want the order log's effect", msgs)
	}
	var lo domain.LoggedOrder
	if err := json.Unmarshal(msgs[0].Payload, &lo); err != nil || lo.ID != id || lo.CustomerName != "Rajesh Kirana Store" {
		t.Errorf("payload %s: %v", msgs[0].Payload, err)
	}
}
