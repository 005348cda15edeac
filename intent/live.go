package intent

import (
	"context"
	"sync/atomic"
)

// Live is the router in use while Munshi serves. Swap replaces it when an
// import changes the catalog or the customers; a message routed at that
// moment is read wholly by the old router or wholly by the new one.
type Live struct{ current atomic.Pointer[Router] }

// NewLive returns a Live routing with r.
func NewLive(r *Router) *Live {
	l := &Live{}
	l.current.Store(r)
	return l
}

// Swap makes r the router for the messages that follow.
func (l *Live) Swap(r *Router) { l.current.Store(r) }

// Route routes text with the router in use.
func (l *Live) Route(ctx context.Context, text string) Decision {
	return l.current.Load().Route(ctx, text)
}

// Hear is the Router's Hear with the router in use.
func (l *Live) Hear(text string) Normalized {
	return l.current.Load().Hear(text)
}

// Normalize reads text with the vocabulary of the router in use.
func (l *Live) Normalize(text string) Normalized {
	return l.current.Load().Normalize(text)
}

// Variant is the Router's Variant with the router in use.
func (l *Live) Variant(sku string, said []string) (string, bool) {
	return l.current.Load().Variant(sku, said)
}

// CustomerAmong is the Router's CustomerAmong with the router in use.
func (l *Live) CustomerAmong(ids, said []string) (string, bool) {
	return l.current.Load().CustomerAmong(ids, said)
}
