package main

import (
	"context"
	"database/sql"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/config"
	"github.com/munshi/munshi/internal/store/pgtest"
)

// TestDemoSeededOnceByInstancesStartingTogether: serve --demo on several
// instances and one empty PostgreSQL database seeds the demo once, whole.
func TestDemoSeededOnceByInstancesStartingTogether(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	open := func(dsn string) (*Main, error) {
		cfg := config.FromEnv(func(k string) string { return map[string]string{"MUNSHI_DB": dsn}[k] })
		m := NewMain(cfg, true, io.Discard)
		m.Now = func() time.Time { return at }
		return m, m.Open(ctx)
	}
	rows := func(dsn string) (orders, products int) {
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := db.QueryRow(`SELECT (SELECT COUNT(*) FROM orders), (SELECT COUNT(*) FROM products)`).Scan(&orders, &products); err != nil {
			t.Fatal(err)
		}
		return orders, products
	}
	once := pgtest.NewDatabase(t)
	m, err := open(once)
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	wantOrders, wantProducts := rows(once)

	shared := pgtest.NewDatabase(t)
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := open(shared)
			if err == nil {
				m.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("instance %d: %v", i, err)
		}
	}
	if orders, products := rows(shared); orders != wantOrders || products != wantProducts {
		t.Errorf("three instances seeded %d orders and %d products; one seeds %d and %d", orders, products, wantOrders, wantProducts)
	}
}
