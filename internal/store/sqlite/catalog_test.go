package sqlite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// The catalog and the customers come back in key order, byte by byte as
// SQLite compares text, whatever order they were written in, and exactly
// as written: the router's tie-breaks follow that order.
func TestCatalogReadInKeyOrder(t *testing.T) {
	s, _, _ := openStore(t)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	keys := []string{"a", "B", "ä", "10", "9", "GC500", "gc500", "सूर्या-1", "Z_9", "z.1", "A-B/C"}
	for i := range 300 {
		keys = append(keys, fmt.Sprintf("K%d", rng.IntN(1_000_000)*10+i%10))
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	var ps []domain.Product
	var cs []domain.Customer
	for i, k := range keys {
		ps = append(ps, domain.Product{SKU: k, Name: "Product " + k, Aliases: []string{"p" + k}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "carton", Units: int64(i + 1)}}, Price: domain.Paise(i), GSTPercent: 1800})
		cs = append(cs, domain.Customer{ID: k, Name: "Customer " + k, Aliases: []string{"c" + k},
			PaymentModes: []domain.PaymentMode{domain.PayCOD}})
	}
	want := slices.Clone(ps)
	wantCustomers := slices.Clone(cs)
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
	// The order is SQLite's own.
	rows, err := s.read.QueryContext(ctx, `SELECT sku FROM products ORDER BY sku`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var sqliteOrder []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		sqliteOrder = append(sqliteOrder, k)
	}
	if !slices.Equal(sqliteOrder, keys) {
		t.Errorf("SQLite orders SKUs %s, Products %s", strings.Join(sqliteOrder, " "), strings.Join(keys, " "))
	}
}

// An empty catalog reads as nothing, not as an error.
func TestEmptyCatalogReads(t *testing.T) {
	s, _, _ := openStore(t)
	ps, err := s.Products(context.Background())
	if err != nil || len(ps) != 0 {
		t.Fatalf("products %v, %v", ps, err)
	}
	cs, err := s.Customers(context.Background())
	if err != nil || len(cs) != 0 {
		t.Fatalf("customers %v, %v", cs, err)
	}
}
