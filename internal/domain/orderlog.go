package domain

import "time"

// EffectSheets is the kind of effect that writes an order to the office's
// order log (the Orders tab of the Google Sheet).
const EffectSheets = "sheets"

// LoggedOrder is an order as the order log keeps it, one row per line:
// written whole each time the order changes (placed, delivered, delivered
// short, cancelled), so that a write carries everything its rows show and
// a repeated or late write can be told from a newer one by its Status.
type LoggedOrder struct {
	ID           string
	CustomerID   string
	CustomerName string
	PlacedBy     string // the phone of whoever placed it
	Payment      PaymentMode
	Status       OrderStatus
	PlacedAt     time.Time // when it was committed
	ChangedAt    time.Time // when it came to stand as it does here
	Subtotal     Paise
	GST          Paise
	Total        Paise
	Lines        []LoggedLine
}

// LoggedLine is one line of a logged order.
type LoggedLine struct {
	SKU, Product, Unit string // the product's name and base unit when written
	Qty                int64  // base units ordered
	SaidQty            int64  // as the person said it ("5 carton")
	SaidUnit           string
	Short              int64 // base units not delivered, once delivered
	Price              Paise // per base unit
	GSTRate            GSTRate
	Amount, GSTAmount  Paise
}

// LogOrder is the order o as the log keeps it: the customer's name and
// each product (by SKU) as they are in the books when it changes, at the
// time it changed.
func LogOrder(o Order, customerName string, products map[string]Product, at time.Time) LoggedOrder {
	l := LoggedOrder{ID: o.ID, CustomerID: o.CustomerID, CustomerName: customerName, PlacedBy: o.PlacedBy,
		Payment: o.Payment, Status: o.Status, PlacedAt: o.CommittedAt, ChangedAt: at,
		Subtotal: o.Subtotal, GST: o.GST, Total: o.Total}
	for _, ln := range o.Lines {
		p := products[ln.SKU]
		l.Lines = append(l.Lines, LoggedLine{SKU: ln.SKU, Product: p.Name, Unit: p.Unit, Qty: ln.Qty,
			SaidQty: ln.SaidQty, SaidUnit: ln.SaidUnit, Short: ln.Short, Price: ln.Price, GSTRate: ln.GSTRate,
			Amount: ln.Amount, GSTAmount: ln.GSTAmount})
	}
	return l
}

// OrderLogged is the effect that writes the order to the order log.
func OrderLogged(l LoggedOrder) Effect {
	return Effect{Kind: EffectSheets, To: "Orders", Payload: mustJSON(l), About: l.ID}
}
