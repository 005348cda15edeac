package scheduler

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/robfig/cron/v3"
)

// Options configure a Scheduler; the zero value is the system clock and
// slog's default logger.
type Options struct {
	Clock  Clock
	Logger *slog.Logger
}

// Scheduler runs jobs on their schedules. Add every job before Run.
type Scheduler struct {
	clock  Clock
	logger *slog.Logger

	mu      sync.Mutex
	jobs    []*Job
	started bool
}

// New returns a scheduler with no jobs.
func New(opts Options) *Scheduler {
	s := &Scheduler{clock: opts.Clock, logger: opts.Logger}
	if s.clock == nil {
		s.clock = System
	}
	if s.logger == nil {
		s.logger = slog.Default()
	}
	return s
}

// Job is one scheduled function.
type Job struct {
	name  string
	run   func(context.Context)
	first func(start time.Time) time.Time      // when it first runs, Run having started at start
	next  func(due, ended time.Time) time.Time // when it runs after the run that was due at due ended
	nudge chan struct{}                        // buffered: one pending request to run now
	wake  <-chan struct{}                      // another source of such requests; nil: none
}

// Name is the job's name, as logged.
func (j *Job) Name() string { return j.name }

// Nudge asks the job to run now, or right after its current run. Requests
// made while one is pending are one request. It never blocks.
func (j *Job) Nudge() {
	select {
	case j.nudge <- struct{}{}:
	default:
	}
}

// WakeOn makes a receive on ch ask the job to run now, as Nudge does: for a
// worker that has its own way of being nudged (the outbox dispatcher's
// Nudged). Call it before Run.
func (j *Job) WakeOn(ch <-chan struct{}) *Job {
	j.wake = ch
	return j
}

// Every adds a job that runs when Run starts and then every interval after
// that start (at start + k·interval); the ticks that pass while it runs are
// skipped. interval must be positive.
func (s *Scheduler) Every(name string, interval time.Duration, run func(context.Context)) *Job {
	if interval <= 0 {
		panic(fmt.Sprintf("scheduler: job %q needs a positive interval, not %v", name, interval))
	}
	var anchor time.Time
	return s.add(&Job{
		name: name, run: run,
		first: func(start time.Time) time.Time { anchor = start; return start },
		next: func(_, ended time.Time) time.Time {
			// The first tick of the grid after the run ended.
			k := ended.Sub(anchor)/interval + 1
			return anchor.Add(k * interval)
		},
	})
}

// Cron adds a job that runs at the times of a standard five-field cron
// spec ("0 7 * * *": 07:00 every day), read in loc (a spec's own
// "CRON_TZ=…" prefix wins). A time that passes while the job runs is
// skipped. It fails for a spec that does not parse or never comes due.
func (s *Scheduler) Cron(name, spec string, loc *time.Location, run func(context.Context)) (*Job, error) {
	sched, err := parseSpec(spec)
	if err != nil {
		return nil, err
	}
	if loc == nil {
		loc = time.UTC
	}
	at := func(t time.Time) time.Time { return sched.Next(t.In(loc)) }
	if at(s.clock.Now()).IsZero() {
		return nil, fmt.Errorf("scheduler: the spec %q of job %q never comes due", spec, name)
	}
	return s.add(&Job{
		name: name, run: run,
		first: at,
		next:  func(_, ended time.Time) time.Time { return at(ended) },
	}), nil
}

// parseSpec parses a standard cron spec; the parser's panics on hostile
// input become errors.
func parseSpec(spec string) (sched cron.Schedule, err error) {
	defer func() {
		if r := recover(); r != nil {
			sched, err = nil, fmt.Errorf("scheduler: %q is not a cron spec", spec)
		}
	}()
	if len(spec) > 200 {
		return nil, fmt.Errorf("scheduler: a cron spec of %d bytes is too long", len(spec))
	}
	sched, err = cron.ParseStandard(spec)
	if err != nil {
		return nil, fmt.Errorf("scheduler: %q is not a cron spec: %w", spec, err)
	}
	return sched, nil
}

func (s *Scheduler) add(j *Job) *Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		panic(fmt.Sprintf("scheduler: job %q added after Run", j.name))
	}
	j.nudge = make(chan struct{}, 1)
	s.jobs = append(s.jobs, j)
	return j
}

// Run runs every job on its schedule until ctx ends, then returns once the
// jobs that are running have returned. A job's ctx is Run's: a long job
// should stop when it ends. Run is called once.
func (s *Scheduler) Run(ctx context.Context) {
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		panic("scheduler: Run called twice")
	}
	s.started = true
	jobs := s.jobs
	s.mu.Unlock()

	start := s.clock.Now()
	var wg sync.WaitGroup
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.loop(ctx, j, start)
		}()
	}
	wg.Wait()
}

// loop runs one job until ctx ends.
func (s *Scheduler) loop(ctx context.Context, j *Job, start time.Time) {
	due := j.first(start)
	for {
		if !s.wait(ctx, j, due) {
			return
		}
		s.runOnce(ctx, j)
		if ctx.Err() != nil {
			return
		}
		due = j.next(due, s.clock.Now())
	}
}

// wait returns true when the job is due (or asked to run), false when ctx
// ended first. A timer that fires before the clock reads due (the wall
// clock was set back) waits again, so a job never runs early or twice.
func (s *Scheduler) wait(ctx context.Context, j *Job, due time.Time) bool {
	for {
		if ctx.Err() != nil {
			return false
		}
		d := due.Sub(s.clock.Now())
		if d <= 0 {
			return true
		}
		t := s.clock.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return false
		case <-j.nudge:
			t.Stop()
			return true
		case <-j.wake:
			t.Stop()
			return true
		case <-t.C():
		}
	}
}

// runOnce runs the job, logging a panic instead of dying of it.
func (s *Scheduler) runOnce(ctx context.Context, j *Job) {
	defer func() {
		if r := recover(); r != nil {
			s.logger.Error("scheduler: job panicked; it runs again at its next time",
				"job", j.name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		}
	}()
	j.run(ctx)
}

// NextDue is the first time after t that a standard cron spec comes due,
// read in loc (a spec's own CRON_TZ wins): for work that must know when
// its job last came due, such as a catch-up at start. Zero when it never
// does.
func NextDue(spec string, loc *time.Location, t time.Time) (time.Time, error) {
	sched, err := parseSpec(spec)
	if err != nil {
		return time.Time{}, err
	}
	if loc == nil {
		loc = time.UTC
	}
	return sched.Next(t.In(loc)), nil
}
