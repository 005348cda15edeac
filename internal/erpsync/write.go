package erpsync

import (
	"context"

	"github.com/munshi/munshi/internal/domain"
)

// write writes what a run took through the entity's Books method, in
// batches. Every batch but the last carries the entity's previous state,
// and the last the new one, so that a run stopped between batches is read
// again in full; a full master run ends with Deactivate, which carries the
// new state then.
func (s *Syncer) write(ctx context.Context, e Entity, spec *EntitySpec, t taken, prev, final State, settle Settle) (domain.Tally, int, error) {
	var sum domain.Tally
	owns := ownsOf(e, spec)
	full := spec.IsFull(e)
	deactivate := full && (e == Products || e == Customers)
	batch := func(last bool) Batch {
		st := prev
		if last && !deactivate {
			st = final
		}
		return Batch{Entity: e, Owns: owns, State: st}
	}
	add := func(t domain.Tally, err error) error {
		sum.Added += t.Added
		sum.Updated += t.Updated
		sum.Unchanged += t.Unchanged
		return err
	}
	size := s.batch()
	var err error
	switch e {
	case Products:
		err = each(len(t.products), size, func(i, j int, last bool) error {
			return add(s.Books.SyncProducts(ctx, batch(last), t.products[i:j]))
		})
	case Customers:
		err = each(len(t.customers), size, func(i, j int, last bool) error {
			return add(s.Books.SyncCustomers(ctx, batch(last), t.customers[i:j]))
		})
	case Stock:
		err = each(len(t.stock), size, func(i, j int, last bool) error {
			return add(s.Books.SyncStock(ctx, batch(last), t.stock[i:j]))
		})
	case Dues:
		err = each(len(t.dues), size, func(i, j int, last bool) error {
			return add(s.Books.SyncDues(ctx, batch(last), t.dues[i:j]))
		})
	case Bills:
		if full {
			size = len(t.bills) // what a full write leaves out is paid
		}
		err = each(len(t.bills), size, func(i, j int, last bool) error {
			return add(s.Books.SyncBills(ctx, batch(last), t.bills[i:j], full, settle))
		})
	case Sales:
		err = eachOrders(t.orders, size, func(os []domain.Order, last bool) error {
			return add(s.Books.SyncSales(ctx, batch(last), os, settle))
		})
	case OpenOrders:
		if full {
			size = 0 // what a full write leaves out is no longer open
		}
		err = eachOrders(t.orders, size, func(os []domain.Order, last bool) error {
			return add(s.Books.SyncOpenOrders(ctx, batch(last), os, full, settle))
		})
	case Payments:
		err = each(len(t.payments), size, func(i, j int, last bool) error {
			return add(s.Books.SyncPayments(ctx, batch(last), t.payments[i:j], settle))
		})
	case Receipts:
		err = each(len(t.receipts), size, func(i, j int, last bool) error {
			return add(s.Books.SyncReceipts(ctx, batch(last), t.receipts[i:j], settle))
		})
	}
	if err != nil || !deactivate {
		return sum, 0, err
	}
	keep := make([]string, 0, t.rows)
	for _, p := range t.products {
		keep = append(keep, p.SKU)
	}
	for _, c := range t.customers {
		keep = append(keep, c.ID)
	}
	n, err := s.Books.Deactivate(ctx, e, keep, Batch{Entity: e, State: final})
	return sum, n, err
}

// ownsOf is the figures an entity's rows set.
func ownsOf(e Entity, spec *EntitySpec) []Figure {
	switch {
	case e == Stock, e == Products && spec.Maps("stock_ready"):
		return []Figure{FigureStock}
	case e == Dues, e == Customers && spec.Maps("outstanding"):
		return []Figure{FigureDues}
	}
	return nil
}

// each calls write for [i, j) slices of n items of at most size (all of
// them when size is 0), and once with an empty one when n is 0, so that
// the state is written.
func each(n, size int, write func(i, j int, last bool) error) error {
	if n == 0 {
		return write(0, 0, true)
	}
	if size <= 0 {
		size = n
	}
	for i := 0; i < n; i += size {
		j := min(i+size, n)
		if err := write(i, j, j == n); err != nil {
			return err
		}
	}
	return nil
}

// eachOrders batches orders by their lines, at most size lines a batch
// (all when size is 0), never splitting an order: one larger than size
// goes alone.
func eachOrders(orders []domain.Order, size int, write func([]domain.Order, bool) error) error {
	if len(orders) == 0 || size <= 0 {
		return write(orders, true)
	}
	start, lines := 0, 0
	for i, o := range orders {
		if lines > 0 && lines+len(o.Lines) > size {
			if err := write(orders[start:i], false); err != nil {
				return err
			}
			start, lines = i, 0
		}
		lines += len(o.Lines)
	}
	return write(orders[start:], true)
}
