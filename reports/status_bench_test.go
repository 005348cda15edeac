package reports_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports/reportstest"
)

// benchOrderStatus answers text as an order_status question for user over
// the large books, end to end below the webhook: the decision (made here,
// as the router would), the tool call with its SQL, the audit entry and
// the rendering. The first answer must say everything expect reads from
// the books with its own SQL; every timed answer must be that answer.
func benchOrderStatus(b *testing.B, user domain.User, text string, expect func(b *testing.B, db *sql.DB) []string) {
	books := largeBooks(b)
	ctx := context.Background()
	decide := func() intent.Decision {
		return intent.Decision{Text: text, Intent: domain.IntentOrderStatus, Normalized: books.router.Normalize(text)}
	}
	first := books.tools.Answer(ctx, user, decide()).Text
	for _, want := range expect(b, largeSQL(b)) {
		if !strings.Contains(first, want) {
			b.Fatalf("%q answered without %q:\n%s", text, want, first)
		}
	}
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		reply := books.tools.Answer(ctx, user, decide())
		took = append(took, time.Since(start))
		if reply.Text != first {
			b.Fatalf("%q answered otherwise on the same books:\n%s", text, reply.Text)
		}
	}
	reportPercentiles(b, took)
}

// largeSQL opens the benchmarks' copy of the large books for reading with
// SQL of its own, to work out what the answers must say.
func largeSQL(b *testing.B) *sql.DB {
	dir, err := largeDir()
	if err != nil {
		b.Fatal(err)
	}
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, "munshi.db")+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// count runs a COUNT query.
func count(b *testing.B, db *sql.DB, query string, args ...any) int64 {
	var n int64
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		b.Fatalf("%s: %v", query, err)
	}
	return n
}

// tally is how a status answer counts orders: the total, then each state
// held.
func tally(b *testing.B, db *sql.DB, where string, args ...any) []string {
	waiting := count(b, db, `SELECT COUNT(*) FROM drafts WHERE status = 'pending_approval' AND `+where, args...)
	open := count(b, db, `SELECT COUNT(*) FROM orders WHERE status = 'committed' AND `+where, args...)
	delivered := count(b, db, `SELECT COUNT(*) FROM orders WHERE status = 'delivered' AND `+where, args...)
	var states []string
	if waiting > 0 {
		states = append(states, fmt.Sprintf("⏳ %s waiting for approval", domain.GroupIndian(waiting)))
	}
	if open > 0 {
		states = append(states, fmt.Sprintf("🚚 %s to deliver", domain.GroupIndian(open)))
	}
	if delivered > 0 {
		states = append(states, fmt.Sprintf("✅ %s delivered", domain.GroupIndian(delivered)))
	}
	return []string{": " + domain.GroupIndian(waiting+open+delivered) + "\n", strings.Join(states, ", ")}
}

// newestOpen is the number of the newest order still to deliver that
// matches where.
func newestOpen(b *testing.B, db *sql.DB, where string, args ...any) string {
	var id string
	if err := db.QueryRow(`SELECT id FROM orders WHERE status = 'committed' AND `+where+` ORDER BY created_at DESC LIMIT 1`, args...).Scan(&id); err != nil {
		b.Fatal(err)
	}
	return "🚚 " + id + " "
}

// BenchmarkOrderStatusAll: an owner's "orders ka status" over every order
// of the year, newest first.
func BenchmarkOrderStatusAll(b *testing.B) {
	benchOrderStatus(b, owner, "orders ka status", func(b *testing.B, db *sql.DB) []string {
		return append(tally(b, db, "1"), "*Orders*:", newestOpen(b, db, "1"))
	})
}

// BenchmarkOrderStatusMineToday: a salesperson's "aaj ke mere orders".
func BenchmarkOrderStatusMineToday(b *testing.B) {
	benchOrderStatus(b, sales, "aaj ke mere orders", func(b *testing.B, db *sql.DB) []string {
		now := reportstest.Now.In(domain.DefaultLocation())
		today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location()).UTC().Format("2006-01-02T15:04:05")
		where := "placed_by = ? AND created_at >= ?"
		return append(tally(b, db, where, sales.Phone, today), "*Your orders, today", newestOpen(b, db, where, sales.Phone, today))
	})
}

// BenchmarkOrderStatusOne: "ORD-1042 kahan hai", one order by number.
func BenchmarkOrderStatusOne(b *testing.B) {
	benchOrderStatus(b, owner, "ORD-1042 kahan hai", func(b *testing.B, db *sql.DB) []string {
		var customer, status string
		var total int64
		if err := db.QueryRow(`SELECT c.name, o.status, o.total_paise FROM orders o JOIN customers c ON c.id = o.customer_id
			WHERE o.id = 'ORD-1042'`).Scan(&customer, &status, &total); err != nil {
			b.Fatal(err)
		}
		items := count(b, db, `SELECT COUNT(*) FROM order_lines WHERE order_id = 'ORD-1042'`)
		return []string{"*ORD-1042* for " + customer, strings.ToUpper(status[:1]) + status[1:],
			fmt.Sprintf("%s with GST, %d %s", domain.Paise(total), items, domain.Plural("item", items))}
	})
}

// BenchmarkOrderStatusCustomer: "Mehta ka order gaya kya?" (a busy
// customer).
func BenchmarkOrderStatusCustomer(b *testing.B) {
	benchOrderStatus(b, owner, "Mehta ka order gaya kya?", func(b *testing.B, db *sql.DB) []string {
		where := "customer_id = (SELECT id FROM customers WHERE name = 'Mehta Traders')"
		return append(tally(b, db, where), "*Orders for Mehta Traders*", newestOpen(b, db, where))
	})
}
