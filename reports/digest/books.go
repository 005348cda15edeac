package digest

import (
	"context"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports/excel"
)

// Books is the read-only part of the books the digest needs. Every method
// sums in the database and returns at most one row per customer, product
// or order it names; orders count when committed or delivered, whatever
// their source (the chat, imported history, the demo).
type Books interface {
	// CustomerDays sums the orders created in each span, by customer: one
	// row per (span, customer) with orders, Span the index into spans.
	CustomerDays(ctx context.Context, spans []Span) ([]CustomerDay, error)
	// Standings returns every customer with their dues and credit limit,
	// the time of their last order created before before (zero if none),
	// and, for those who owe, their oldest unpaid bill (reports.Due's
	// first-in-first-out reading).
	Standings(ctx context.Context, before time.Time) ([]Standing, error)
	// PaymentsIn sums the payments received in a span, by customer.
	PaymentsIn(ctx context.Context, s Span) ([]PaymentSum, error)
	// StockAtRisk returns the products with nothing available (ready minus
	// committed at or below zero) and those whose available stock covers
	// fewer than minDays days at their average daily sales over sold (the
	// base units sold in that span, divided by its days), most sold first.
	StockAtRisk(ctx context.Context, sold Span, days, minDays int) ([]StockItem, error)
	// Waiting returns the drafts waiting for an owner's approval and the
	// committed orders created before lateBefore and not yet delivered
	// (imported history is not work waiting), each oldest first, with at
	// most limit of each listed and all of them counted.
	Waiting(ctx context.Context, lateBefore time.Time, limit int) (Waiting, error)
	// DaySaleLines returns every order line of the orders created in a span,
	// by time and order.
	DaySaleLines(ctx context.Context, s Span) ([]SaleLine, error)
}

// Span is [From, To): a local day, or any stretch of time.
type Span struct {
	From, To time.Time
}

// CustomerDay is one customer's orders in one span.
type CustomerDay struct {
	Span       int // index into the spans asked for
	CustomerID string
	Orders     int
	Amount     domain.Paise // before GST
	GST        domain.Paise
	Largest    domain.Paise // the largest single order, before GST
}

// Standing is one customer as the digest judges them.
type Standing struct {
	CustomerID  string
	Name        string
	Segment     string
	CreditLimit domain.Paise
	Outstanding domain.Paise
	LastOrder   time.Time // zero: no order before the date
	// OldestBill is the oldest unpaid bill and OldestAt its date; empty
	// when nothing is owed or no credit order covers the due.
	OldestBill string
	OldestAt   time.Time
}

// PaymentSum is what one customer paid in a span.
type PaymentSum struct {
	CustomerID string
	Payments   int
	Amount     domain.Paise
}

// StockItem is a product out of stock or running out.
type StockItem struct {
	SKU       string
	Name      string
	Unit      string
	Packs     []domain.PackSize
	Ready     int64 // base units
	Committed int64
	WIP       int64
	Sold      int64 // base units sold in the span asked for
}

// Available is what can still be promised: ready minus committed.
func (s StockItem) Available() int64 { return s.Ready - s.Committed }

// OpenItem is a draft or an order that waits.
type OpenItem struct {
	ID         string
	CustomerID string
	Customer   string
	Total      domain.Paise // with GST
	CreatedAt  time.Time
}

// Waiting is what waits on the owners and on delivery.
type Waiting struct {
	Drafts     []OpenItem // oldest first, at most the limit asked for
	DraftCount int
	DraftValue domain.Paise
	Late       []OpenItem // committed orders past the cut-off, oldest first
	LateCount  int
	LateValue  domain.Paise
}

// SaleLine is one order line of a day's sales, as the Excel file lists it.
type SaleLine = excel.SaleLine
