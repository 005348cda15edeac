package main

import (
	"context"
	"sync/atomic"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/gemini"
	"github.com/munshi/munshi/internal/store"
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

// catalogWatch reloads the vocabulary when the books say it changed: its
// first check notes the version, each later one compares.
type catalogWatch struct {
	m       *Main
	seen    string
	started bool
}

func (w *catalogWatch) check(ctx context.Context) {
	m := w.m
	v, err := m.Store.CatalogVersion(ctx)
	if !w.started {
		w.started, w.seen = true, v
		if err != nil {
			m.Logger.Warn("catalog version unreadable", "err", err)
		}
		return
	}
	if err != nil || v == w.seen {
		return
	}
	if err := m.reloadCatalog(ctx); err != nil {
		m.Logger.Error("catalog reload failed; keeping the previous one", "err", err)
		return
	}
	w.seen = v
	m.Logger.Info("catalog or customers changed: reloaded")
}

// reloadCatalog rebuilds the router and the order parser from the books.
// The parser is swapped in first: an import only adds and updates, so the
// new parser knows every name the old router still finds for the moment
// between the two.
func (m *Main) reloadCatalog(ctx context.Context) error {
	r, p, err := m.compileCatalog(ctx)
	if err != nil {
		return err
	}
	m.Orders.UseParser(p)
	m.Router.current.Store(r)
	return nil
}

// compileCatalog reads the catalog and the customers and builds a router
// and an order parser for them. The parser is built while the router
// compiles its vocabulary: it asks m.Router to read messages only later.
func (m *Main) compileCatalog(ctx context.Context) (*intent.Router, *orders.Parser, error) {
	v, err := vocabulary(ctx, m.Store)
	if err != nil {
		return nil, nil, err
	}
	parsed := make(chan *orders.Parser, 1)
	go func() { parsed <- orders.NewParser(m.Router, v.Products, v.Customers) }()
	r, err := newRouter(v, m.LLM)
	p := <-parsed
	if err != nil {
		return nil, nil, err
	}
	return r, p, nil
}

// vocabulary reads the catalog and the customers the router and the order
// parser recognise in messages.
func vocabulary(ctx context.Context, books store.Catalog) (intent.Vocabulary, error) {
	products, err := books.Products(ctx)
	if err != nil {
		return intent.Vocabulary{}, err
	}
	customers, err := books.Customers(ctx)
	if err != nil {
		return intent.Vocabulary{}, err
	}
	return intent.Vocabulary{Products: products, Customers: customers}, nil
}

// newRouter trains the intent router on a vocabulary, with the LLM tier
// when there is one.
func newRouter(v intent.Vocabulary, llm *gemini.Client) (*intent.Router, error) {
	var opts intent.Options
	if llm != nil {
		opts.LLM = llm
	}
	return intent.NewRouter(v, opts)
}
