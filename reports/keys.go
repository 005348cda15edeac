package reports

import (
	"context"
	"slices"

	"github.com/munshi/munshi/intent"

	"github.com/munshi/munshi/internal/domain"
)

// Keys are the customers, products and key rows an answer put in play, for
// conversation memory: after "who bought GC last week?", "their
// outstanding" means those buyers.
type Keys struct {
	Customers []string // ids
	Products  []string // SKUs
	Rows      []string // short lines of the first rows
	// More is where MORE continues after this answer: nil when the answer
	// says nothing of it (the place before stays), an empty Place when it
	// showed every row, else the next page's place.
	More *Place
}

// maxKeys bounds what one answer puts in play.
const maxKeys = 8

// KeysOf reads what a result shows. A refused or failed result has none.
func KeysOf(res Result) Keys {
	var k Keys
	add := func(list *[]string, id string) {
		if id != "" && len(*list) < maxKeys {
			*list = append(*list, id)
		}
	}
	switch r := res.Report.(type) {
	case *StockCheck:
		for _, l := range r.Lines {
			add(&k.Products, l.SKU)
		}
	case *CatalogStock:
		for _, l := range r.Lines {
			add(&k.Products, l.SKU)
		}
	case *OutOfStock:
		for _, l := range r.Lines {
			add(&k.Products, l.SKU)
		}
	case *Dues:
		for _, d := range r.Customers {
			add(&k.Customers, d.CustomerID)
			add(&k.Rows, d.Name+": "+domain.Dues(d.Outstanding))
		}
	case *PendingOrders:
		for _, o := range r.Orders {
			add(&k.Customers, o.CustomerID)
			add(&k.Rows, o.ID+" "+o.CustomerName+": "+o.Total.String())
		}
	case *OrderStatus:
		for _, o := range r.Orders {
			add(&k.Customers, o.CustomerID)
			_, words := stateWords(o.State, o.Imported)
			add(&k.Rows, o.ID+" "+o.CustomerName+": "+words)
		}
	case *PaymentsReceived:
		for _, c := range r.Customers {
			add(&k.Customers, c.ID)
		}
		for _, l := range r.Lines {
			if !slices.Contains(k.Customers, l.CustomerID) { // one customer's payments name them once
				add(&k.Customers, l.CustomerID)
			}
			label := l.Label
			if r.By == PaymentsByMode {
				label = modeName(l.Mode)
			}
			add(&k.Rows, rowText(label)+": "+l.Amount.String())
		}
	case *Sales:
		if r.Product != nil {
			add(&k.Products, r.Product.ID)
		}
		for _, c := range r.Customers {
			add(&k.Customers, c.ID)
		}
		for _, l := range r.Lines {
			switch r.By {
			case ByCustomer:
				add(&k.Customers, l.Key)
			case ByProduct:
				add(&k.Products, l.Key)
			}
			add(&k.Rows, l.Label+": "+l.Amount.String())
		}
	}
	return k
}

// ReplyKeys runs a call for a person and makes the WhatsApp reply, also
// telling what the answer put in play and where MORE continues. It keeps
// nothing itself: the caller remembers the keys.
func (t *Tools) ReplyKeys(ctx context.Context, user domain.User, call Call) (domain.Reply, Keys) {
	if t.Files != nil && (call.Format == intent.FormatChart || call.Format == intent.FormatExcel) {
		return t.fileReply(ctx, user, call)
	}
	res, err := t.Call(ctx, user, call.Tool, call.Args)
	more := t.place(res)
	if err != nil {
		return domain.Reply{Text: ErrorText(res, err)}, Keys{More: more}
	}
	keys := KeysOf(res)
	keys.More = more
	return domain.Reply{Text: res.Text}, keys
}
