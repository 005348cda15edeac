package erpsync_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/internal/store"
)

// watched is the real store, with each sales and products write noted
// and the n-th sales write refused.
type watched struct {
	store.Store
	batches []erpsync.Batch
	orders  [][]string // the order ids of each sales write
	failAt  int        // 1-based; 0: none
}

func (w *watched) SyncSales(ctx context.Context, b erpsync.Batch, os []domain.Order, s erpsync.Settle) (domain.Tally, error) {
	w.batches = append(w.batches, b)
	var ids []string
	for _, o := range os {
		ids = append(ids, o.ID)
	}
	w.orders = append(w.orders, ids)
	if len(w.orders) == w.failAt {
		return domain.Tally{}, errors.New("disk full")
	}
	return w.Store.SyncSales(ctx, b, os, s)
}

func (w *watched) SyncProducts(ctx context.Context, b erpsync.Batch, ps []domain.Product) (domain.Tally, error) {
	w.batches = append(w.batches, b)
	return w.Store.SyncProducts(ctx, b, ps)
}

func (w *watched) Deactivate(ctx context.Context, e erpsync.Entity, keep []string, b erpsync.Batch) (int, error) {
	w.batches = append(w.batches, b)
	return w.Store.Deactivate(ctx, e, keep, b)
}

// TestBatchesCarryTheStateLast: only the last write of a run carries the
// new state (for products, the Deactivate after the batches); an order's
// lines are never split across writes.
func TestBatchesCarryTheStateLast(t *testing.T) {
	f := newFixture(t)
	w := &watched{Store: f.books}
	f.s.Books, f.s.Batch = w, 1
	f.run(t, erpsync.Products)
	if len(w.batches) != 4 {
		t.Fatalf("%d writes, want 3 batches and Deactivate", len(w.batches))
	}
	for i, b := range w.batches[:3] {
		if !b.State.LastGood.IsZero() || b.Entity != erpsync.Products || len(b.Owns) != 1 || b.Owns[0] != erpsync.FigureStock {
			t.Errorf("batch %d carries %+v", i, b)
		}
	}
	if last := w.batches[3]; !last.State.LastGood.Equal(T0) || last.State.Rows != 3 {
		t.Errorf("Deactivate carries %+v", last.State)
	}
	f.run(t, erpsync.Customers)

	w.batches = nil
	f.s.Batch = 2 // T-1 has two lines, T-2 one: one order a write
	r := f.run(t, erpsync.Sales)
	if len(w.orders) != 2 || len(w.orders[0]) != 1 || w.orders[0][0] != "T-1" || w.orders[1][0] != "T-2" {
		t.Fatalf("writes %v", w.orders)
	}
	if w.batches[0].State.Watermark != "" || w.batches[1].State.Watermark != "2026-03-02 11:00:00" || r.Written.Added != 2 {
		t.Errorf("states %+v, %+v", w.batches[0].State, w.batches[1].State)
	}
}

// TestBooksFailingBetweenBatches: a write refused after an earlier one
// went in leaves the watermark where it was, so the next run reads the
// whole window again.
func TestBooksFailingBetweenBatches(t *testing.T) {
	f := newFixture(t)
	f.run(t, erpsync.Products)
	f.run(t, erpsync.Customers)
	w := &watched{Store: f.books, failAt: 2}
	f.s.Books, f.s.Batch = w, 1
	_, err := f.s.Run(ctx, erpsync.Sales)
	var fl *erpsync.Failure
	if !errors.As(err, &fl) || fl.Class != "books" || !errors.Is(err, fl.Err) {
		t.Fatalf("Run: %v", err)
	}
	if st := f.state(t, erpsync.Sales); st.Watermark != "" || st.Failures != 1 || !contains(st.LastError, "disk full") {
		t.Errorf("state %+v", st)
	}
	w.failAt = 0
	f.clock.Advance(time.Minute)
	if r := f.run(t, erpsync.Sales); !r.Full || r.Rows != 3 || r.Written.Added != 1 || r.Written.Unchanged != 1 || r.Watermark != "2026-03-02 11:00:00" {
		t.Errorf("the next run %+v", r)
	}
}
