package outbox

import (
	"context"
	"fmt"
	"time"
)

// BatchSender is a Sender whose provider takes many messages in one
// request (the Google Sheets order log writes many orders' rows at once,
// under a quota of requests a minute). The dispatcher hands it the due
// messages of its kind together: what was claimed while the previous
// batch was being sent, after lingering for more, at most MaxBatch at a
// time and one batch of a kind at a time. Each message is settled by its
// own result, as a Sender's error would settle it.
//
// A batch sender is never asked whether a message went before (it is no
// Checker): it must be idempotent itself, so that a message whose last
// try has no known outcome can be given to it again as it is.
type BatchSender interface {
	Sender
	// SendBatch carries out payloads and returns one result per payload,
	// in their order.
	SendBatch(ctx context.Context, payloads [][]byte) []Result
}

// Result is what became of one payload of a batch.
type Result struct {
	ProviderID string
	Err        error
}

// Patient is a Sender whose messages may wait longer than the
// dispatcher's MaxAge before they are given up: a row of a log loses
// nothing by arriving late, unlike a WhatsApp reply.
type Patient interface {
	Patience() time.Duration
}

// maxAge is how long transient failures of kind are retried.
func (d *Dispatcher) maxAge(kind string) time.Duration {
	if p, ok := d.Senders[kind].(Patient); ok && p.Patience() > 0 {
		return p.Patience()
	}
	return d.MaxAge
}

// batch is the queue of one batch sender's kind.
type batch struct {
	queued  []queued
	running bool // a goroutine is sending this kind's batches
}

// queued is a claimed message waiting for its batch, since claimed (on
// the process's clock: it measures a wait, not a time of the books).
type queued struct {
	m       Message
	claimed time.Time
}

// queue adds a claimed message of a batch kind to its kind's queue, and
// starts sending that kind's batches unless that is under way.
func (d *Dispatcher) queue(ctx context.Context, m Message) {
	d.mu.Lock()
	defer d.mu.Unlock()
	b := d.batches[m.Kind]
	if b == nil {
		b = &batch{}
		d.batches[m.Kind] = b
	}
	b.queued = append(b.queued, queued{m: m, claimed: time.Now()})
	if b.running {
		return
	}
	b.running = true
	d.sending.Add(1)
	go func() {
		defer d.sending.Done()
		d.sendBatches(ctx, m.Kind, b)
	}()
}

// sendBatches sends kind's queue, batch after batch, until it is empty.
// It lingers before each batch for more messages to join it, unless the
// batch is full or ctx has ended (then what is queued goes at once).
func (d *Dispatcher) sendBatches(ctx context.Context, kind string, b *batch) {
	for {
		if d.queueLen(b) < d.MaxBatch && ctx.Err() == nil {
			t := time.NewTimer(d.Linger)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
			}
		}
		d.mu.Lock()
		n := min(len(b.queued), d.MaxBatch)
		msgs := b.queued[:n:n]
		b.queued = b.queued[n:]
		if n == 0 {
			b.running = false
			d.mu.Unlock()
			return
		}
		d.mu.Unlock()
		d.deliverBatch(context.WithoutCancel(ctx), kind, msgs)
	}
}

func (d *Dispatcher) queueLen(b *batch) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(b.queued)
}

// deliverBatch sends one batch and settles each of its messages. A
// message that waited in the queue for more than half its lease is left
// to come due again: another instance may have claimed it by the time
// this batch went.
func (d *Dispatcher) deliverBatch(ctx context.Context, kind string, msgs []queued) {
	sender := d.Senders[kind].(BatchSender)
	var fresh []Message
	for _, q := range msgs {
		if time.Since(q.claimed) > d.Lease/2 {
			d.Logger.Warn("outbox: a message waited too long for its batch; it comes due again when its lease ends", "id", q.m.ID, "kind", kind)
			continue
		}
		fresh = append(fresh, q.m)
	}
	if len(fresh) == 0 {
		return
	}
	payloads := make([][]byte, len(fresh))
	for i, m := range fresh {
		payloads[i] = m.Payload
	}
	sctx, cancel := context.WithTimeout(ctx, d.Lease/2)
	results := sender.SendBatch(sctx, payloads)
	cancel()
	for i, m := range fresh {
		r := Result{Err: fmt.Errorf("outbox: the %s sender returned %d results for %d messages", kind, len(results), len(fresh))}
		if len(results) == len(fresh) {
			r = results[i]
		}
		d.settle(ctx, m, r.ProviderID, r.Err)
	}
}

// Wait returns once the batches being sent have been settled. Run waits
// for them before it returns; a scheduler that runs Drain calls Wait at
// shutdown, before the store closes.
func (d *Dispatcher) Wait() {
	d.init()
	d.sending.Wait()
}
