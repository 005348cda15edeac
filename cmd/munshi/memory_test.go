package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/conversation"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/patience"
	"github.com/munshi/munshi/internal/redis/redistest"
	"github.com/munshi/munshi/internal/store/pgtest"
	"github.com/munshi/munshi/memory"
)

// memoryBackend is where a test's Munshi keeps conversations.
type memoryBackend struct {
	env map[string]string // added to the configuration
	// waiting returns how many messages of phone wait for the one being
	// answered.
	waiting func(m *Main, phone string) int
}

// memoryBackends runs a test with in-process memory and with the tests'
// Redis, under a key prefix of its own.
func memoryBackends(t *testing.T, run func(t *testing.T, mb memoryBackend)) {
	t.Run("in-process", func(t *testing.T) {
		run(t, memoryBackend{waiting: func(m *Main, phone string) int { return m.Memory.(*memory.InProcess).Waiting(phone) }})
	})
	t.Run("redis", func(t *testing.T) {
		raw := redistest.Need(t)
		prefix := redistest.Prefix(t, raw)
		run(t, memoryBackend{
			env:     map[string]string{"REDIS_URL": redistest.URL(), "MUNSHI_REDIS_PREFIX": prefix},
			waiting: func(_ *Main, phone string) int { return redistest.Waiting(t, raw, prefix, phone) },
		})
	})
}

func TestFollowUpsAboutStockBuyersAndDues(t *testing.T) {
	memoryBackends(t, func(t *testing.T, mb memoryBackend) {
		m := startMainAt(t, standing(2026, 12, 1), newFakeTwilio(t).URL, mb.env)
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
	memoryBackends(t, func(t *testing.T, mb memoryBackend) {
		m := startMain(t, newFakeTwilio(t).URL, mb.env)
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
		id := draftRef.FindString(more)
		if r := say(t, m, "SMg4", demo.SalesPhone, "cancel that"); !strings.Contains(r, "Cancelled order "+id) {
			t.Fatalf("cancel that: %s", r)
		}
		if d, _, _ := m.Store.DraftByID(ctx, id); d.Status != "cancelled" || d.OrderID != "" {
			t.Fatalf("the cancelled draft %s is %s, placed as %q", id, d.Status, d.OrderID)
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

// TestConcurrentMessagesFromOnePerson: a person's messages that arrive
// while the first is still being answered are answered one at a time, in
// the order they arrived, each with its own answer; another person's
// message is answered meanwhile.
func TestConcurrentMessagesFromOnePerson(t *testing.T) {
	questions := []struct{ text, answer string }{
		{"GC ka stock kitna hai", "Glass Cleaner 500ml"},
		{"phenyl ka stock kitna hai", "Phenyl 1L"},
		{"harpic ka stock kitna hai", "Toilet Cleaner 500ml"},
		{"lizol ka stock kitna hai", "Floor Cleaner 1L"},
		{"vim bar ka stock kitna hai", "Dishwash Bar 200g"},
		{"surf ka stock kitna hai", "Detergent Powder 1kg"},
		{"odonil ka stock kitna hai", "Air Freshener 250ml"},
		{"jhadu ka stock kitna hai", "Floor Broom"},
	}
	const otherText, otherAnswer = "sabun ka stock kitna hai", "Bathing Soap 75g"
	memoryBackends(t, func(t *testing.T, mb memoryBackend) {
		p := &answering{who: map[string]string{otherText: demo.SalesPhone}, held: questions[0].text, release: make(chan struct{})}
		for _, q := range questions {
			p.who[q.text] = demo.OwnerPhone
		}
		m := startMain(t, newFakeTwilio(t).URL, mb.env, p.install)
		replies := make([]string, len(questions))
		var wg sync.WaitGroup
		defer wg.Wait()
		defer p.let() // a failure below must not leave the first message held
		for i, q := range questions {
			wg.Go(func() {
				_, got := send(t, m, fmt.Sprintf("SMcc%d", i), demo.OwnerPhone, q.text, false)
				replies[i] = strings.Join(got, "\n")
			})
			// The next message arrives once this one is being answered
			// (the first) or waits its turn (the others).
			if i == 0 {
				patience.WaitFor(t, "the first message to be answered", func() bool { return len(p.started(demo.OwnerPhone)) == 1 })
			} else {
				patience.WaitFor(t, fmt.Sprintf("message %d to wait its turn", i), func() bool {
					if begun := p.started(demo.OwnerPhone); len(begun) > 1 {
						t.Fatalf("%q was answered while %q still was", begun[1:], begun[0])
					}
					return mb.waiting(m, demo.OwnerPhone) == i
				})
			}
		}
		if r := say(t, m, "SMccother", demo.SalesPhone, otherText); !strings.Contains(r, otherAnswer) {
			t.Fatalf("another person's message, while the first is being answered: %q", r)
		}
		p.let()
		wg.Wait()

		var want []string
		for i, q := range questions {
			want = append(want, q.text)
			if !strings.Contains(replies[i], q.answer) {
				t.Errorf("reply to %q: %q", q.text, replies[i])
			}
		}
		if got := p.started(demo.OwnerPhone); !slices.Equal(got, want) {
			t.Errorf("answered in the order %q, want the order they arrived", got)
		}
		if n := p.most(demo.OwnerPhone); n != 1 {
			t.Errorf("%d of one person's messages were answered at once", n)
		}
		if n := p.mostOverall(); n < 2 {
			t.Errorf("another person's message waited for this person's")
		}
		// Memory holds the exchanges in the same order.
		c, err := m.Memory.Load(context.Background(), demo.OwnerPhone)
		if err != nil {
			t.Fatal(err)
		}
		var remembered []string
		for _, turn := range c.Turns {
			if turn.Role == memory.RolePerson {
				remembered = append(remembered, turn.Text)
			}
		}
		if tail := want[len(want)-len(remembered):]; len(remembered) == 0 || !slices.Equal(remembered, tail) {
			t.Errorf("memory holds %q, want the last of %q in order", remembered, want)
		}
	})
}

// answering wraps the router of Munshi's conversations to see messages
// being answered: in what order, how many at once per person and in all.
// The router is told only the text, so each text belongs to one person.
// The message held is kept inside its answer until let is called.
type answering struct {
	next    conversation.Router
	who     map[string]string // text → phone
	held    string
	release chan struct{}
	once    sync.Once

	mu     sync.Mutex
	order  map[string][]string // phone → texts in the order they began
	inside map[string]int      // phone → being answered now
	max    map[string]int      // phone → most at once
	all    int                 // being answered now, everyone
	maxAll int
}

func (a *answering) install(m *Main) {
	svc := m.Pipeline.Responder.(*conversation.Service)
	a.next, svc.Router = svc.Router, a
	a.order, a.inside, a.max = map[string][]string{}, map[string]int{}, map[string]int{}
}

func (a *answering) Route(ctx context.Context, text string) intent.Decision {
	phone := a.who[text]
	a.mu.Lock()
	a.order[phone] = append(a.order[phone], text)
	a.inside[phone]++
	a.max[phone] = max(a.max[phone], a.inside[phone])
	a.all++
	a.maxAll = max(a.maxAll, a.all)
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.inside[phone]--
		a.all--
		a.mu.Unlock()
	}()
	if text == a.held {
		<-a.release
	}
	return a.next.Route(ctx, text)
}

func (a *answering) let() { a.once.Do(func() { close(a.release) }) }

func (a *answering) started(phone string) []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.order[phone])
}

func (a *answering) most(phone string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.max[phone]
}

func (a *answering) mostOverall() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.maxAll
}

func TestTwoInstancesAnswerAMessageOnce(t *testing.T) {
	env := map[string]string{"REDIS_URL": redistest.URL(), "MUNSHI_REDIS_PREFIX": redistest.Prefix(t, redistest.Need(t))}
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

// TestSharedBooksClaimOnceWithoutRedis: instances sharing books on
// PostgreSQL claim each MessageSid in those books, so Redis, shared as
// their memory, holds no claim of its own; a retry to the other instance
// gets the reply the first recorded, and the message is processed once.
func TestSharedBooksClaimOnceWithoutRedis(t *testing.T) {
	raw := redistest.Need(t)
	prefix := redistest.Prefix(t, raw)
	env := map[string]string{"REDIS_URL": redistest.URL(), "MUNSHI_REDIS_PREFIX": prefix, "MUNSHI_DB": pgtest.NewDatabase(t)}
	tw := newFakeTwilio(t)
	a, b := startMain(t, tw.URL, env), startMain(t, tw.URL, env)
	first := say(t, a, "SMshared", demo.SalesPhone, "namaste")
	second := say(t, b, "SMshared", demo.SalesPhone, "namaste")
	if !strings.Contains(first, "Namaste Ravi") || second != first {
		t.Fatalf("first instance %q, retry to the second %q", first, second)
	}
	if entries, _ := a.Store.AuditEntries(context.Background(), "inbound"); len(entries) != 1 {
		t.Fatalf("the message was processed %d times", len(entries))
	}
	if keys := redistest.Keys(context.Background(), raw, prefix+"seen:*"); len(keys) != 0 {
		t.Fatalf("Redis holds claims %v beside the books'", keys)
	}
	if keys := redistest.Keys(context.Background(), raw, prefix+"*"); len(keys) == 0 {
		t.Fatal("the instances did not share Redis as their memory")
	}
}
