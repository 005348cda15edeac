package erpsync

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// AuditKind is the audit kind of a run's entry; AlertKind, of what the
// owners were told about the ERP (alert.Owners' Kind).
const (
	AuditKind = "sync"
	AlertKind = "erp_alert"
)

// DefaultBatch is how many rows one write takes when Syncer.Batch is 0.
const DefaultBatch = 1000

// Syncer keeps the books' copy of the ERP: each run of an entity reads
// its query, maps every row and writes them all, or, when any row is bad
// or the ERP does not answer, writes nothing and keeps the last good data.
type Syncer struct {
	Mapping *Mapping
	Source  Source
	Books   Store
	Audit   Auditor // optional
	// Owners, when set, are told once per distinct problem (the ERP not
	// answering; an entity's bad rows, failing query, missing columns)
	// and once when it is put right. alert.Owners with Kind AlertKind.
	Owners Teller
	Clock  Clock        // the system clock when nil
	Logger *slog.Logger // slog.Default() when nil
	// Batch is how many rows one write takes (DefaultBatch when 0). An
	// order's lines are never split, and full bills and open orders go in
	// one write, since what a full write leaves out is gone.
	Batch int
	// Exclusive, when set, runs each run while no other instance sharing
	// the books runs the same entity (store.Store.Exclusive).
	Exclusive func(ctx context.Context, name string, fn func(context.Context) error) error
	// Actor names the runs in the audit log ("sync" when empty).
	Actor string
}

// Result is what one run of an entity did.
type Result struct {
	Entity Entity
	// Full: the query read every row (the entity is not incremental, or
	// had no watermark yet). Since is what :since was bound to.
	Full  bool
	Since string
	Rows  int // rows the query returned
	// Written is what the books did with them: added, updated, unchanged.
	Written     domain.Tally
	Deactivated int // products or customers the ERP no longer lists
	Settled     int // provisional entries the rows settled
	Flagged     int // provisional entries past settle_days, told to accounts
	Queries     int // queries run on the source
	Watermark   string
	Took        time.Duration // by the Syncer's clock
}

// Failure is a run that wrote nothing (or, for Class "books", stopped
// between writes without moving the entity's state): the books keep the
// last good data, and the next run tries again.
type Failure struct {
	Entity Entity
	// Class is the kind of problem, which the owners are told once:
	// source (the ERP did not answer), query (it refused the query),
	// columns (the result lacks mapped columns), rows (bad rows), empty
	// (a full master query returned nothing) or books (the books refused
	// the rows).
	Class    string
	Problems []Problem // the first ones found
	Count    int       // problems in all
	Err      error     // the source's or the books' error
	reason   string
}

func (f *Failure) Error() string { return "erpsync: " + string(f.Entity) + ": " + f.reason }
func (f *Failure) Unwrap() error { return f.Err }

// Reason is what the books keep of the failure (State.LastError).
func (f *Failure) Reason() string { return f.reason }

// maxInReason is how many bad rows a failure's reason lists.
const maxInReason = 5

func (s *Syncer) now() time.Time {
	if s.Clock == nil {
		return time.Now()
	}
	return s.Clock.Now()
}

func (s *Syncer) logger() *slog.Logger {
	if s.Logger == nil {
		return slog.Default()
	}
	return s.Logger
}

func (s *Syncer) batch() int {
	if s.Batch <= 0 {
		return DefaultBatch
	}
	return s.Batch
}

func (s *Syncer) settleDays() int {
	if s.Mapping.SettleDays <= 0 {
		return DefaultSettleDays
	}
	return s.Mapping.SettleDays
}

// Run runs one entity once: reads the query (since the watermark less the
// overlap, for an incremental entity that has one), maps every row and,
// when all are good, writes them in batches, the entity's new state with
// the last; a full master run then marks what the ERP no longer lists
// inactive; provisional entries older than settle_days are flagged to
// accounts. A bad row, a source that does not answer or a query that
// fails writes nothing, records the failure and returns a *Failure.
func (s *Syncer) Run(ctx context.Context, e Entity) (Result, error) {
	if s.Exclusive == nil {
		return s.run(ctx, e)
	}
	var res Result
	var runErr error
	err := s.Exclusive(ctx, "sync:"+string(e), func(ctx context.Context) error {
		res, runErr = s.run(ctx, e)
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("erpsync: %s: %w", e, err)
	}
	return res, runErr
}

func (s *Syncer) run(ctx context.Context, e Entity) (Result, error) {
	res := Result{Entity: e}
	spec := s.Mapping.Entities[e]
	if spec == nil {
		return res, fmt.Errorf("erpsync: the mapping has no %s", e)
	}
	start := s.now()
	prev, err := s.state(ctx, e)
	if err != nil {
		return res, err
	}
	var since *string
	res.Full = !spec.Incremental() || prev.Watermark == ""
	if spec.Incremental() {
		v := s.sinceOf(prev.Watermark, spec)
		since, res.Since = &v, v
	}
	k, err := s.known(ctx, e, false)
	if err != nil {
		return res, err
	}
	rd := newReading(e, spec, s.Mapping.Location(), k, 0)
	res.Queries++
	qerr := s.Source.Query(ctx, spec.Query, since, 0, rd.add)
	if qerr != nil && !errors.Is(qerr, errColumns) {
		if ctx.Err() != nil {
			return res, fmt.Errorf("erpsync: %s: %w", e, ctx.Err())
		}
		class := "query"
		if unreachable(qerr) {
			class = "source"
		}
		return s.fail(ctx, &res, start, &Failure{Entity: e, Class: class, Err: qerr})
	}
	s.clear(ctx, sourceTopic, "✅ Munshi reaches the ERP again.")
	t, ps := rd.finish()
	res.Rows = t.rows
	switch {
	case ps.count > 0:
		class := "rows"
		if rd.columnsBad {
			class = "columns"
		}
		return s.fail(ctx, &res, start, &Failure{Entity: e, Class: class, Problems: ps.list, Count: ps.count})
	case t.rows == 0 && (e == Products || e == Customers) && spec.IsFull(e):
		return s.fail(ctx, &res, start, &Failure{Entity: e, Class: "empty"})
	}

	end := s.now()
	final := State{Entity: e, Watermark: prev.Watermark, LastRun: end, LastGood: end, Rows: t.rows}
	if spec.Incremental() {
		final.Watermark = s.watermark(prev.Watermark, t.latest)
	}
	res.Watermark = final.Watermark
	var before []Provisional
	settles := e == Bills || e == Sales || e == Payments || e == Receipts
	if settles {
		if before, err = s.Books.Unsettled(ctx); err != nil {
			return res, fmt.Errorf("erpsync: %s: %w", e, err)
		}
	}
	prev.Entity = e
	tally, deactivated, err := s.write(ctx, e, spec, t, prev, final, Settle{Days: s.settleDays(), Now: end})
	res.Written, res.Deactivated = tally, deactivated
	if err != nil {
		return s.fail(ctx, &res, start, &Failure{Entity: e, Class: "books", Err: err})
	}
	if settles {
		if after, err := s.Books.Unsettled(ctx); err == nil {
			res.Settled = settledBetween(before, after)
		}
	}
	flagged, err := s.flag(ctx, end)
	if err != nil {
		s.logger().Error("erpsync: unsettled entries not flagged", "entity", e, "err", err)
	}
	res.Flagged = flagged
	res.Took = s.now().Sub(start)
	s.clear(ctx, entityTopic(e), fmt.Sprintf("✅ %s syncing again: the books hold the ERP's %s as of %s.",
		upperFirst(string(e)), what(e), end.In(s.Mapping.Location()).Format("15:04, 2 Jan")))
	s.record(ctx, res, nil)
	s.logger().Info("erpsync: synced", "entity", e, "rows", res.Rows, "added", tally.Added, "updated", tally.Updated,
		"unchanged", tally.Unchanged, "deactivated", deactivated, "settled", res.Settled, "took", res.Took)
	return res, nil
}

// state is the entity's state in the books; the zero state before its
// first run.
func (s *Syncer) state(ctx context.Context, e Entity) (State, error) {
	states, err := s.Books.SyncStates(ctx)
	if err != nil {
		return State{}, fmt.Errorf("erpsync: %s: %w", e, err)
	}
	for _, st := range states {
		if st.Entity == e {
			return st, nil
		}
	}
	return State{Entity: e}, nil
}

// fullSince is bound for an incremental entity's first run: every engine
// compares it with a datetime, and every row is later.
const fullSince = "1900-01-01 00:00:00"

// sinceOf is what :since is bound to: the watermark less the overlap, on
// the ERP's wall clock, so that a row committed late with an earlier
// change time is read again.
func (s *Syncer) sinceOf(watermark string, spec *EntitySpec) string {
	if watermark == "" {
		return fullSince
	}
	loc := s.Mapping.Location()
	t, err := time.ParseInLocation(watermarkLayout, watermark, loc)
	if err != nil {
		return fullSince
	}
	return t.Add(-time.Duration(spec.Since.Overlap)).Format(watermarkLayout)
}

// watermark is the greatest change time seen, never earlier than the
// last.
func (s *Syncer) watermark(prev string, latest time.Time) string {
	if latest.IsZero() {
		return prev
	}
	loc := s.Mapping.Location()
	if p, err := time.ParseInLocation(watermarkLayout, prev, loc); err == nil && !latest.After(p) {
		return prev
	}
	return latest.In(loc).Format(watermarkLayout)
}

// known reads what the entity's rows may refer to from the books.
func (s *Syncer) known(ctx context.Context, e Entity, check bool) (*known, error) {
	k := newKnown()
	if s.Books == nil {
		return k, nil
	}
	if e != Customers && e != Dues && e != Bills && e != Payments || check {
		ps, err := s.Books.Products(ctx)
		if err != nil {
			return nil, fmt.Errorf("erpsync: %s: %w", e, err)
		}
		k.addProducts(ps)
	}
	if e != Products && e != Stock && e != Receipts || check {
		cs, err := s.Books.Customers(ctx)
		if err != nil {
			return nil, fmt.Errorf("erpsync: %s: %w", e, err)
		}
		k.addCustomers(cs, true)
	}
	return k, nil
}

// fail records a run that wrote nothing and tells the owners.
func (s *Syncer) fail(ctx context.Context, res *Result, start time.Time, f *Failure) (Result, error) {
	f.reason = s.redact(f.describe())
	at := s.now()
	if err := s.Books.RecordSyncFailure(ctx, f.Entity, at, f.reason); err != nil {
		s.logger().Error("erpsync: failure not recorded", "entity", f.Entity, "err", err)
	}
	s.tell(ctx, f)
	res.Took = s.now().Sub(start)
	s.record(ctx, *res, f)
	s.logger().Warn("erpsync: not synced; the books keep the last good data", "entity", f.Entity, "class", f.Class, "reason", f.reason)
	return *res, f
}

func (f *Failure) describe() string {
	switch f.Class {
	case "source":
		return "the ERP did not answer: " + clip(f.Err.Error(), 300)
	case "query":
		return "the query failed: " + clip(f.Err.Error(), 300)
	case "columns":
		return "the query's result lacks what the mapping reads: " + summary(f.Problems, f.Count, maxInReason)
	case "rows":
		n := "1 bad row"
		if f.Count != 1 {
			n = fmt.Sprintf("%d bad rows", f.Count)
		}
		return n + ", nothing written: " + summary(f.Problems, f.Count, maxInReason)
	case "empty":
		return fmt.Sprintf("the query returned no %s; the books keep theirs", f.Entity)
	case "books":
		return "the books refused the rows: " + clip(f.Err.Error(), 300)
	}
	return f.Class
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// redact takes the DSN's password out of text (a driver's error may
// repeat what it was given).
func (s *Syncer) redact(text string) string {
	for _, secret := range dsnSecrets(s.Mapping.Source.ExpandedDSN) {
		text = strings.ReplaceAll(text, secret, "xxxxx")
	}
	return text
}

// dsnSecrets are the passwords a DSN holds: a URL's, and password= or
// pwd= parameters (ADO-style strings too).
func dsnSecrets(dsn string) []string {
	var out []string
	if u, err := url.Parse(dsn); err == nil && u.User != nil {
		if p, ok := u.User.Password(); ok && p != "" {
			out = append(out, p, url.QueryEscape(p), url.PathEscape(p))
		}
		for k, vs := range u.Query() {
			if isPasswordKey(k) {
				out = append(out, vs...)
			}
		}
	}
	for _, part := range strings.FieldsFunc(dsn, func(r rune) bool { return r == ';' || r == '&' || r == '?' || r == ' ' }) {
		k, v, ok := strings.Cut(part, "=")
		if ok && isPasswordKey(strings.TrimSpace(k)) && v != "" {
			out = append(out, v)
		}
	}
	var keep []string
	for _, p := range out {
		if len(p) >= 3 && !slices.Contains(keep, p) {
			keep = append(keep, p)
		}
	}
	return keep
}

func isPasswordKey(k string) bool {
	k = strings.ToLower(k)
	return k == "password" || k == "pwd" || k == "pass"
}

// unreachable tells a source that does not answer (refused, timed out,
// closed, gone) from one that refused the query.
func unreachable(err error) bool {
	var u interface{ Unreachable() bool }
	if errors.As(err, &u) {
		return u.Unreachable()
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ENOENT) || errors.As(err, &ne) {
		return true
	}
	msg := strings.ToLower(err.Error())
	for _, s := range []string{"connection refused", "database is closed", "no such host", "i/o timeout", "unable to open database",
		"connection reset", "broken pipe", "timeout", "timed out", "dial tcp", "no such file", "bad connection", "eof",
		"conn closed", "connection closed", "closed the connection", "failed to connect", "network is unreachable", "no route to host"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// record writes the run's audit entry: never the DSN, only what the
// source calls itself without its password.
func (s *Syncer) record(ctx context.Context, res Result, f *Failure) {
	if s.Audit == nil {
		return
	}
	detail := map[string]any{
		"entity": string(res.Entity), "ok": f == nil, "rows": res.Rows, "full": res.Full,
		"added": res.Written.Added, "updated": res.Written.Updated, "unchanged": res.Written.Unchanged,
		"deactivated": res.Deactivated, "settled": res.Settled, "flagged": res.Flagged,
		"watermark": res.Watermark, "since": res.Since, "took_ms": res.Took.Milliseconds(),
	}
	if r, ok := s.Source.(redacted); ok {
		detail["source"] = s.redact(r.Redacted())
	}
	if f != nil {
		detail["class"], detail["reason"] = f.Class, f.reason
		detail["problems"] = f.Count
	}
	actor := s.Actor
	if actor == "" {
		actor = "sync"
	}
	s.Audit.Record(ctx, actor, AuditKind, string(res.Entity), detail)
}

// Once runs every mapped entity once, in run order (masters first, so
// that what refers to them finds them), going on after a failure. The
// error joins the failures.
func (s *Syncer) Once(ctx context.Context) ([]Result, error) {
	var out []Result
	var errs []error
	for _, e := range s.Mapping.Mapped() {
		res, err := s.Run(ctx, e)
		out = append(out, res)
		if err != nil {
			errs = append(errs, err)
		}
		if ctx.Err() != nil {
			break
		}
	}
	return out, errors.Join(errs...)
}

func settledBetween(before, after []Provisional) int {
	still := map[int64]bool{}
	for _, p := range after {
		still[p.ID] = true
	}
	n := 0
	for _, p := range before {
		if !still[p.ID] {
			n++
		}
	}
	return n
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(strings.ReplaceAll(s, "_", " "))
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

// what names an entity's data as the owners know it.
func what(e Entity) string {
	return map[Entity]string{Products: "catalog", Customers: "customer list", Stock: "stock", Dues: "dues", Bills: "bills",
		Sales: "sales", OpenOrders: "open orders", Payments: "payments", Receipts: "goods received"}[e]
}
