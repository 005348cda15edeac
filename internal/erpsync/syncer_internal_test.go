package erpsync

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"syscall"
	"testing"
	"time"
)

func TestDSNSecrets(t *testing.T) {
	for dsn, want := range map[string][]string{
		"postgres://munshi:s3cret@erp.local/books":               {"s3cret"},
		"sqlserver://sa:p%40ssw0rd@erp:1433?database=Books":      {"p@ssw0rd", "p%40ssw0rd"},
		"sqlserver://erp:1433?user id=sa&password=Hidden1":       {"Hidden1"},
		"Server=erp;Database=Books;User Id=sa;Password=Hidden2;": {"Hidden2"},
		"mysql://root@127.0.0.1:3306/test":                       nil,
		"sqlite:///var/erp/books.db":                             nil,
	} {
		got := dsnSecrets(dsn)
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("dsnSecrets(%q) = %q, want %q among them", dsn, got, w)
			}
		}
		if want == nil && len(got) != 0 {
			t.Errorf("dsnSecrets(%q) = %q", dsn, got)
		}
	}
	s := &Syncer{Mapping: &Mapping{Source: SourceSpec{ExpandedDSN: "postgres://munshi:s3cret@erp.local/books"}}}
	if got := s.redact(`failed to connect to "postgres://munshi:s3cret@erp.local": s3cret rejected`); got != `failed to connect to "postgres://munshi:xxxxx@erp.local": xxxxx rejected` {
		t.Errorf("redact = %q", got)
	}
}

func TestUnreachable(t *testing.T) {
	for _, err := range []error{
		context.DeadlineExceeded,
		fmt.Errorf("erp: x: %w", syscall.ECONNREFUSED),
		&net.OpError{Op: "dial", Err: errors.New("refused")},
		errors.New("sql: database is closed"),
		errors.New("erp: x: conn closed"),
	} {
		if !unreachable(err) {
			t.Errorf("unreachable(%v) = false", err)
		}
	}
	for _, err := range []error{errors.New("no such table: Items"), errors.New(`ERROR: syntax error at or near "SELEC"`)} {
		if unreachable(err) {
			t.Errorf("unreachable(%v) = true", err)
		}
	}
}

func TestSinceAndWatermark(t *testing.T) {
	m := &Mapping{}
	s := &Syncer{Mapping: m}
	spec := &EntitySpec{Since: &SinceSpec{Column: "M", Overlap: Duration(10 * time.Minute)}}
	if got := s.sinceOf("", spec); got != fullSince {
		t.Errorf("first run since %q", got)
	}
	if got := s.sinceOf("2026-03-01 00:05:00", spec); got != "2026-02-28 23:55:00" {
		t.Errorf("since %q", got)
	}
	loc := m.Location()
	later := time.Date(2026, 3, 2, 9, 0, 0, 0, loc)
	if got := s.watermark("2026-03-01 00:05:00", later); got != "2026-03-02 09:00:00" {
		t.Errorf("watermark %q", got)
	}
	// Never backwards: a window that only re-read older rows keeps it.
	if got := s.watermark("2026-03-03 00:00:00", later); got != "2026-03-03 00:00:00" {
		t.Errorf("watermark went back to %q", got)
	}
	if got := s.watermark("2026-03-03 00:00:00", time.Time{}); got != "2026-03-03 00:00:00" {
		t.Errorf("no rows moved the watermark to %q", got)
	}
}
