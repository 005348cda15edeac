// Package scheduler is the one home of Munshi's periodic work: jobs that
// run every interval (the outbox dispatcher, the catalog watcher, the
// recovery of unanswered messages, the retention sweeps) and jobs that run
// at the times of a cron spec in a time zone (the 7 am digest). Each job is
// a func(context.Context); Run starts them all and returns, once the jobs
// that are running have finished, after its context ends.
//
// A job never overlaps itself: a tick that comes while it runs is skipped.
// An interval job can be asked to run now (Nudge, or a channel given to
// WakeOn), and runs once more after its current run when asked meanwhile.
// A panic in a job is logged and the scheduler goes on.
//
// Time comes from a Clock, so that tests move it by hand
// (scheduler/schedulertest) instead of sleeping. The package knows nothing
// of what its jobs do: it must not import the store, the outbox or any
// domain package.
package scheduler
