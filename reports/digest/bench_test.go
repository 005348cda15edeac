package digest_test

import (
	"database/sql"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/reports/digest"
	"github.com/munshi/munshi/reports/reportstest"
)

// BenchmarkCompose builds a whole digest — the facts, both briefs, both
// mails with the 13-week chart and the day's sales file — on a
// distributor of 10,000 SKUs and 500,000 order lines over a year
// (reportstest.Large; the first run builds and caches it, about 15 s):
//
//	go test -run '^$' -bench Compose -benchtime 20x ./reports/digest/
func BenchmarkCompose(b *testing.B) {
	s := largeStore(b)
	loc := domain.DefaultLocation()
	day := digest.Yesterday(reportstest.Now, loc)
	o := digest.Options{Location: loc}
	e, err := digest.Compose(ctx, s, day, o)
	if err != nil {
		b.Fatal(err)
	}
	if e.Facts.Sales.Orders == 0 || len(e.OwnerMail.Attachments) != 2 {
		b.Fatalf("digest of %v: %d orders, %d attachments", day, e.Facts.Sales.Orders, len(e.OwnerMail.Attachments))
	}
	b.Logf("%d orders, %d events, %d stock lines, %d late\n%s", e.Facts.Sales.Orders, len(e.Facts.Events), len(e.Facts.Stock), e.Facts.Waiting.LateCount, e.OwnerText)
	b.ResetTimer()
	for b.Loop() {
		if _, err := digest.Compose(ctx, s, day, o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFacts is the context engine alone: the SQL and the rules. The
// day's sales, the dues and the payments received must be what the
// books' own SQL says, and every timed build the same facts.
func BenchmarkFacts(b *testing.B) {
	s, path := largeStoreAt(b)
	loc := domain.DefaultLocation()
	day := digest.Yesterday(reportstest.Now, loc)
	first, err := digest.Build(ctx, s, day, digest.Options{Location: loc})
	if err != nil {
		b.Fatal(err)
	}
	want := factsFromSQL(b, path, day)
	got := []int64{int64(first.Sales.Orders), int64(first.Sales.Customers), int64(first.Sales.Amount), int64(first.Sales.GST),
		int64(first.Due), int64(first.Owing), int64(first.Received)}
	if !slices.Equal(got, want) {
		b.Fatalf("facts of %v (orders, customers, amount, GST, due, owing, received) = %v, the books say %v", day, got, want)
	}
	if first.Sales.Orders == 0 || first.Owing == 0 {
		b.Fatalf("facts of %v hold no sales or no dues: %+v", day, first.Sales)
	}
	for b.Loop() {
		f, err := digest.Build(ctx, s, day, digest.Options{Location: loc})
		if err != nil {
			b.Fatal(err)
		}
		if !reflect.DeepEqual(f, first) {
			b.Fatalf("the facts of %v changed on the same books:\n%+v\nwas\n%+v", day, f, first)
		}
	}
}

// factsFromSQL works out, with SQL of its own over the database at path,
// the day's orders (committed or delivered), their customers, amount
// before GST and GST; what every customer owes together and how many
// owe; and the payments received that day.
func factsFromSQL(b *testing.B, path string, day time.Time) []int64 {
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	stamp := func(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05") }
	lo, hi := stamp(day), stamp(day.AddDate(0, 0, 1))
	var orders, customers, amount, gst, due, owing, received int64
	if err := db.QueryRow(`SELECT COUNT(*), COUNT(DISTINCT customer_id), COALESCE(SUM(subtotal_paise), 0), COALESCE(SUM(gst_paise), 0)
		FROM orders WHERE status IN ('committed', 'delivered') AND created_at >= ? AND created_at < ?`, lo, hi).Scan(&orders, &customers, &amount, &gst); err != nil {
		b.Fatal(err)
	}
	if err := db.QueryRow(`SELECT COALESCE(SUM(outstanding_paise), 0), COUNT(*) FROM customers WHERE outstanding_paise > 0`).Scan(&due, &owing); err != nil {
		b.Fatal(err)
	}
	if err := db.QueryRow(`SELECT COALESCE(SUM(amount_paise), 0) FROM payments WHERE received_at >= ? AND received_at < ?`, lo, hi).Scan(&received); err != nil {
		b.Fatal(err)
	}
	return []int64{orders, customers, amount, gst, due, owing, received}
}

// largeStore opens a private copy of the large books (the digest only
// reads, but the shared file is never opened for writing).
func largeStore(b *testing.B) store.Store {
	s, _ := largeStoreAt(b)
	return s
}

// largeStoreAt is largeStore that also says where the copy is.
func largeStoreAt(b *testing.B) (store.Store, string) {
	return reportstest.OpenCopy(b, reportstest.Large)
}
