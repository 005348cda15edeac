package redis

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	goredis "github.com/redis/go-redis/v9"
)

// Script batching. Every message runs a few small scripts (its dedupe
// claim, its place in the sender's queue, the memory's compare-and-set,
// the queue's release, the answered mark), each a round trip that costs
// Redis and Munshi a pair of system calls. Concurrent messages' scripts
// are sent together, in one pipeline, as they queue: an idle instance
// sends each at once, a busy one shares the round trips. Each caller
// still waits for its own script's reply, so nothing is acknowledged
// earlier than it was.

// batchMax bounds the scripts of one pipeline.
const batchMax = 128

// scriptCall is one script waiting for its pipeline.
type scriptCall struct {
	script *goredis.Script
	keys   []string
	args   []any
	taken  atomic.Bool // in a pipeline: its caller waits for the reply
	cmd    *goredis.Cmd
	done   chan struct{}
}

// scriptBatch queues scripts and sends them in pipelines.
type scriptBatch struct {
	mu      sync.Mutex
	queue   []*scriptCall
	sending bool
	batches atomic.Int64 // pipelines sent, for the tests
}

// run runs script on s's connection, in a pipeline with the scripts
// other callers run meanwhile, and returns its reply. A caller whose ctx
// ends before its script is sent gets ctx's error and the script never
// runs; once sent, the reply is waited for.
func (s *Store) run(ctx context.Context, script *goredis.Script, keys []string, args ...any) *goredis.Cmd {
	if err := ctx.Err(); err != nil {
		cmd := goredis.NewCmd(ctx)
		cmd.SetErr(err)
		return cmd
	}
	call := &scriptCall{script: script, keys: keys, args: args, done: make(chan struct{})}
	b := &s.batch
	b.mu.Lock()
	b.queue = append(b.queue, call)
	start := !b.sending
	b.sending = true
	b.mu.Unlock()
	if start {
		go s.sendBatches()
	}
	select {
	case <-call.done:
		return call.cmd
	case <-ctx.Done():
		if call.taken.CompareAndSwap(false, true) {
			cmd := goredis.NewCmd(ctx)
			cmd.SetErr(ctx.Err()) // never sent: takeBatch skips it
			return cmd
		}
		<-call.done
		return call.cmd
	}
}

// sendBatches sends pipelines of queued scripts until none is left.
// Before each pipeline it yields the processor once, as the group
// commits do (sqlbooks): when the machine is busy the goroutines ready to
// run queue their scripts first, and when it is idle the yield returns
// at once.
func (s *Store) sendBatches() {
	for {
		runtime.Gosched()
		batch := s.takeBatch()
		if batch == nil {
			return
		}
		s.sendBatch(batch)
	}
}

// takeBatch takes up to batchMax queued scripts whose callers still wait;
// nil when none is queued, and the sender stops.
func (s *Store) takeBatch() []*scriptCall {
	b := &s.batch
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.queue) == 0 {
		b.sending = false
		return nil
	}
	n := min(len(b.queue), batchMax)
	var batch []*scriptCall
	for _, c := range b.queue[:n] {
		if c.taken.CompareAndSwap(false, true) {
			batch = append(batch, c)
		}
	}
	b.queue = append(b.queue[:0], b.queue[n:]...)
	return batch
}

// sendBatch sends one pipeline and hands each caller its reply. A script
// Redis does not hold (it restarted) runs again alone, which loads it.
func (s *Store) sendBatch(batch []*scriptCall) {
	if len(batch) == 0 {
		return
	}
	s.batch.batches.Add(1)
	ctx, cancel := context.WithTimeout(context.Background(), 2*s.opts.IOTimeout)
	defer cancel()
	if len(batch) == 1 {
		c := batch[0]
		c.cmd = c.script.Run(ctx, s.c, c.keys, c.args...)
		close(c.done)
		return
	}
	pipe := s.c.Pipeline()
	cmds := make([]*goredis.Cmd, len(batch))
	for i, c := range batch {
		cmds[i] = c.script.EvalSha(ctx, pipe, c.keys, c.args...)
	}
	pipe.Exec(ctx) // each command carries its own error
	for i, c := range batch {
		if err := cmds[i].Err(); err != nil && goredis.HasErrorPrefix(err, "NOSCRIPT") {
			cmds[i] = c.script.Run(ctx, s.c, c.keys, c.args...)
		}
		c.cmd = cmds[i]
		close(c.done)
	}
}

// Pipelines reports how many pipelines of scripts the store has sent,
// for metrics and tests: under load, fewer than the scripts run.
func (s *Store) Pipelines() int64 { return s.batch.batches.Load() }
