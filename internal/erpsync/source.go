package erpsync

import (
	"context"
	"fmt"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erp"
)

var _ Source = (*erp.Source)(nil)

// Options are the source's bounds as the mapping sets them; erp fills in
// what it leaves out.
func (m *Mapping) Options() erp.Options {
	return erp.Options{ConnectTimeout: time.Duration(m.Source.ConnectTimeout), QueryTimeout: time.Duration(m.Source.QueryTimeout),
		MaxConns: m.Source.MaxConns, Parallel: m.Source.Parallel}
}

// Open connects to the mapping's source.
func Open(ctx context.Context, m *Mapping) (*erp.Source, error) {
	src, err := erp.Open(ctx, m.Source.ExpandedDSN, m.Options())
	if err != nil {
		return nil, fmt.Errorf("erpsync: %w", err)
	}
	return src, nil
}

// Source is the ERP's database as a sync reads it; *erp.Source is one.
// Query runs q unchanged, binding since (when not nil) as the dialect's
// :since parameter, stops after limit rows when limit > 0, and gives each
// row's columns and values normalised: nil, int64, float64, string
// (decimals as their exact text), bool, time.Time, []byte.
type Source interface {
	Dialect() erp.Dialect
	Query(ctx context.Context, q string, since *string, limit int, each func(cols []string, vals []any) error) error
}

// redacted is a source that can name itself without its password
// (erp.Source.Redacted), for the audit log.
type redacted interface{ Redacted() string }

// Store is what a Syncer needs of the books: the writes of Books, the
// products and customers rows are checked against, and the people it
// tells.
type Store interface {
	Books
	Products(ctx context.Context) ([]domain.Product, error)
	Customers(ctx context.Context) ([]domain.Customer, error)
	UsersByRole(ctx context.Context, role domain.Role) ([]domain.User, error)
}

// Auditor records each run in the audit log.
type Auditor interface {
	Record(ctx context.Context, actor, kind, subject string, detail map[string]any)
}

// Teller tells the owners about a problem once, and once when it is put
// right (alert.Owners).
type Teller interface {
	Tell(ctx context.Context, topic, problem, text string)
	Clear(ctx context.Context, topic, text string)
}

// Clock tells the time; clocktest.Clock is one.
type Clock interface{ Now() time.Time }

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }
