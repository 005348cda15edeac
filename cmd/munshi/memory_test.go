package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
)

// redisURL is the Redis the tests share; with CI=true a missing Redis fails
// the test instead of skipping it.
func redisURL(t *testing.T) string {
	t.Helper()
	addr := "127.0.0.1:6379"
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Redis is not answering on %s: %v", addr, err)
		}
		t.Skipf("Redis is not answering on %s", addr)
	}
	c.Close()
	return "redis://" + addr + "/0"
}

// memoryBackends runs a test with in-process memory and with Redis.
func memoryBackends(t *testing.T, run func(t *testing.T, env map[string]string)) {
	t.Run("in-process", func(t *testing.T) { run(t, nil) })
	t.Run("redis", func(t *testing.T) {
		run(t, map[string]string{"REDIS_URL": redisURL(t), "MUNSHI_REDIS_PREFIX": fmt.Sprintf("munshitest%d:", rand.Int64())})
	})
}

func TestFollowUpsAboutStockBuyersAndDues(t *testing.T) {
	memoryBackends(t, func(t *testing.T, env map[string]string) {
		m := startMain(t, newFakeTwilio(t).URL, env)
		say(t, m, "SMf1", demo.OwnerPhone, "show me stock for glass cleaner")
		buyers := say(t, m, "SMf2", demo.OwnerPhone, "and who bought it last week?")
		if !strings.Contains(buyers, "Who bought Glass Cleaner 500ml") {
			t.Fatalf("buyers: %s", buyers)
		}
		dues := say(t, m, "SMf3", demo.OwnerPhone, "what about their outstanding?")
		if !strings.Contains(dues, "Outstanding") && !strings.Contains(dues, "owes") {
			t.Fatalf("their outstanding: %s", dues)
		}
		// Every buyer named in the list has their dues in the answer.
		for _, name := range []string{"City Hospital", "Gupta Brothers"} {
			if strings.Contains(buyers, name) && !strings.Contains(dues, name) {
				t.Errorf("%s bought GC but their dues are missing:\n%s", name, dues)
			}
		}
		if r := say(t, m, "SMf5", demo.OwnerPhone, "uska stock kitna hai"); !strings.Contains(r, "Ready") {
			t.Fatalf("uska stock: %s", r)
		}
	})
}

func TestFollowUpsOnOrders(t *testing.T) {
	memoryBackends(t, func(t *testing.T, env map[string]string) {
		m := startMain(t, newFakeTwilio(t).URL, env)
		ctx := context.Background()
		first := say(t, m, "SMg1", demo.SalesPhone, "10 carton glass cleaner for Rajesh, cash")
		if !strings.Contains(first, "Rajesh Kirana Store") {
			t.Fatalf("first: %s", first)
		}
		same := say(t, m, "SMg2", demo.SalesPhone, "same order for Sharma ji")
		if !strings.Contains(same, "Sharma General Store") || !strings.Contains(same, "10 cartons (240 bottles)") {
			t.Fatalf("same order: %s", same)
		}
		more := say(t, m, "SMg3", demo.SalesPhone, "aur 5 carton add karo")
		if !strings.Contains(more, "Sharma General Store") || !strings.Contains(more, "360 bottles") {
			t.Fatalf("add to draft: %s", more)
		}
		id := orderID.FindString(more)
		if r := say(t, m, "SMg4", demo.SalesPhone, "cancel that"); !strings.Contains(r, "Cancelled order "+id) {
			t.Fatalf("cancel that: %s", r)
		}
		if _, ok, _ := m.Store.Order(ctx, id); ok {
			t.Fatal("a cancelled draft was committed")
		}
	})
}

func TestFollowUpWithoutMemorySaysSo(t *testing.T) {
	m := startMain(t, newFakeTwilio(t).URL, nil)
	if r := say(t, m, "SMh1", demo.OwnerPhone, "what about their outstanding?"); !strings.Contains(r, "not sure what that refers to") {
		t.Fatalf("reply: %s", r)
	}
}

func TestRedisDownStillAnswers(t *testing.T) {
	// Nothing listens on this port: memory is unavailable from the start.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := ln.Addr().String()
	ln.Close()
	m := startMain(t, newFakeTwilio(t).URL, map[string]string{"REDIS_URL": "redis://" + dead + "/0"})
	if r := say(t, m, "SMd1", demo.SalesPhone, "namaste"); !strings.Contains(r, "Namaste Ravi") {
		t.Fatalf("greeting without Redis: %s", r)
	}
	if r := say(t, m, "SMd2", demo.OwnerPhone, "uska stock kitna hai"); !strings.Contains(r, "memory is unavailable") {
		t.Fatalf("follow-up without Redis: %s", r)
	}
	summary := say(t, m, "SMd3", demo.SalesPhone, "10 carton glass cleaner for Rajesh, cash")
	if !strings.Contains(summary, "Reply *ok*") {
		t.Fatalf("order without Redis: %s", summary)
	}
	if r := say(t, m, "SMd4", demo.SalesPhone, "ok"); !strings.Contains(r, "placed") {
		t.Fatalf("ok without Redis: %s", r)
	}
	resp, err := http.Get("http://" + m.Addr() + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"degraded"`) || !strings.Contains(string(body), "redis") {
		t.Fatalf("readyz: %d %s", resp.StatusCode, body)
	}
}

func TestConcurrentMessagesFromOnePerson(t *testing.T) {
	memoryBackends(t, func(t *testing.T, env map[string]string) {
		m := startMain(t, newFakeTwilio(t).URL, env)
		var wg sync.WaitGroup
		replies := make([]string, 8)
		for i := range replies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, got := send(t, m, fmt.Sprintf("SMcc%d", i), demo.OwnerPhone, "GC ka stock kitna hai", false)
				replies[i] = strings.Join(got, "\n")
			}()
		}
		wg.Wait()
		for i, r := range replies {
			if !strings.Contains(r, "Glass Cleaner") {
				t.Fatalf("reply %d: %q", i, r)
			}
		}
	})
}

func TestTwoInstancesAnswerAMessageOnce(t *testing.T) {
	env := map[string]string{"REDIS_URL": redisURL(t), "MUNSHI_REDIS_PREFIX": fmt.Sprintf("munshitest%d:", rand.Int64())}
	tw := newFakeTwilio(t)
	a, b := startMain(t, tw.URL, env), startMain(t, tw.URL, env)
	first := say(t, a, "SMtwice", demo.SalesPhone, "namaste")
	second := say(t, b, "SMtwice", demo.SalesPhone, "namaste")
	if !strings.Contains(first, "Namaste Ravi") || second != "" {
		t.Fatalf("first instance %q, second %q (want silence)", first, second)
	}
	inbound := 0
	for _, m := range []*Main{a, b} {
		entries, _ := m.Store.AuditEntries(context.Background(), "inbound")
		inbound += len(entries)
	}
	if inbound != 1 {
		t.Fatalf("the message was processed %d times across two instances", inbound)
	}
	// Each database still records the delivery it received.
	if done, _, _ := b.Store.SavedReply(context.Background(), "SMtwice"); !done {
		t.Fatal("the second instance kept no record of the delivery")
	}
}
