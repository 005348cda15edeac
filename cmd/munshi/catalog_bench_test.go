package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/catalogtest"
	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
)

// largeCatalog is a generated catalog written as the CSV files an operator
// imports, and a database they were imported into.
type largeCatalog struct {
	books                   catalogtest.Books
	catalogCSV, customerCSV string
	db                      string
}

// largeCatalogOf generates a catalog of that many SKUs into dir and
// imports it, with the demo users, through `munshi import`.
func largeCatalogOf(tb testing.TB, dir string, skus int) *largeCatalog {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	c := &largeCatalog{books: catalogtest.Shared(skus).Without(intent.CommandWord),
		catalogCSV: filepath.Join(dir, "catalog.csv"), customerCSV: filepath.Join(dir, "customers.csv"), db: filepath.Join(dir, "munshi.db")}
	writeCSV(tb, c.catalogCSV, func(w io.Writer) error { return catalogtest.WriteCatalog(w, c.books.Products) })
	writeCSV(tb, c.customerCSV, func(w io.Writer) error { return catalogtest.WriteCustomers(w, c.books.Customers) })
	users := filepath.Join(dir, "users.csv")
	writeCSV(tb, users, func(w io.Writer) error { _, err := w.Write(demo.UsersCSV); return err })
	for _, f := range [][2]string{{"catalog", c.catalogCSV}, {"customers", c.customerCSV}, {"users", users}} {
		importCSV(tb, c.db, f[0], f[1])
	}
	return c
}

func writeCSV(tb testing.TB, path string, write func(io.Writer) error) {
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := write(f); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

func importCSV(tb testing.TB, db, kind, path string) {
	env := map[string]string{"MUNSHI_DB": db}
	if err := run(context.Background(), []string{"import", kind, path}, strings.NewReader(""), io.Discard, io.Discard,
		func(k string) string { return env[k] }); err != nil {
		tb.Fatal(err)
	}
}

// openLarge opens the program on a large catalog's database, as a restart
// does: the store, the router and the order parser.
func openLarge(tb testing.TB, c *largeCatalog) *Main {
	env := map[string]string{"MUNSHI_DB": c.db, "MUNSHI_LOG_LEVEL": "warn"}
	m := NewMain(config.FromEnv(func(k string) string { return env[k] }), false, io.Discard)
	if err := m.Open(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return m
}

// checkLastProduct checks that the program in use knows the catalog's last
// product: the router names it, and an order for it is read and priced.
func checkLastProduct(tb testing.TB, m *Main, c *largeCatalog) {
	last := len(c.books.Products) - 1
	p := c.books.Products[last]
	found := false
	for _, e := range m.Router.Normalize(p.Name + " ka stock kitna hai").Entities {
		found = found || e.ID == p.SKU
	}
	if !found {
		tb.Fatalf("the last product %s %q is not recognised", p.SKU, p.Name)
	}
	order := c.books.Order(last)
	reply := m.Orders.Take(context.Background(), domain.User{Phone: demo.SalesPhone, Name: "Ravi", Role: domain.RoleSales}, m.Router.Route(context.Background(), order.Text))
	if !strings.Contains(reply.Text, "*Order ") || !strings.Contains(reply.Text, p.Name) {
		tb.Fatalf("%q was not read as an order of %s:\n%s", order.Text, p.SKU, reply.Text)
	}
}

// BenchmarkCatalogReload is what a running server does when an import
// changed the catalog: read the products and customers, build the router
// and the order parser, and swap them in. It reports the processor time
// of the whole process per reload (the garbage collector's included) and
// the peak of the heap, the previous router and parser included.
func BenchmarkCatalogReload(b *testing.B) {
	dir := b.TempDir()
	for _, n := range catalogtest.BenchSizes() {
		b.Run(fmt.Sprintf("skus=%d", n), func(b *testing.B) {
			c := largeCatalogOf(b, filepath.Join(dir, fmt.Sprint(n)), n)
			m := openLarge(b, c)
			defer m.Close()
			ctx := context.Background()
			b.ReportAllocs()
			meter := catalogtest.StartMeter()
			for b.Loop() {
				if err := m.Catalog.Reload(ctx); err != nil {
					b.Fatal(err)
				}
			}
			meter.Report(b)
			checkLastProduct(b, m, c)
		})
	}
}

// BenchmarkCatalogRestart is opening the program on a large catalog, as a
// restart does. The model is trained once per process, before the timer
// (BenchmarkTrain in intent is that cost).
func BenchmarkCatalogRestart(b *testing.B) {
	dir := b.TempDir()
	for _, n := range catalogtest.BenchSizes() {
		b.Run(fmt.Sprintf("skus=%d", n), func(b *testing.B) {
			c := largeCatalogOf(b, filepath.Join(dir, fmt.Sprint(n)), n)
			openLarge(b, c).Close()
			b.ReportAllocs()
			meter := catalogtest.StartMeter()
			var m *Main
			for b.Loop() {
				if m != nil {
					m.Close()
				}
				m = openLarge(b, c)
			}
			meter.Report(b)
			checkLastProduct(b, m, c)
			m.Close()
		})
	}
}

// BenchmarkImportCatalog is `munshi import catalog` of a large file:
// reading and checking the CSV, and the upsert, into a new database and
// into one that already holds the catalog (an operator's daily update).
func BenchmarkImportCatalog(b *testing.B) {
	dir := b.TempDir()
	for _, n := range catalogtest.BenchSizes() {
		c := largeCatalogOf(b, filepath.Join(dir, fmt.Sprint(n)), n)
		for _, into := range []string{"new", "same"} {
			b.Run(fmt.Sprintf("rows=%d/into=%s", n, into), func(b *testing.B) {
				b.ReportAllocs()
				meter := catalogtest.StartMeter()
				for i := 0; b.Loop(); i++ {
					db := c.db
					if into == "new" {
						db = filepath.Join(dir, fmt.Sprintf("new-%d-%d.db", n, i))
					}
					importCSV(b, db, "catalog", c.catalogCSV)
				}
				meter.Report(b)
			})
		}
	}
}
