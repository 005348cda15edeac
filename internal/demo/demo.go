package demo

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/domain"
)

var (
	//go:embed data/catalog.csv
	CatalogCSV []byte
	//go:embed data/customers.csv
	CustomersCSV []byte
	//go:embed data/users.csv
	UsersCSV []byte
)

// HistoryDays is how far back the generated sales history reaches.
const HistoryDays = 120

// Demo users, one of each role (and a second salesperson).
const (
	OwnerPhone    = "+919900000001"
	AccountsPhone = "+919900000002"
	SalesPhone    = "+919900000003"
)

// Books is what the demo writes to.
type Books interface {
	IsEmpty(ctx context.Context) (bool, error)
	UpsertProducts(ctx context.Context, ps []domain.Product) error
	UpsertCustomers(ctx context.Context, cs []domain.Customer) error
	UpsertUsers(ctx context.Context, us []domain.User) error
	AddHistory(ctx context.Context, orders []domain.Order, payments []domain.Payment) error
}

// Data returns the demo catalog, customers and users.
func Data() ([]domain.Product, []domain.Customer, []domain.User, error) {
	products, err := csvimport.ReadCatalog(bytes.NewReader(CatalogCSV))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("demo: %w", err)
	}
	customers, err := csvimport.ReadCustomers(bytes.NewReader(CustomersCSV))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("demo: %w", err)
	}
	users, err := csvimport.ReadUsers(bytes.NewReader(UsersCSV))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("demo: %w", err)
	}
	return products, customers, users, nil
}

// Seed fills an empty database with the demo distributor and its history up
// to now. A database that already has data is left alone (seeded is false).
func Seed(ctx context.Context, b Books, now time.Time) (seeded bool, err error) {
	empty, err := b.IsEmpty(ctx)
	if err != nil || !empty {
		return false, err
	}
	products, customers, users, err := Data()
	if err != nil {
		return false, err
	}
	if err := b.UpsertProducts(ctx, products); err != nil {
		return false, fmt.Errorf("demo: %w", err)
	}
	if err := b.UpsertCustomers(ctx, customers); err != nil {
		return false, fmt.Errorf("demo: %w", err)
	}
	if err := b.UpsertUsers(ctx, users); err != nil {
		return false, fmt.Errorf("demo: %w", err)
	}
	orders, payments := History(products, customers, users, now)
	if err := b.AddHistory(ctx, orders, payments); err != nil {
		return false, fmt.Errorf("demo: %w", err)
	}
	return true, nil
}

// History generates HistoryDays of orders and payments ending at now. It is
// deterministic for a given now, so tests know what to expect. Orders older
// than three days are delivered; the recent ones are committed and waiting,
// small enough that the demo stock covers them. Sundays are quiet, not
// closed.
//
// Around yesterday (in Kolkata) the history tells a story, so that the
// daily digest has something of each kind to say (see story): a wholesaler
// who stopped ordering, an institution whose orders dropped, a supermarket
// that placed a large order yesterday, a payment received yesterday, a
// product running out, and an order undelivered for days; the customers'
// dues in data/customers.csv make the credit risks.
func History(products []domain.Product, customers []domain.Customer, users []domain.User, now time.Time) ([]domain.Order, []domain.Payment) {
	rng := rand.New(rand.NewPCG(2026, 7))
	var sales []string
	for _, u := range users {
		if u.Role == domain.RoleSales {
			sales = append(sales, u.Phone)
		}
	}
	byID := map[string]domain.Customer{}
	var regulars []domain.Customer
	for _, c := range customers {
		byID[c.ID] = c
		if !storyCustomers[c.ID] {
			regulars = append(regulars, c)
		}
	}
	catalog := map[string]domain.Product{}
	var stocked, recentStock []domain.Product
	for _, p := range products {
		catalog[p.SKU] = p
		if p.StockReady > 0 {
			stocked = append(stocked, p)
			if p.SKU != storyShortSKU {
				recentStock = append(recentStock, p)
			}
		}
	}
	yesterday := kolkataDay(now).AddDate(0, 0, -1)
	var orders []domain.Order
	var payments []domain.Payment
	start := now.UTC().Truncate(24*time.Hour).AddDate(0, 0, -HistoryDays)
	seq := 1000
	newOrder := func(c domain.Customer, at time.Time, status domain.OrderStatus) domain.Order {
		seq++
		o := domain.Order{ID: fmt.Sprintf("ORD-%d", seq), CustomerID: c.ID, PlacedBy: sales[rng.IntN(len(sales))],
			Payment: c.PaymentModes[0], Status: status, CreatedAt: at, CommittedAt: at.Add(10 * time.Minute)}
		if status == domain.OrderDelivered {
			o.DeliveredAt = at.Add(time.Duration(20+rng.IntN(30)) * time.Hour)
		}
		return o
	}
	for day := 0; day <= HistoryDays; day++ {
		date := start.AddDate(0, 0, day)
		recent := now.Sub(date) < 3*24*time.Hour
		n := 2 + rng.IntN(4)
		switch {
		case recent:
			n = 1 + rng.IntN(2)
		case date.Weekday() == time.Sunday:
			n = rng.IntN(2)
		}
		for i := 0; i < n; i++ {
			c := regulars[rng.IntN(len(regulars))]
			at := date.Add(time.Duration(4+rng.IntN(9))*time.Hour + time.Duration(rng.IntN(60))*time.Minute)
			if at.After(now) {
				continue
			}
			status := domain.OrderDelivered
			if recent {
				status = domain.OrderCommitted
			}
			o := newOrder(c, at, status)
			o.Payment = c.PaymentModes[rng.IntN(len(c.PaymentModes))]
			pool := stocked
			if recent {
				pool = recentStock
			}
			lines := 1 + rng.IntN(4)
			used := map[string]bool{}
			for j := 0; j < lines; j++ {
				p := pool[rng.IntN(len(pool))]
				if used[p.SKU] {
					continue
				}
				used[p.SKU] = true
				l := domain.OrderLine{SKU: p.SKU, Price: p.Price, GSTRate: p.GSTPercent}
				if len(p.PackSizes) > 0 {
					pack := p.PackSizes[0]
					l.SaidQty, l.SaidUnit = int64(1+rng.IntN(5)), pack.Name
					if recent {
						l.SaidQty = 1
					}
					l.Qty = l.SaidQty * pack.Units
				} else {
					l.SaidQty, l.SaidUnit = int64(10+rng.IntN(50)), p.Unit
					l.Qty = l.SaidQty
				}
				addLine(&o, l)
			}
			orders = append(orders, o)
			// Most bills are paid within a fortnight, by the order's own mode
			// where that is a way of paying (credit is paid by cheque or bank).
			if !recent && rng.IntN(10) < 8 {
				paidAt := at.Add(time.Duration(1+rng.IntN(14)) * 24 * time.Hour)
				if paidAt.Before(now) {
					mode := o.Payment
					if mode == domain.PayCredit {
						mode = domain.PayCheque
					}
					payments = append(payments, domain.Payment{CustomerID: c.ID, Amount: o.Total, Mode: mode,
						ReceivedAt: paidAt, Reference: "against " + o.ID})
				}
			}
		}
		// The story's orders of this date, k days before yesterday.
		k := daysBefore(date, yesterday)
		for _, so := range story(k) {
			at := time.Date(date.Year(), date.Month(), date.Day(), 0, 0, 0, 0, time.UTC).Add(so.at)
			if at.After(now) {
				continue
			}
			status := domain.OrderDelivered
			if recent || so.undelivered {
				status = domain.OrderCommitted
			}
			o := newOrder(byID[so.customer], at, status)
			for _, it := range so.items {
				p := catalog[it.sku]
				pack := p.PackSizes[0]
				addLine(&o, domain.OrderLine{SKU: p.SKU, SaidQty: it.packs, SaidUnit: pack.Name, Qty: it.packs * pack.Units,
					Price: p.Price, GSTRate: p.GSTPercent})
			}
			orders = append(orders, o)
		}
		if k == 0 {
			payments = append(payments, domain.Payment{CustomerID: "C01", Amount: 1500000, Mode: domain.PayUPI,
				ReceivedAt: time.Date(date.Year(), date.Month(), date.Day(), 6, 0, 0, 0, time.UTC), Reference: "UPI settlement"})
		}
	}
	return orders, payments
}

func addLine(o *domain.Order, l domain.OrderLine) {
	l = domain.PriceLine(l)
	o.Lines = append(o.Lines, l)
	o.Subtotal += l.Amount
	o.GST += l.GSTAmount
	o.Total = o.Subtotal + o.GST
}

// The story's customers order only as the story says: C04 Gupta
// Supermart, C06 City Hospital, C09 Gupta Brothers.
var storyCustomers = map[string]bool{"C04": true, "C06": true, "C09": true}

// storyShortSKU is the product the story runs short: yesterday's large
// order holds most of the mops in the godown.
const storyShortSKU = "MP01"

type storyItem struct {
	sku   string
	packs int64 // of the product's first pack size
}

type storyOrder struct {
	customer    string
	at          time.Duration // after midnight UTC: 05:30 is 11:00 in Kolkata
	items       []storyItem
	undelivered bool
}

// story returns the orders placed k days before yesterday (0: yesterday):
//
//   - C09 Gupta Brothers orders every 5 days, until 24 days ago: no_order;
//   - C06 City Hospital orders weekly until 4 weeks ago, then once, small:
//     drop;
//   - C04 Gupta Supermart orders about ₹6,000 weekly, and ₹41,400
//     yesterday (252 mops of the 300 in the godown): surge, and the mops
//     run short;
//   - C05 Hotel Shivam's order of 4 days ago is still undelivered.
func story(k int) []storyOrder {
	var out []storyOrder
	switch {
	case k >= 24 && k <= 90 && k%5 == 4:
		out = append(out, storyOrder{customer: "C09", at: 6 * time.Hour, items: []storyItem{{"GB30", 2}, {"BR01", 2}}})
	}
	switch {
	case k >= 28 && k <= 90 && k%7 == 0:
		out = append(out, storyOrder{customer: "C06", at: 5 * time.Hour, items: []storyItem{{"PH1L", 4}, {"FC1L", 5}, {"HW200", 1}}})
	case k == 10:
		out = append(out, storyOrder{customer: "C06", at: 5 * time.Hour, items: []storyItem{{"HW200", 1}}})
	}
	switch {
	case k == 0:
		out = append(out, storyOrder{customer: "C04", at: 5*time.Hour + 30*time.Minute, items: []storyItem{{"MP01", 21}, {"SP75", 1}}})
	case k >= 1 && k <= 90 && k%7 == 3:
		out = append(out, storyOrder{customer: "C04", at: 7 * time.Hour, items: []storyItem{{"DW500", 1}, {"SP75", 1}}})
	}
	if k == 4 {
		out = append(out, storyOrder{customer: "C05", at: 8 * time.Hour, items: []storyItem{{"GC500", 1}}, undelivered: true})
	}
	return out
}

// kolkataDay is the midnight UTC of now's date in Kolkata (+05:30): the
// story counts Kolkata's days.
func kolkataDay(now time.Time) time.Time {
	t := now.UTC().Add(5*time.Hour + 30*time.Minute)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// daysBefore counts calendar days from date to day (date's UTC date).
func daysBefore(date, day time.Time) int {
	d := time.Date(date.Year(), date.Month(), date.Day(), 0, 0, 0, 0, time.UTC)
	return int(day.Sub(d).Hours() / 24)
}
