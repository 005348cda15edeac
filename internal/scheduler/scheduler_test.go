package scheduler_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/scheduler"
	"github.com/munshi/munshi/internal/scheduler/schedulertest"
)

func kolkata(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		return time.FixedZone("IST", 5*3600+1800)
	}
	return loc
}

// harness runs a scheduler on a fake clock and stops it at the end of the
// test, checking that Run returned.
type harness struct {
	clock *schedulertest.Clock
	s     *scheduler.Scheduler
	log   *logLines
}

func newHarness(t *testing.T, now time.Time) *harness {
	log := &logLines{}
	clk := schedulertest.NewClock(now)
	return &harness{clock: clk, log: log, s: scheduler.New(scheduler.Options{Clock: clk, Logger: slog.New(log)})}
}

// start runs the scheduler until the test ends.
func (h *harness) start(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); h.s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Error("Run did not return after its context ended")
		}
	})
}

// recorder is a job that reports the clock's time at each run.
func recorder(clk *schedulertest.Clock) (func(context.Context), chan time.Time) {
	ran := make(chan time.Time, 16)
	return func(context.Context) { ran <- clk.Now() }, ran
}

func next(t *testing.T, ran <-chan time.Time) time.Time {
	t.Helper()
	select {
	case at := <-ran:
		return at
	case <-time.After(time.Minute):
		t.Fatal("the job did not run")
		return time.Time{}
	}
}

func none(t *testing.T, ran <-chan time.Time) {
	t.Helper()
	select {
	case at := <-ran:
		t.Fatalf("the job ran at %v", at)
	default:
	}
}

// logLines keeps what the scheduler logs, one line per record with its
// attributes.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) Enabled(context.Context, slog.Level) bool { return true }
func (l *logLines) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logLines) WithGroup(string) slog.Handler            { return l }

func (l *logLines) Handle(_ context.Context, r slog.Record) error {
	line := r.Message
	r.Attrs(func(a slog.Attr) bool {
		line += " " + a.String()
		return true
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, line)
	return nil
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// TestCronFiresOnceAtSevenInKolkata: "0 7 * * *" in Asia/Kolkata runs at
// 07:00 IST exactly once a day: not a moment before, not again when the
// wall clock is set back and its timer fires early, and next at 07:00 the
// day after.
func TestCronFiresOnceAtSevenInKolkata(t *testing.T) {
	ist := kolkata(t)
	h := newHarness(t, time.Date(2026, 3, 8, 6, 0, 0, 0, ist))
	job, ran := recorder(h.clock)
	if _, err := h.s.Cron("digest", "0 7 * * *", ist, job); err != nil {
		t.Fatal(err)
	}
	h.start(t)

	seven := time.Date(2026, 3, 8, 7, 0, 0, 0, ist)
	if d := h.clock.WaitTimers(t, 1); !d[0].Equal(seven) {
		t.Fatalf("first run due %v, want %v", d[0], seven)
	}
	h.clock.Set(seven.Add(-time.Millisecond))
	none(t, ran)
	// The timer fires early (the wall clock was set back): wait again.
	h.clock.Fire()
	if d := h.clock.WaitTimers(t, 1); !d[0].Equal(seven) {
		t.Fatalf("after an early timer the run is due %v, want %v", d[0], seven)
	}
	none(t, ran)

	h.clock.Set(seven)
	if at := next(t, ran); !at.Equal(seven) {
		t.Fatalf("ran at %v, want %v", at, seven)
	}
	tomorrow := seven.AddDate(0, 0, 1)
	if d := h.clock.WaitTimers(t, 1); !d[0].Equal(tomorrow) {
		t.Fatalf("next run due %v, want %v", d[0], tomorrow)
	}
	h.clock.Set(tomorrow.Add(-time.Second))
	none(t, ran)
	if got := h.clock.Deadlines(); len(got) != 1 || !got[0].Equal(tomorrow) {
		t.Fatalf("pending %v, want one run at %v", got, tomorrow)
	}
}

// TestCronAcrossMonthEnds: daily and monthly specs step over month ends,
// leap days and months without the day, in the zone they were given.
func TestCronAcrossMonthEnds(t *testing.T) {
	ist := kolkata(t)
	at := func(y int, m time.Month, d, hh, mm int) time.Time { return time.Date(y, m, d, hh, mm, 0, 0, ist) }
	for _, tc := range []struct {
		name  string
		spec  string
		start time.Time
		want  []time.Time
	}{
		{"january into february", "0 7 * * *", at(2026, 1, 30, 8, 0),
			[]time.Time{at(2026, 1, 31, 7, 0), at(2026, 2, 1, 7, 0), at(2026, 2, 2, 7, 0)}},
		{"february into march", "0 7 * * *", at(2026, 2, 27, 7, 0),
			[]time.Time{at(2026, 2, 28, 7, 0), at(2026, 3, 1, 7, 0)}},
		{"a leap february", "0 7 * * *", at(2028, 2, 28, 6, 59),
			[]time.Time{at(2028, 2, 28, 7, 0), at(2028, 2, 29, 7, 0), at(2028, 3, 1, 7, 0)}},
		{"the year's end", "30 23 * * *", at(2026, 12, 31, 23, 29),
			[]time.Time{at(2026, 12, 31, 23, 30), at(2027, 1, 1, 23, 30)}},
		{"only months with a 31st", "0 7 31 * *", at(2026, 1, 31, 8, 0),
			[]time.Time{at(2026, 3, 31, 7, 0), at(2026, 5, 31, 7, 0), at(2026, 7, 31, 7, 0), at(2026, 8, 31, 7, 0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.start)
			job, ran := recorder(h.clock)
			if _, err := h.s.Cron("job", tc.spec, ist, job); err != nil {
				t.Fatal(err)
			}
			h.start(t)
			for i, want := range tc.want {
				d := h.clock.WaitTimers(t, 1)
				if !d[0].Equal(want) {
					t.Fatalf("run %d due %v, want %v", i+1, d[0], want)
				}
				h.clock.Set(d[0])
				if got := next(t, ran); !got.Equal(want) {
					t.Fatalf("run %d at %v, want %v", i+1, got, want)
				}
			}
			none(t, ran)
		})
	}
}

// TestCronSpecZoneWins: a spec's own CRON_TZ is read in its zone, not the
// one the job was given.
func TestCronSpecZoneWins(t *testing.T) {
	start := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	h := newHarness(t, start)
	job, _ := recorder(h.clock)
	if _, err := h.s.Cron("job", "CRON_TZ=UTC 0 7 * * *", kolkata(t), job); err != nil {
		t.Fatal(err)
	}
	h.start(t)
	if d := h.clock.WaitTimers(t, 1); !d[0].Equal(start.Add(7 * time.Hour)) {
		t.Fatalf("due %v, want 07:00 UTC", d[0])
	}
}

// TestCronRejectsBadSpecs: malformed, hostile and never-due specs are
// errors, never a panic, and add no job.
func TestCronRejectsBadSpecs(t *testing.T) {
	h := newHarness(t, time.Date(2026, 3, 8, 6, 0, 0, 0, time.UTC))
	for _, spec := range []string{
		"", "   ", "* * *", "0 7 * * * *", "61 7 * * *", "0 25 * * *", "0 7 32 * *", "0 7 * 13 *",
		"0 7 30 2 *", // February 30th never comes
		"० ७ * * *", "0 7 * * 🙂", "CRON_TZ=Nowhere/Atlantis 0 7 * * *", "@yearly@",
		"0 7 * * *\x00", strings.Repeat("1,", 5000) + "1 7 * * *", "*/0 * * * *",
	} {
		if j, err := h.s.Cron("bad", spec, time.UTC, func(context.Context) {}); err == nil {
			t.Errorf("Cron(%q) = %v, want an error", spec, j.Name())
		}
	}
	// And the scheduler still runs a good job.
	job, ran := recorder(h.clock)
	if _, err := h.s.Cron("good", "0 7 * * *", time.UTC, job); err != nil {
		t.Fatal(err)
	}
	h.start(t)
	h.clock.Set(h.clock.WaitTimers(t, 1)[0])
	next(t, ran)
}

// TestEveryRunsAtStartAndOnItsGrid: an interval job runs when Run starts
// and then at start + k·interval.
func TestEveryRunsAtStartAndOnItsGrid(t *testing.T) {
	start := time.Date(2026, 3, 8, 10, 0, 0, 0, time.UTC)
	h := newHarness(t, start)
	job, ran := recorder(h.clock)
	h.s.Every("sweep", time.Hour, job)
	h.start(t)
	if at := next(t, ran); !at.Equal(start) {
		t.Fatalf("first run at %v, want at start %v", at, start)
	}
	for k := 1; k <= 3; k++ {
		want := start.Add(time.Duration(k) * time.Hour)
		if d := h.clock.WaitTimers(t, 1); !d[0].Equal(want) {
			t.Fatalf("run %d due %v, want %v", k+1, d[0], want)
		}
		h.clock.Advance(30 * time.Minute)
		none(t, ran)
		h.clock.Advance(30 * time.Minute)
		if at := next(t, ran); !at.Equal(want) {
			t.Fatalf("run %d at %v, want %v", k+1, at, want)
		}
	}
}

// TestLongRunIsNotOverlapped: a run longer than the interval is never
// joined by its next tick; the ticks it covered are skipped and the next
// run is the first tick after it ended.
func TestLongRunIsNotOverlapped(t *testing.T) {
	start := time.Date(2026, 3, 8, 10, 0, 0, 0, time.UTC)
	h := newHarness(t, start)
	var running, most, runs atomic.Int32
	started, release := make(chan struct{}, 4), make(chan struct{})
	h.s.Every("slow", time.Minute, func(context.Context) {
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		if runs.Add(1) == 1 {
			started <- struct{}{}
			<-release
		}
	})
	h.start(t)
	<-started
	// Three and a half intervals pass while the first run works.
	for range 7 {
		h.clock.Advance(30 * time.Second)
	}
	if d := h.clock.Deadlines(); len(d) != 0 {
		t.Fatalf("a timer is pending while the job runs: %v", d)
	}
	close(release)
	if d := h.clock.WaitTimers(t, 1); !d[0].Equal(start.Add(4 * time.Minute)) {
		t.Fatalf("after a run ending at +3m30s the next is due %v, want +4m", d[0].Sub(start))
	}
	h.clock.Advance(30 * time.Second)
	h.clock.WaitTimers(t, 1)
	if runs.Load() != 2 || most.Load() != 1 {
		t.Fatalf("%d runs, at most %d at once; want 2 runs, one at a time", runs.Load(), most.Load())
	}
}

// TestNudgeRunsNowAndCoalesces: Nudge runs an interval job at once, and
// nudges during a run ask for exactly one more run right after it.
func TestNudgeRunsNowAndCoalesces(t *testing.T) {
	h := newHarness(t, time.Date(2026, 3, 8, 10, 0, 0, 0, time.UTC))
	var runs atomic.Int32
	inRun, release := make(chan struct{}), make(chan struct{})
	ran := make(chan int32, 8)
	job := h.s.Every("outbox", time.Hour, func(context.Context) {
		n := runs.Add(1)
		if n == 3 {
			inRun <- struct{}{}
			<-release
		}
		ran <- n
	})
	h.start(t)
	<-ran // at start
	h.clock.WaitTimers(t, 1)
	job.Nudge()
	if n := <-ran; n != 2 {
		t.Fatalf("run %d after a nudge, want 2", n)
	}
	h.clock.WaitTimers(t, 1)
	job.Nudge()
	<-inRun
	job.Nudge()
	job.Nudge()
	job.Nudge()
	close(release)
	<-ran // the third run ends
	if n := <-ran; n != 4 {
		t.Fatalf("run %d after nudges during a run, want 4", n)
	}
	h.clock.WaitTimers(t, 1) // waiting for its next tick: no fifth run
	if n := runs.Load(); n != 4 {
		t.Fatalf("%d runs, want 4", n)
	}
}

// TestWakeOnChannel: a job woken by a worker's own channel runs once per
// receive, without waiting for its tick.
func TestWakeOnChannel(t *testing.T) {
	h := newHarness(t, time.Date(2026, 3, 8, 10, 0, 0, 0, time.UTC))
	wake := make(chan struct{}, 1)
	job, ran := recorder(h.clock)
	h.s.Every("outbox", time.Hour, job).WakeOn(wake)
	h.start(t)
	next(t, ran)
	h.clock.WaitTimers(t, 1)
	wake <- struct{}{}
	next(t, ran)
	h.clock.WaitTimers(t, 1)
	none(t, ran)
}

// TestStopWhileRunning: cancelling Run's context reaches the running job,
// and Run returns only after the job has returned; jobs waiting for their
// time simply stop.
func TestStopWhileRunning(t *testing.T) {
	h := newHarness(t, time.Date(2026, 3, 8, 10, 0, 0, 0, time.UTC))
	inRun, stopped, release := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var finished atomic.Bool
	h.s.Every("long", time.Minute, func(ctx context.Context) {
		close(inRun)
		<-ctx.Done()
		close(stopped)
		<-release
		finished.Store(true)
	})
	idle, _ := recorder(h.clock)
	if _, err := h.s.Cron("digest", "0 7 * * *", time.UTC, idle); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); h.s.Run(ctx) }()
	<-inRun
	h.clock.WaitTimers(t, 1) // the digest waits for 07:00
	cancel()
	<-stopped
	select {
	case <-done:
		t.Fatal("Run returned while a job was still running")
	default:
	}
	close(release)
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Run did not return after the job did")
	}
	if !finished.Load() {
		t.Fatal("Run returned before the job finished")
	}
}

// TestPanicIsLoggedAndSchedulerGoesOn: a job that panics is logged with
// its name, runs again at its next time, and other jobs are not disturbed.
func TestPanicIsLoggedAndSchedulerGoesOn(t *testing.T) {
	start := time.Date(2026, 3, 8, 10, 0, 0, 0, time.UTC)
	h := newHarness(t, start)
	var runs atomic.Int32
	ran := make(chan int32, 4)
	h.s.Every("fragile", time.Minute, func(context.Context) {
		n := runs.Add(1)
		if n == 1 {
			var m map[string]int
			m["boom"]++ // a nil map: a real runtime panic
		}
		ran <- n
	})
	other, otherRan := recorder(h.clock)
	h.s.Every("steady", time.Minute, other)
	h.start(t)
	next(t, otherRan)
	h.clock.WaitTimers(t, 2)
	if log := h.log.String(); !strings.Contains(log, "job panicked") || !strings.Contains(log, "job=fragile") {
		t.Fatalf("the panic was not logged with the job's name:\n%s", log)
	}
	h.clock.Advance(time.Minute)
	if n := <-ran; n != 2 {
		t.Fatalf("run %d after the panic, want 2", n)
	}
	next(t, otherRan)
}

// TestEveryRefusesNoInterval: an interval job needs a positive interval.
func TestEveryRefusesNoInterval(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Every accepted a zero interval")
		}
	}()
	scheduler.New(scheduler.Options{}).Every("busy", 0, func(context.Context) {})
}

// TestSystemClock: the real clock's timers fire and stop.
func TestSystemClock(t *testing.T) {
	c := scheduler.System
	before := c.Now()
	tm := c.NewTimer(time.Millisecond)
	select {
	case at := <-tm.C():
		if at.Before(before) {
			t.Fatalf("fired at %v, before %v", at, before)
		}
	case <-time.After(time.Minute):
		t.Fatal("a system timer did not fire")
	}
	if c.NewTimer(time.Hour).Stop() != true {
		t.Fatal("a pending system timer did not stop")
	}
}
