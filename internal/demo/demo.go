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
// small enough that the demo stock covers them.
func History(products []domain.Product, customers []domain.Customer, users []domain.User, now time.Time) ([]domain.Order, []domain.Payment) {
	rng := rand.New(rand.NewPCG(2026, 7))
	var sales []string
	for _, u := range users {
		if u.Role == domain.RoleSales {
			sales = append(sales, u.Phone)
		}
	}
	var stocked []domain.Product
	for _, p := range products {
		if p.StockReady > 0 {
			stocked = append(stocked, p)
		}
	}
	var orders []domain.Order
	var payments []domain.Payment
	start := now.UTC().Truncate(24*time.Hour).AddDate(0, 0, -HistoryDays)
	seq := 1000
	for day := 0; day < HistoryDays; day++ {
		date := start.AddDate(0, 0, day)
		if date.Weekday() == time.Sunday {
			continue
		}
		recent := now.Sub(date) < 3*24*time.Hour
		n := 2 + rng.IntN(4)
		if recent {
			n = 1 + rng.IntN(2)
		}
		for i := 0; i < n; i++ {
			c := customers[rng.IntN(len(customers))]
			at := date.Add(time.Duration(4+rng.IntN(9))*time.Hour + time.Duration(rng.IntN(60))*time.Minute)
			if at.After(now) {
				continue
			}
			seq++
			o := domain.Order{
				ID:         fmt.Sprintf("ORD-%d", seq),
				CustomerID: c.ID,
				PlacedBy:   sales[rng.IntN(len(sales))],
				Payment:    c.PaymentModes[rng.IntN(len(c.PaymentModes))],
				Status:     domain.OrderDelivered,
				CreatedAt:  at,
			}
			o.CommittedAt = at.Add(10 * time.Minute)
			if recent {
				o.Status = domain.OrderCommitted
			} else {
				o.DeliveredAt = at.Add(time.Duration(20+rng.IntN(30)) * time.Hour)
			}
			lines := 1 + rng.IntN(4)
			used := map[string]bool{}
			for j := 0; j < lines; j++ {
				p := stocked[rng.IntN(len(stocked))]
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
				l = domain.PriceLine(l)
				o.Lines = append(o.Lines, l)
				o.Subtotal += l.Amount
				o.GST += l.GSTAmount
			}
			o.Total = o.Subtotal + o.GST
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
	}
	return orders, payments
}
