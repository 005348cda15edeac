package catalog

import (
	"context"
	"fmt"
	"log/slog"
	"slices"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/orders"
)

// Names is the part of the books messages are read against.
type Names interface {
	Products(ctx context.Context) ([]domain.Product, error)
	Customers(ctx context.Context) ([]domain.Customer, error)
}

// Books are the names and the version that says when they changed.
type Books interface {
	Names
	// CatalogVersion changes whenever the products or the customers do.
	CatalogVersion(ctx context.Context) (string, error)
}

// Vocabulary reads the catalog and the customers the router and the order
// parser recognise in messages. Inactive products (the ERP no longer lists
// them) are left out, so no new order names them; inactive customers too,
// unless they still owe (or are owed) money: their payments and dues are
// still asked about. Where the books keep the users (People), their names
// are the vocabulary's Staff.
func Vocabulary(ctx context.Context, books Names) (intent.Vocabulary, error) {
	products, err := books.Products(ctx)
	if err != nil {
		return intent.Vocabulary{}, fmt.Errorf("catalog: %w", err)
	}
	customers, err := books.Customers(ctx)
	if err != nil {
		return intent.Vocabulary{}, fmt.Errorf("catalog: %w", err)
	}
	products = slices.DeleteFunc(products, func(p domain.Product) bool { return p.Inactive })
	customers = slices.DeleteFunc(customers, func(c domain.Customer) bool { return c.Inactive && c.Outstanding == 0 })
	v := intent.Vocabulary{Products: products, Customers: customers}
	if p, ok := books.(People); ok {
		for _, role := range []domain.Role{domain.RoleOwner, domain.RoleAccounts, domain.RoleSales} {
			users, err := p.UsersByRole(ctx, role)
			if err != nil {
				return intent.Vocabulary{}, fmt.Errorf("catalog: %w", err)
			}
			for _, u := range users {
				v.Staff = append(v.Staff, u.Name)
			}
		}
	}
	return v, nil
}

// People are the business's users, where the books keep them: a message
// that asks for one of them by name asks for the office.
type People interface {
	UsersByRole(ctx context.Context, role domain.Role) ([]domain.User, error)
}

// Compile builds a router and an order parser for a vocabulary. The parser
// reads messages through norm, the router in use when it is asked (a Live
// while serving), so it is built while the router compiles: neither waits
// for the other.
func Compile(v intent.Vocabulary, opts intent.Options, norm orders.Normalizer) (*intent.Router, *orders.Parser, error) {
	parsed := make(chan *orders.Parser, 1)
	go func() { parsed <- orders.NewParser(norm, v.Products, v.Customers) }()
	r, err := intent.NewRouter(v, opts)
	p := <-parsed
	if err != nil {
		return nil, nil, err
	}
	return r, p, nil
}

// Parsers is where a reload puts the new order parser: orders.Service.
type Parsers interface {
	UseParser(p *orders.Parser)
}

// Watch keeps the live router and the order parser in step with the books.
// Load builds them at start; Check, run periodically, reloads them when
// the books say the catalog or the customers changed.
type Watch struct {
	Books   Books
	Options intent.Options // the router's tiers: the LLM's, when there is one
	Logger  *slog.Logger
	// Router is the router in use, made by Load.
	Router *intent.Live
	// Orders receives each reloaded parser; set it once the order service
	// is built with Load's parser.
	Orders Parsers

	// loaded is the books' catalog version read just before the router
	// in use read its vocabulary; "" when it could not be read.
	loaded string
}

// Load reads the books, makes w.Router and returns the order parser that
// goes with it.
func (w *Watch) Load(ctx context.Context) (*orders.Parser, error) {
	w.Router = &intent.Live{}
	w.loaded = w.version(ctx)
	r, p, err := w.compile(ctx)
	if err != nil {
		return nil, err
	}
	w.Router.Swap(r)
	return p, nil
}

// version is the books' catalog version, or "" when it cannot be read.
func (w *Watch) version(ctx context.Context) string {
	v, err := w.Books.CatalogVersion(ctx)
	if err != nil {
		w.Logger.Warn("catalog version unreadable", "err", err)
		return ""
	}
	return v
}

// Reload rebuilds the router and the order parser from the books. The
// parser is swapped in first: an import only adds and updates, so the new
// parser knows every name the old router still finds for the moment
// between the two.
func (w *Watch) Reload(ctx context.Context) error {
	r, p, err := w.compile(ctx)
	if err != nil {
		return err
	}
	w.Orders.UseParser(p)
	w.Router.Swap(r)
	return nil
}

func (w *Watch) compile(ctx context.Context) (*intent.Router, *orders.Parser, error) {
	v, err := Vocabulary(ctx, w.Books)
	if err != nil {
		return nil, nil, err
	}
	return Compile(v, w.Options, w.Router)
}

// Check reloads when the books' catalog version is not the one read
// before the router in use was built: a change made between Load and the
// first Check (a sheet pulled at start) is read, not taken for the
// starting point. A failed reload keeps the router and parser in use,
// and the next Check tries again.
func (w *Watch) Check(ctx context.Context) {
	v, err := w.Books.CatalogVersion(ctx)
	if err != nil || v == w.loaded {
		return
	}
	if err := w.Reload(ctx); err != nil {
		w.Logger.Error("catalog reload failed; keeping the previous one", "err", err)
		return
	}
	w.loaded = v
	w.Logger.Info("catalog or customers changed: reloaded")
}
