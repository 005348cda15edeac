package storetest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
)

func testProducts(t *testing.T, s store.Store, c *Clock) {
	ps := products()
	if err := s.UpsertProducts(ctx, ps); err != nil {
		t.Fatal(err)
	}
	got, err := s.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.Product{ps[1], ps[0], ps[2]} // ordered by SKU
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Products:\n got %+v\nwant %+v", got, want)
	}

	// Upsert by SKU: GC500 changes, a new SKU arrives, the rest stay.
	c.Advance(time.Hour)
	gc := ps[0]
	gc.Name, gc.Price, gc.StockReady, gc.StockWIP = "Glass Cleaner 500 ml", 9550, 2280, 0
	gc.Aliases = []string{"GC"}
	gc.PackSizes = []domain.PackSize{{Name: "carton", Units: 20}}
	fc := domain.Product{SKU: "FC1L", Name: "Floor Cleaner 1L", Unit: "bottle", Price: 12000, GSTPercent: 1800}
	if err := s.UpsertProducts(ctx, []domain.Product{gc, fc}); err != nil {
		t.Fatal(err)
	}
	got, err = s.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want = []domain.Product{ps[1], fc, gc, ps[2]}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after upsert:\n got %+v\nwant %+v", got, want)
	}
}

func testProductsAllOrNothing(t *testing.T, s store.Store, _ *Clock) {
	ps := products()
	ps[1].Price = -1 // no price is negative
	err := s.UpsertProducts(ctx, ps)
	if err == nil {
		t.Fatal("a negative price was stored")
	}
	if !strings.Contains(err.Error(), "BR01") {
		t.Errorf("error %q does not name the product", err)
	}
	if got, err := s.Products(ctx); err != nil || len(got) != 0 {
		t.Errorf("a failed upsert wrote %d products (%v), want none", len(got), err)
	}
}

func testCustomers(t *testing.T, s store.Store, _ *Clock) {
	cs := customers()
	if err := s.UpsertCustomers(ctx, cs); err != nil {
		t.Fatal(err)
	}
	got, err := s.Customers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, cs) {
		t.Fatalf("Customers:\n got %+v\nwant %+v", got, cs)
	}

	c2 := cs[1]
	c2.Outstanding, c2.CreditLimit = 12000000, 20000000
	c2.PaymentModes = []domain.PaymentMode{domain.PayUPI}
	c2.Phone = "+919810000099"
	if err := s.UpsertCustomers(ctx, []domain.Customer{c2}); err != nil {
		t.Fatal(err)
	}
	got, err = s.Customers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.Customer{cs[0], c2, cs[2]}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after upsert:\n got %+v\nwant %+v", got, want)
	}

	bad := cs[0]
	bad.ID, bad.CreditLimit = "C09", -1 // no credit limit is negative
	if err := s.UpsertCustomers(ctx, []domain.Customer{{ID: "C08", Name: "Ashok", PaymentModes: []domain.PaymentMode{domain.PayCOD}}, bad}); err == nil {
		t.Fatal("a negative credit limit was stored")
	}
	if got, _ := s.Customers(ctx); len(got) != 3 {
		t.Errorf("%d customers after a failed upsert, want 3", len(got))
	}
}

func testUsers(t *testing.T, s store.Store, _ *Clock) {
	us := users()
	if err := s.UpsertUsers(ctx, us); err != nil {
		t.Fatal(err)
	}
	for _, want := range us {
		got, err := s.UserByPhone(ctx, want.Phone)
		if err != nil || got != want {
			t.Errorf("UserByPhone(%s) = %+v, %v; want %+v", want.Phone, got, err, want)
		}
	}
	sales, err := s.UsersByRole(ctx, domain.RoleSales)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sales, us[2:]) {
		t.Errorf("UsersByRole(sales) = %+v, want %+v", sales, us[2:])
	}

	// Upsert by phone: Ravi becomes an owner.
	promoted := domain.User{Phone: ravi, Name: "Ravi K.", Role: domain.RoleOwner}
	if err := s.UpsertUsers(ctx, []domain.User{promoted}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.UserByPhone(ctx, ravi); err != nil || got != promoted {
		t.Errorf("after upsert: %+v, %v; want %+v", got, err, promoted)
	}
	owners, err := s.UsersByRole(ctx, domain.RoleOwner)
	if err != nil || len(owners) != 2 || owners[0].Phone != owner || owners[1].Phone != ravi {
		t.Errorf("owners = %+v, %v; want Vikram and Ravi, by phone", owners, err)
	}

	// A role outside the contract is refused, and nothing of the batch is
	// written.
	err = s.UpsertUsers(ctx, []domain.User{
		{Phone: "+919900000005", Name: "New", Role: domain.RoleSales},
		{Phone: "+919900000006", Name: "Boss", Role: domain.Role("manager")},
	})
	if err == nil {
		t.Fatal("role manager was stored")
	}
	if _, err := s.UserByPhone(ctx, "+919900000005"); domain.ErrorCode(err) != domain.ENOTFOUND {
		t.Errorf("the good user of a failed batch was written: %v", err)
	}
}

func testUnknownUser(t *testing.T, s store.Store, _ *Clock) {
	if err := s.UpsertUsers(ctx, users()); err != nil {
		t.Fatal(err)
	}
	for _, phone := range []string{"+919999999999", "", "919900000001", "whatsapp:+919900000001", "'; DROP TABLE users; --", "+९१९९००००००००१"} {
		_, err := s.UserByPhone(ctx, phone)
		if code := domain.ErrorCode(err); code != domain.ENOTFOUND {
			t.Errorf("UserByPhone(%q) = %v, want %s", phone, err, domain.ENOTFOUND)
		}
		var de *domain.Error
		if !errors.As(err, &de) || de.Message == "" {
			t.Errorf("UserByPhone(%q) error %v is not a *domain.Error with a message", phone, err)
		}
	}
	if u, err := s.UserByPhone(ctx, owner); err != nil || u.Name != "Vikram Singh" {
		t.Errorf("the users were touched: %+v, %v", u, err)
	}
}

func testIsEmpty(t *testing.T, s store.Store, _ *Clock) {
	if empty, err := s.IsEmpty(ctx); err != nil || !empty {
		t.Fatalf("fresh database: IsEmpty = %v, %v; want true", empty, err)
	}
	// The outbox and audit log are not books: they leave it empty.
	if err := s.AppendAudit(ctx, audit.Entry{Actor: "system", Kind: "startup"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Enqueue(ctx, domain.WhatsApp(domain.Outbound{To: owner, Body: "hello"})); err != nil {
		t.Fatal(err)
	}
	if empty, err := s.IsEmpty(ctx); err != nil || !empty {
		t.Fatalf("after an audit entry and a message: IsEmpty = %v, %v; want true", empty, err)
	}
	// Any one of products, customers or users fills it.
	for _, fill := range []struct {
		name string
		do   func() error
	}{
		{"users", func() error { return s.UpsertUsers(ctx, users()[:1]) }},
		{"customers", func() error { return s.UpsertCustomers(ctx, customers()[:1]) }},
		{"products", func() error { return s.UpsertProducts(ctx, products()[:1]) }},
	} {
		if err := fill.do(); err != nil {
			t.Fatal(err)
		}
		if empty, err := s.IsEmpty(ctx); err != nil || empty {
			t.Fatalf("with %s: IsEmpty = %v, %v; want false", fill.name, empty, err)
		}
	}
}

// The catalog and the customers come back in key order, byte by byte,
// whatever order they were written in, and exactly as written: the
// router's tie-breaks follow that order.
func testKeyOrder(t *testing.T, s store.Store, _ *Clock) {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := []string{"a", "B", "ä", "10", "9", "GC500", "gc500", "सूर्या-1", "Z_9", "z.1", "A-B/C", "É", "e"}
	for i := range 300 {
		keys = append(keys, fmt.Sprintf("K%d", rng.IntN(1_000_000)*10+i%10))
	}
	slices.Sort(keys) // byte order
	keys = slices.Compact(keys)
	var ps []domain.Product
	var cs []domain.Customer
	for i, k := range keys {
		ps = append(ps, domain.Product{SKU: k, Name: "Product " + k, Aliases: []string{"p" + k}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "carton", Units: int64(i + 1)}}, Price: domain.Paise(i), GSTPercent: 1800})
		cs = append(cs, domain.Customer{ID: k, Name: "Customer " + k, Aliases: []string{"c" + k},
			PaymentModes: []domain.PaymentMode{domain.PayCOD}})
	}
	want, wantCustomers := slices.Clone(ps), slices.Clone(cs)
	rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
	rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	// In two imports, the second updating some rows of the first.
	half := len(ps) / 2
	for _, part := range [][2]int{{0, half + 20}, {half, len(ps)}} {
		if err := s.UpsertProducts(ctx, ps[part[0]:part[1]]); err != nil {
			t.Fatal(err)
		}
		if err := s.UpsertCustomers(ctx, cs[part[0]:part[1]]); err != nil {
			t.Fatal(err)
		}
	}
	gotProducts, err := s.Products(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotProducts, want) {
		t.Errorf("products not in SKU order or not as written: first %+v", gotProducts[:3])
	}
	gotCustomers, err := s.Customers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotCustomers, wantCustomers) {
		t.Errorf("customers not in id order or not as written: first %+v", gotCustomers[:3])
	}
}

// An empty catalog reads as nothing, not as an error.
func testEmptyCatalog(t *testing.T, s store.Store, _ *Clock) {
	if ps, err := s.Products(ctx); err != nil || len(ps) != 0 {
		t.Fatalf("products %v, %v", ps, err)
	}
	if cs, err := s.Customers(ctx); err != nil || len(cs) != 0 {
		t.Fatalf("customers %v, %v", cs, err)
	}
}

// CatalogVersion moves with every write of a product or a customer, so
// that a running server notices an import, and only then.
func testCatalogVersion(t *testing.T, s store.Store, c *Clock) {
	version := func() string {
		t.Helper()
		v, err := s.CatalogVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	seen := map[string]string{}
	step := func(name string, write func() error, moves bool) {
		t.Helper()
		before := version()
		c.Advance(time.Minute)
		if err := write(); err != nil {
			t.Fatal(err)
		}
		after := version()
		if (after != before) != moves {
			t.Fatalf("%s: version %q → %q; want it to move: %v", name, before, after, moves)
		}
		if moves {
			if earlier, ok := seen[after]; ok {
				t.Fatalf("%s: version %q again, as after %s", name, after, earlier)
			}
			seen[after] = name
		}
	}
	seen[version()] = "nothing"
	step("products", func() error { return s.UpsertProducts(ctx, products()) }, true)
	step("customers", func() error { return s.UpsertCustomers(ctx, customers()) }, true)
	step("users", func() error { return s.UpsertUsers(ctx, users()) }, false)
	restocked := products()[:1]
	restocked[0].StockReady = 10
	step("a restock", func() error { return s.UpsertProducts(ctx, restocked) }, true)
	step("a customer's dues", func() error { return s.UpsertCustomers(ctx, customers()[1:2]) }, true)
	step("an audit entry", func() error { return s.AppendAudit(ctx, audit.Entry{Actor: "cli", Kind: "import"}) }, false)
}
