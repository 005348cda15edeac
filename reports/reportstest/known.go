package reportstest

import (
	"context"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/orders"
)

// Books is what Known and digesttest.Known write to; every store.Store is
// one.
type Books interface {
	UpsertProducts(ctx context.Context, ps []domain.Product) error
	UpsertCustomers(ctx context.Context, cs []domain.Customer) error
	UpsertUsers(ctx context.Context, us []domain.User) error
	AddHistory(ctx context.Context, orders []domain.Order, payments []domain.Payment) error
	SaveDraft(ctx context.Context, d orders.Draft) error
}

// The people of the known books.
const (
	KnownOwner    = "+919900000001"
	KnownAccounts = "+919900000002"
	KnownSales    = "+919900000003" // placed ORD-1004 and the draft ORD-1008
	KnownSales2   = "+919900000004" // placed the rest
)

// Known writes a small set of books whose answers are worked out by hand,
// at Now (14 March 2026, 09:30 in Kolkata):
//
// Products (ready, in production; committed to open orders):
//
//	GC500 Glass Cleaner 500ml  ₹92/bottle, carton=24|box=6: ready 2,400, WIP 480; committed 96 → available 2,304
//	PH1L  Phenyl 1L            ₹65/bottle, carton=12|pack=6: ready 1,800, WIP 600; committed 240 → available 1,560
//	NB100 Naphthalene Balls    ₹30/pack, carton=100:         ready 0, WIP 1,000 → out of stock
//	BR01  Floor Broom          ₹80/piece (12% GST), dozen=12: ready 100; committed 120 → oversold by 20
//
// Catalog: 4 products, 2 out of stock (NB100, BR01), 1 oversold (BR01),
// ready value ₹3,45,800.
//
// Customers (credit limit, outstanding):
//
//	C01 Rajesh Kirana Store    ₹1,00,000  ₹35,000
//	C02 Sharma General Store   ₹1,50,000  ₹1,60,000 (over the limit by ₹10,000)
//	C03 Mehta Traders          ₹5,00,000  ₹0
//
// Orders (all totals with GST):
//
//	ORD-1001 C01 credit delivered  40 days ago  GC500 48           ₹5,210.88
//	ORD-1002 C01 credit delivered  20 days ago  PH1L 120           ₹9,204
//	ORD-1003 C01 cod    delivered  10 days ago  GC500 24           ₹2,605.44
//	ORD-1004 C01 credit committed  yesterday    GC500 96, BR01 120 ₹21,173.76 (placed by KnownSales)
//	ORD-1005 C02 credit committed  2 hours ago  PH1L 240           ₹18,408
//	ORD-1006 C02 credit delivered  60 days ago  GC500 240          ₹26,054.40
//	ORD-1007 C03 credit cancelled  5 days ago   GC500 1,000        (counts nowhere)
//	ORD-1008 draft waiting for approval, C03, 1 hour ago, GC500 24 ₹2,605.44 (placed by KnownSales)
//
// Dues: 2 customers owe ₹1,95,000, 1 over the limit. Rajesh's ₹35,000 is
// covered by ORD-1004, ORD-1002 and ORD-1001 (newest first: ₹21,173.76 +
// ₹9,204 + ₹5,210.88 = ₹35,588.64), so the oldest unpaid bill is ORD-1001,
// 40 days old, 3 bills. Sharma's credit bills (₹18,408 + ₹26,054.40) fall
// short of ₹1,60,000: the oldest is ORD-1006, 60 days, and part of the due
// is older than the records.
//
// Pending: 1 waiting for approval (₹2,605.44), 2 to deliver (₹39,581.76).
//
// Sales in the last 30 days (before GST): ₹44,040 from 4 orders, GST
// ₹7,351.20. By product: PH1L 360 bottles ₹23,400; GC500 120 bottles
// ₹11,040; BR01 120 pieces ₹9,600. By customer: C01 ₹28,440 (3 orders),
// C02 ₹15,600 (1 order). Last week (2–8 March): ORD-1003 only (₹2,208).
func Known(ctx context.Context, b Books) error {
	products := []domain.Product{
		{SKU: "GC500", Name: "Glass Cleaner 500ml", Aliases: []string{"GC", "colin", "glass cleaner", "ग्लास क्लीनर"}, Unit: "bottle",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 24}, {Name: "box", Units: 6}}, Price: 9200, GSTPercent: 1800, StockReady: 2400, StockWIP: 480},
		{SKU: "PH1L", Name: "Phenyl 1L", Aliases: []string{"phenyl", "phenyle", "फिनाइल"}, Unit: "bottle",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 12}, {Name: "pack", Units: 6}}, Price: 6500, GSTPercent: 1800, StockReady: 1800, StockWIP: 600},
		{SKU: "NB100", Name: "Naphthalene Balls 100g", Aliases: []string{"naphthalene", "goli"}, Unit: "pack",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 100}}, Price: 3000, GSTPercent: 1800, StockWIP: 1000},
		{SKU: "BR01", Name: "Floor Broom", Aliases: []string{"broom", "jhadu", "झाड़ू"}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "dozen", Units: 12}}, Price: 8000, GSTPercent: 1200, StockReady: 100},
	}
	customers := []domain.Customer{
		{ID: "C01", Name: "Rajesh Kirana Store", Aliases: []string{"Rajesh", "rajesh bhai"}, CreditLimit: 10000000, Outstanding: 3500000,
			PaymentModes: []domain.PaymentMode{domain.PayCOD, domain.PayCredit}},
		{ID: "C02", Name: "Sharma General Store", Aliases: []string{"Sharma", "Sharma ji"}, CreditLimit: 15000000, Outstanding: 16000000,
			PaymentModes: []domain.PaymentMode{domain.PayCredit}},
		{ID: "C03", Name: "Mehta Traders", Aliases: []string{"Mehta", "Mehta ji", "मेहता"}, CreditLimit: 50000000,
			PaymentModes: []domain.PaymentMode{domain.PayCredit}},
	}
	users := []domain.User{
		{Phone: KnownOwner, Name: "Vikram Singh", Role: domain.RoleOwner},
		{Phone: KnownAccounts, Name: "Priya Nair", Role: domain.RoleAccounts},
		{Phone: KnownSales, Name: "Ravi Kumar", Role: domain.RoleSales},
		{Phone: KnownSales2, Name: "Sunil Yadav", Role: domain.RoleSales},
	}
	if err := b.UpsertProducts(ctx, products); err != nil {
		return err
	}
	if err := b.UpsertCustomers(ctx, customers); err != nil {
		return err
	}
	if err := b.UpsertUsers(ctx, users); err != nil {
		return err
	}
	bySKU := map[string]domain.Product{}
	for _, p := range products {
		bySKU[p.SKU] = p
	}
	day := 24 * time.Hour
	order := func(id, customer, by string, mode domain.PaymentMode, status domain.OrderStatus, ago time.Duration, items ...any) domain.Order {
		o := domain.Order{ID: id, CustomerID: customer, PlacedBy: by, Payment: mode, Status: status, CreatedAt: Now.Add(-ago)}
		o.CommittedAt = o.CreatedAt.Add(10 * time.Minute)
		if status == domain.OrderDelivered {
			o.DeliveredAt = o.CreatedAt.Add(day)
		}
		for i := 0; i < len(items); i += 2 {
			p := bySKU[items[i].(string)]
			l := domain.PriceLine(domain.OrderLine{SKU: p.SKU, Qty: int64(items[i+1].(int)), Price: p.Price, GSTRate: p.GSTPercent})
			o.Lines = append(o.Lines, l)
			o.Subtotal += l.Amount
			o.GST += l.GSTAmount
		}
		o.Total = o.Subtotal + o.GST
		return o
	}
	history := []domain.Order{
		order("ORD-1001", "C01", KnownSales2, domain.PayCredit, domain.OrderDelivered, 40*day, "GC500", 48),
		order("ORD-1002", "C01", KnownSales2, domain.PayCredit, domain.OrderDelivered, 20*day, "PH1L", 120),
		order("ORD-1003", "C01", KnownSales2, domain.PayCOD, domain.OrderDelivered, 10*day, "GC500", 24),
		order("ORD-1004", "C01", KnownSales, domain.PayCredit, domain.OrderCommitted, day, "GC500", 96, "BR01", 120),
		order("ORD-1005", "C02", KnownSales2, domain.PayCredit, domain.OrderCommitted, 2*time.Hour, "PH1L", 240),
		order("ORD-1006", "C02", KnownSales2, domain.PayCredit, domain.OrderDelivered, 60*day, "GC500", 240),
		order("ORD-1007", "C03", KnownSales2, domain.PayCredit, domain.OrderCancelled, 5*day, "GC500", 1000),
	}
	if err := b.AddHistory(ctx, history, nil); err != nil {
		return err
	}
	d, err := orders.Price(customers[2], domain.PayCredit, []orders.Item{{SKU: "GC500", Qty: 24, SaidQty: 1, SaidUnit: "carton"}}, bySKU)
	if err != nil {
		return err
	}
	d.ID, d.PlacedBy, d.Status, d.CreatedAt = "ORD-1008", KnownSales, orders.DraftPendingApproval, Now.Add(-time.Hour)
	return b.SaveDraft(ctx, d)
}
