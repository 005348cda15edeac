package main

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/orders"
)

// liveRouter is the router in use; reload replaces it when `munshi import`
// changes the catalog or the customers under a running server.
type liveRouter struct{ current atomic.Pointer[intent.Router] }

func (l *liveRouter) Route(ctx context.Context, text string) intent.Decision {
	return l.current.Load().Route(ctx, text)
}

func (l *liveRouter) Normalize(text string) intent.Normalized {
	return l.current.Load().Normalize(text)
}

// watchCatalog reloads the vocabulary every interval when the books say it
// changed, until ctx ends.
func (m *Main) watchCatalog(ctx context.Context, interval time.Duration) {
	seen, err := m.Store.CatalogVersion(ctx)
	if err != nil {
		m.Logger.Warn("catalog version unreadable", "err", err)
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		v, err := m.Store.CatalogVersion(ctx)
		if err != nil || v == seen {
			continue
		}
		if err := m.reloadCatalog(ctx); err != nil {
			m.Logger.Error("catalog reload failed; keeping the previous one", "err", err)
			continue
		}
		seen = v
		m.Logger.Info("catalog or customers changed: reloaded")
	}
}

// reloadCatalog rebuilds the router and the order parser from the books.
func (m *Main) reloadCatalog(ctx context.Context) error {
	v, err := vocabulary(ctx, m.Store)
	if err != nil {
		return err
	}
	r, err := newRouter(v, m.LLM)
	if err != nil {
		return err
	}
	m.Router.current.Store(r)
	m.Orders.UseParser(orders.NewParser(m.Router, v.Products, v.Customers))
	return nil
}
