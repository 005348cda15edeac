package outbox_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/outbox"
)

const kindLog = "log"

// logSender takes batches and answers each with the error fail gives
// it (nil: written).
type logSender struct {
	mu      sync.Mutex
	batches [][]string
	fail    func(payload string) error
}

func (s *logSender) SendPayload(ctx context.Context, p []byte) (string, error) {
	r := s.SendBatch(ctx, [][]byte{p})[0]
	return r.ProviderID, r.Err
}

func (s *logSender) SendBatch(ctx context.Context, ps [][]byte) []outbox.Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	var batch []string
	out := make([]outbox.Result, len(ps))
	for i, p := range ps {
		batch = append(batch, string(p))
		if s.fail != nil {
			out[i].Err = s.fail(string(p))
		}
		if out[i].Err == nil {
			out[i].ProviderID = "row-" + string(p)
		}
	}
	s.batches = append(s.batches, batch)
	return out
}

func (s *logSender) Patience() time.Duration { return 30 * 24 * time.Hour }

func (s *logSender) seen() [][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]string(nil), s.batches...)
}

// quota is a 429 that asks for a wait.
type quota time.Duration

func (q quota) Error() string             { return "429 quota" }
func (q quota) RetryAfter() time.Duration { return time.Duration(q) }

func enqueueLog(t *testing.T, st outbox.Enqueuer, n int) {
	t.Helper()
	var effects []domain.Effect
	for i := range n {
		effects = append(effects, domain.Effect{Kind: kindLog, To: "Orders", Payload: []byte(fmt.Sprint(i))})
	}
	if err := st.Enqueue(context.Background(), effects...); err != nil {
		t.Fatal(err)
	}
}

func TestBatchSenderGetsMessagesTogether(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	sender := &logSender{}
	d := &outbox.Dispatcher{Store: st, Senders: map[string]outbox.Sender{kindLog: sender}, Logger: quiet, Now: clk.Now,
		Batch: 16, MaxBatch: 40, Linger: 20 * time.Millisecond}
	enqueueLog(t, st, 100)
	d.Drain(context.Background())
	d.Wait()
	batches := sender.seen()
	total := 0
	for _, b := range batches {
		total += len(b)
		if len(b) > 40 {
			t.Errorf("a batch of %d, over MaxBatch", len(b))
		}
	}
	if total != 100 || len(batches) > 4 {
		t.Errorf("%d messages in %d batches (%v); want 100 in at most 4: claims of 16 gather while one is lingering", total, len(batches), batches)
	}
	rows, _ := st.OutboxMessages(context.Background())
	for _, r := range rows {
		if r.Status != "sent" || r.ProviderID != "row-"+string(r.Payload) {
			t.Errorf("message %+v", r)
		}
	}
}

func TestBatchRetryHonoursRetryAfterAndPatience(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	sender := &logSender{fail: func(string) error { return quota(90 * time.Second) }}
	d := &outbox.Dispatcher{Store: st, Senders: map[string]outbox.Sender{kindLog: sender}, Logger: quiet, Now: clk.Now,
		BaseBackoff: time.Millisecond, Linger: time.Millisecond}
	enqueueLog(t, st, 3)
	ctx := context.Background()
	d.RunOnce(ctx)
	d.Wait()
	// Not due before the 90 s Google asked for, though the backoff is 1 ms.
	clk.Advance(80 * time.Second)
	if n := d.RunOnce(ctx); n != 0 {
		t.Fatalf("%d messages due 80 s after a 429 that asked for 90 s", n)
	}
	clk.Advance(30 * time.Second)
	if n := d.RunOnce(ctx); n != 3 {
		t.Fatalf("%d due after the wait, want 3", n)
	}
	d.Wait()
	// A day and more of failures: a log's row is not given up after
	// WhatsApp's 24 hours, only after the sender's patience.
	clk.Advance(3 * 24 * time.Hour)
	d.RunOnce(ctx)
	d.Wait()
	rows, _ := st.OutboxMessages(ctx)
	for _, r := range rows {
		if r.Status != "pending" {
			t.Errorf("after three days of 429s: %+v; want still pending", r)
		}
	}
	clk.Advance(30 * 24 * time.Hour)
	d.RunOnce(ctx)
	d.Wait()
	rows, _ = st.OutboxMessages(ctx)
	for _, r := range rows {
		if r.Status != "failed" {
			t.Errorf("after its patience: %+v; want given up", r)
		}
	}
}

func TestBatchResultsSettleEachMessage(t *testing.T) {
	clk := newClock()
	st := newStore(t, clk)
	sender := &logSender{fail: func(p string) error {
		if p == "1" {
			return fmt.Errorf("timeout")
		}
		return nil
	}}
	d := &outbox.Dispatcher{Store: st, Senders: map[string]outbox.Sender{kindLog: sender}, Logger: quiet, Now: clk.Now,
		BaseBackoff: time.Hour, MaxBackoff: time.Hour, Linger: time.Millisecond}
	enqueueLog(t, st, 3)
	d.RunOnce(context.Background())
	d.Wait()
	rows, _ := st.OutboxMessages(context.Background())
	for _, r := range rows {
		want := "sent"
		if string(r.Payload) == "1" {
			want = "pending"
		}
		if r.Status != want {
			t.Errorf("message %s: %s, want %s", r.Payload, r.Status, want)
		}
	}
}
