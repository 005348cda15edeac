// Package redistest finds the Redis that Munshi's tests share and looks
// inside it: one place that says which server the tests use (the variable
// .ci/run exports), whether a missing one skips or fails, and where the
// Redis store keeps a person's lock queue.
package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// DefaultURL is the Redis the tests use when no variable names one.
const DefaultURL = "redis://127.0.0.1:6379/0"

// URL is the Redis the tests use: MUNSHI_TEST_REDIS_URL, else REDIS_URL,
// else DefaultURL. It makes no connection.
func URL() string {
	for _, v := range []string{"MUNSHI_TEST_REDIS_URL", "REDIS_URL"} {
		if u := os.Getenv(v); u != "" {
			return u
		}
	}
	return DefaultURL
}

// Need returns a client of the tests' Redis, closed when tb ends. When Redis
// does not answer the test is skipped, except with CI=true, where it fails:
// in CI the memory tests must run for real.
func Need(tb testing.TB) *goredis.Client {
	tb.Helper()
	o, err := goredis.ParseURL(URL())
	if err != nil {
		tb.Fatalf("redistest: %v", err)
	}
	o.DisableIdentity = true
	c := goredis.NewClient(o)
	// Only a guard against a dead address: a live Redis answers in
	// microseconds.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		c.Close()
		if os.Getenv("CI") == "true" {
			tb.Fatalf("Redis at %s is needed in CI: %v", URL(), err)
		}
		tb.Skipf("Redis at %s not reachable (%v); set CI=true to make this fatal", URL(), err)
	}
	tb.Cleanup(func() { c.Close() })
	return c
}

// Prefix returns a key prefix no other test uses and deletes its keys when
// tb ends.
func Prefix(tb testing.TB, c *goredis.Client) string {
	b := make([]byte, 6)
	rand.Read(b)
	prefix := "munshitest:" + hex.EncodeToString(b) + ":"
	tb.Cleanup(func() {
		ctx := context.Background()
		for _, k := range Keys(ctx, c, prefix+"*") {
			c.Del(ctx, k)
		}
	})
	return prefix
}

// Keys returns the keys matching a SCAN pattern.
func Keys(ctx context.Context, c *goredis.Client, match string) []string {
	var keys []string
	iter := c.Scan(ctx, 0, match, 1000).Iterator()
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	return keys
}

// Waiting returns how many messages of phone wait for its lock in the
// Redis store under prefix: the queue's length less the holder.
func Waiting(tb testing.TB, c *goredis.Client, prefix, phone string) int {
	tb.Helper()
	n, err := c.LLen(context.Background(), prefix+"lockq:{"+phone+"}").Result()
	if err != nil {
		tb.Fatalf("redistest: %v", err)
	}
	return max(0, int(n)-1)
}

// Holder returns the ticket holding phone's lock in the Redis store under
// prefix and the end of its lease, by Redis's clock; "" when nobody holds
// it.
func Holder(tb testing.TB, c *goredis.Client, prefix, phone string) (ticket string, leaseEnd time.Time) {
	tb.Helper()
	ctx := context.Background()
	ticket, err := c.LIndex(ctx, prefix+"lockq:{"+phone+"}", 0).Result()
	if errors.Is(err, goredis.Nil) {
		return "", time.Time{}
	}
	if err != nil {
		tb.Fatalf("redistest: %v", err)
	}
	ms, err := c.HGet(ctx, prefix+"lockt:{"+phone+"}", ticket).Int64()
	if err != nil {
		tb.Fatalf("redistest: lease of the holder: %v", err)
	}
	return ticket, time.UnixMilli(ms)
}

// Now is Redis's clock, which the lock's leases are kept by.
func Now(tb testing.TB, c *goredis.Client) time.Time {
	tb.Helper()
	t, err := c.Time(context.Background()).Result()
	if err != nil {
		tb.Fatalf("redistest: %v", err)
	}
	return t
}
