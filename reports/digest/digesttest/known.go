// Package digesttest writes small books whose digest is worked out by
// hand, for the digest's own tests and the store conformance suite. It
// writes through the store's interface, never SQL. It is for tests only.
package digesttest

import (
	"context"
	"fmt"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/orders"
	"github.com/munshi/munshi/reports/reportstest"
)

// Kolkata is the zone of the known books (+05:30 all year).
var Kolkata = time.FixedZone("IST", 5*3600+1800)

// D is the known books' digest date: Tuesday 3 March 2026, in Kolkata. Its
// thirteen Tuesdays before reach back to 2 December 2025, across three
// month ends and a year end.
var D = time.Date(2026, 3, 3, 0, 0, 0, 0, Kolkata)

// At is D shifted by days, at that local time of day.
func At(days, hour, minute int) time.Time {
	return D.AddDate(0, 0, days).Add(time.Duration(hour)*time.Hour + time.Duration(minute)*time.Minute)
}

// Products of the known books. BASE sells at ₹1 a unit, so an order's
// amount in rupees is its quantity; the others are stock cases.
var Products = []domain.Product{
	{SKU: "BASE", Name: "Base Goods", Unit: "piece", Price: 100, GSTPercent: 1800, StockReady: 1_000_000_000},
	{SKU: "LOW", Name: "Low Cover Soap", Unit: "bar", PackSizes: []domain.PackSize{{Name: "dozen", Units: 12}}, Price: 500, GSTPercent: 1800, StockReady: 50, StockWIP: 120},
	{SKU: "OUT", Name: "Out Of Stock Mop", Unit: "piece", Price: 1500, GSTPercent: 1800, StockWIP: 500},
	{SKU: "HELD", Name: "Held Broom", Unit: "piece", Price: 1000, GSTPercent: 1800, StockReady: 100},
	{SKU: "FINE", Name: "Plenty Phenyl", Unit: "bottle", Price: 6500, GSTPercent: 1800, StockReady: 100_000},
}

// Customers of the known books, by what they show.
var Customers = []domain.Customer{
	{ID: "NAV", Name: "Naveen Traders", Segment: "retailer"},                                               // no_order by habit: every 4 days, none for 20
	{ID: "CHA", Name: "Chand Hotel", Segment: "horeca"},                                                    // no_order by cadence: 2 orders, none for 10 (horeca: 7)
	{ID: "SUR", Name: "Surya Stores", Segment: "kirana"},                                                   // surge on D, paid ₹3,000 on D
	{ID: "DEE", Name: "Deepak Agency", Segment: "dealer"},                                                  // drop
	{ID: "OLD", Name: "Old Bills Co", Segment: "wholesale", CreditLimit: 50000000, Outstanding: 2360000},   // bill 70 days old
	{ID: "RAV", Name: "Ravi Wholesale", Segment: "wholesale", CreditLimit: 10000000, Outstanding: 9500000}, // 95% of the limit, paid ₹5,000 on D
	{ID: "SAF", Name: "Safe Supermart", Segment: "supermarket", CreditLimit: 10000000, Outstanding: 5000000},
	{ID: "TAR", Name: "Tara Kirana", Segment: "kirana"}, // D's orders at 00:15 and 23:30
	{ID: "LAT", Name: "Late Co", Segment: "dealer"},     // an order committed 5 days before D, undelivered
}

// DraftID is the draft waiting for an owner's approval.
const DraftID = "ORD-2000"

// Known writes the books:
//
//	NAV  BASE ₹2,000 on D−40, −36, −32, −28, −24, −20 (delivered)
//	CHA  BASE ₹1,500 on D−50, D−10
//	SUR  BASE ₹1,000 on D−7k for k = 1…12 (Tuesdays); ₹5,000 on D at 10:00
//	DEE  BASE ₹9,000 on D−90, −83, … −34 (nine Wednesdays); on D−3 LOW 280 (₹1,400) + BASE 600
//	OLD  BASE ₹20,000 on credit on D−70 (a Tuesday; total ₹23,600)
//	SAF  BASE ₹50,000 on credit on D−10 (total ₹59,000)
//	TAR  BASE ₹1,500 on D at 00:15 and ₹2,500 at 23:30; ₹9,999 cancelled on D;
//	     ₹7,777 on D+1 at 00:30
//	LAT  HELD 100 (₹1,000), committed on D−5, not delivered
//	payments: SUR ₹3,000 on D 11:00, RAV ₹5,000 on D 23:30, RAV ₹700 on
//	D−1 and ₹800 on D+1 00:10
//	draft ORD-2000 for SAF, FINE 24 (₹1,560 + GST = ₹1,840.80), waiting
//	for approval
func Known(ctx context.Context, b reportstest.Books) error {
	if err := b.UpsertProducts(ctx, Products); err != nil {
		return err
	}
	if err := b.UpsertCustomers(ctx, Customers); err != nil {
		return err
	}
	var os []domain.Order
	add := func(cust string, at time.Time, status domain.OrderStatus, pay domain.PaymentMode, lines ...domain.OrderLine) {
		o := domain.Order{ID: fmt.Sprintf("T-%03d", len(os)+1), CustomerID: cust, Status: status, Payment: pay,
			CreatedAt: at, CommittedAt: at}
		if status == domain.OrderDelivered {
			o.DeliveredAt = at.Add(24 * time.Hour)
		}
		for _, l := range lines {
			l = domain.PriceLine(l)
			o.Lines = append(o.Lines, l)
			o.Subtotal += l.Amount
			o.GST += l.GSTAmount
		}
		o.Total = o.Subtotal + o.GST
		os = append(os, o)
	}
	base := func(rupees int64) domain.OrderLine {
		return domain.OrderLine{SKU: "BASE", Qty: rupees, SaidQty: rupees, SaidUnit: "piece", Price: 100, GSTRate: 1800}
	}
	const done, cod, credit = domain.OrderDelivered, domain.PayCOD, domain.PayCredit
	for _, k := range []int{40, 36, 32, 28, 24, 20} {
		add("NAV", At(-k, 11, 0), done, cod, base(2000))
	}
	add("CHA", At(-50, 12, 0), done, cod, base(1500))
	add("CHA", At(-10, 12, 0), done, cod, base(1500))
	for k := 12; k >= 1; k-- {
		add("SUR", At(-7*k, 10, 0), done, cod, base(1000))
	}
	add("SUR", At(0, 10, 0), done, cod, base(5000))
	for k := 90; k >= 34; k -= 7 {
		add("DEE", At(-k, 15, 0), done, cod, base(9000))
	}
	add("DEE", At(-3, 15, 0), done, cod, domain.OrderLine{SKU: "LOW", Qty: 280, Price: 500, GSTRate: 1800}, base(600))
	add("OLD", At(-70, 9, 0), done, credit, base(20000))
	add("SAF", At(-10, 16, 0), done, credit, base(50000))
	add("TAR", At(0, 0, 15), done, cod, base(1500))
	add("TAR", At(0, 23, 30), domain.OrderCommitted, cod, base(2500))
	add("TAR", At(0, 12, 0), domain.OrderCancelled, cod, base(9999))
	add("TAR", At(1, 0, 30), domain.OrderCommitted, cod, base(7777))
	add("LAT", At(-5, 10, 0), domain.OrderCommitted, cod, domain.OrderLine{SKU: "HELD", Qty: 100, Price: 1000, GSTRate: 1800})
	pays := []domain.Payment{
		{CustomerID: "SUR", Amount: 300000, Mode: domain.PayUPI, ReceivedAt: At(0, 11, 0), Reference: "UPI-1"},
		{CustomerID: "RAV", Amount: 500000, Mode: domain.PayCheque, ReceivedAt: At(0, 23, 30), Reference: "CHQ-1"},
		{CustomerID: "RAV", Amount: 70000, Mode: domain.PayCheque, ReceivedAt: At(-1, 18, 0), Reference: "CHQ-0"},
		{CustomerID: "RAV", Amount: 80000, Mode: domain.PayCheque, ReceivedAt: At(1, 0, 10), Reference: "CHQ-2"},
	}
	if err := b.AddHistory(ctx, os, pays); err != nil {
		return err
	}
	line := domain.PriceLine(domain.OrderLine{SKU: "FINE", Qty: 24, SaidQty: 24, SaidUnit: "bottle", Price: 6500, GSTRate: 1800})
	d := orders.Draft{ID: DraftID, PlacedBy: "+919900000003", Customer: Customers[6], Payment: domain.PayCredit,
		Lines: []domain.OrderLine{line}, Subtotal: line.Amount, GST: line.GSTAmount, Total: line.Amount + line.GSTAmount,
		Status: orders.DraftPendingApproval, CreatedAt: At(0, 18, 0)}
	return b.SaveDraft(ctx, d)
}
