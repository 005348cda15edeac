package reports

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// The business tools. None writes, and there is no raw-SQL tool.
const (
	ToolCheckStock    = "check_stock"
	ToolOutOfStock    = "out_of_stock"
	ToolOutstanding   = "outstanding"
	ToolPendingOrders = "pending_orders"
	ToolSalesSummary  = "sales_summary"
	ToolTopCustomers  = "top_customers"
	ToolOrderStatus   = "order_status"
)

// Recorder writes audit entries; *audit.Log is one (it redacts secrets
// before anything reaches the store).
type Recorder interface {
	Record(ctx context.Context, actor, kind, subject string, detail map[string]any)
}

// Normalizer recognises the catalog's products and the customers in text,
// with their aliases, Hindi spellings and typos; *intent.Router is one.
type Normalizer interface {
	Normalize(text string) intent.Normalized
}

// Defaults of Tools.
const (
	DefaultPageRows    = 10
	DefaultCallTimeout = 3 * time.Second
	DefaultMoreTTL     = 30 * time.Minute
)

// Tools are the read-only business tools behind every way of asking: the
// deterministic WhatsApp path (Answer, More), the agent (Agent.Ask) and the
// MCP server all go through Call, which checks the role, runs the tool
// under a time limit and audits the call.
type Tools struct {
	Books Books
	Audit Recorder // nil: calls are not audited (tests only)
	// Names resolves product and customer names the way messages are read;
	// optional: without it names are matched in the books.
	Names    Normalizer
	Logger   *slog.Logger
	Now      func() time.Time
	Location *time.Location // the business's time zone: periods, ages, days
	// StaleAfter is, per figure the ERP owns ("stock", "dues"), how old
	// its last sync may be before an answer says as of when (three times
	// its tier). A figure with none always says it.
	StaleAfter map[string]time.Duration
	// Briefs makes the daily digest on demand; nil: not set up.
	Briefs Briefs

	PageRows    int           // rows per message (DefaultPageRows)
	CallTimeout time.Duration // per tool call (DefaultCallTimeout)
	MoreTTL     time.Duration // how long MORE continues an answer (DefaultMoreTTL)

	// Files keeps the charts and Excel files a question asked as one is
	// answered with; nil answers every question in text.
	Files Shelf
	// AssetsHost is the URL chart pages load ECharts from
	// (MUNSHI_PUBLIC_URL + "/assets/"); "" is /assets/ on the page's host.
	AssetsHost string
	// ExportTimeout bounds making one file (DefaultExportTimeout).
	ExportTimeout time.Duration

	mu    sync.Mutex
	pages map[string]Place // by the person's phone: for Reply and More
}

// NewTools returns tools over the books, auditing to rec, in Asia/Kolkata.
func NewTools(books Books, rec Recorder) *Tools {
	return &Tools{Books: books, Audit: rec, Location: domain.DefaultLocation(), Now: time.Now}
}

func (t *Tools) clock() clock {
	now := time.Now
	if t.Now != nil {
		now = t.Now
	}
	loc := t.Location
	if loc == nil {
		loc = domain.DefaultLocation()
	}
	return clock{now: now(), loc: loc, staleAfter: t.StaleAfter}
}

func (t *Tools) pageRows() int {
	if t.PageRows > 0 {
		return min(t.PageRows, MaxRows)
	}
	return DefaultPageRows
}

// Result is what a tool call returned.
type Result struct {
	Tool string
	// Args are the arguments as understood: names resolved to SKUs and
	// customer ids, quantities in base units, the period by name.
	Args   map[string]any
	Report Report // nil when refused or failed
	// Text is the deterministic WhatsApp rendering: one message of at most
	// MaxMessageChars, holding Shown rows.
	Text  string
	Shown int
	// Next holds the arguments of the next page when rows remain.
	Next    map[string]any
	Refused bool
	Latency time.Duration

	at clock // when and where it was rendered
}

// Call runs a tool for a person: it checks the person's role, reads the
// books under CallTimeout and audits the call (who, which tool, the
// arguments, rows returned, latency, refused or not). A refusal returns a
// Result with Refused and a polite Text, and a domain.EUNAUTHORIZED error
// with the same text; unknown names are domain.ENOTFOUND, bad arguments
// domain.EINVALID, and anything else an internal error.
func (t *Tools) Call(ctx context.Context, user domain.User, name string, args map[string]any) (Result, error) {
	start := time.Now()
	res := Result{Tool: name}
	if _, ok := specByName(name); !ok {
		err := domain.Errorf(domain.EINVALID, "There is no tool called %q.", name)
		t.record(ctx, user, name, args, res, err)
		return res, err
	}
	if !Allowed(user.Role, name) {
		res.Refused, res.Text = true, Refusal(user, name)
		res.Latency = time.Since(start)
		t.record(ctx, user, name, args, res, nil)
		return res, domain.Errorf(domain.EUNAUTHORIZED, "%s", res.Text)
	}
	timeout := t.CallTimeout
	if timeout <= 0 {
		timeout = DefaultCallTimeout
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c := t.clock()
	res.at = c
	rep, understood, err := t.run(cctx, user, name, args, t.pageRows(), c)
	res.Args, res.Latency = understood, time.Since(start)
	if domain.ErrorCode(err) == domain.EUNAUTHORIZED {
		// The role may use the tool, but not on what was asked: someone
		// else's order.
		res.Refused, res.Text = true, domain.ErrorMessage(err)
	}
	if err == nil {
		res.Report = rep
		var next int
		res.Text, res.Shown, next = render(rep, c)
		if next > 0 {
			res.Next = cloneArgs(understood)
			res.Next["offset"] = next
		}
	} else if domain.ErrorCode(err) == domain.EINTERNAL && t.Logger != nil {
		t.Logger.Error("reports: tool failed", "tool", name, "err", err)
	}
	t.record(ctx, user, name, args, res, err)
	return res, err
}

// run parses the arguments, resolves names and reads one page of rows of
// the books.
func (t *Tools) run(ctx context.Context, user domain.User, name string, args map[string]any, rows int, c clock) (Report, map[string]any, error) {
	understood := map[string]any{}
	offset, err := intArg(args, "offset")
	if err != nil {
		return nil, understood, err
	}
	page := Page{Offset: int(max(offset, 0)), Limit: rows}
	if page.Offset > 0 {
		understood["offset"] = page.Offset
	}
	switch name {
	case ToolCheckStock:
		return t.checkStock(ctx, args, page, understood)
	case ToolOutOfStock:
		if soon, _ := args["soon"].(bool); soon {
			understood["soon"] = true
			rep, err := t.runningLow(ctx, c)
			return rep, understood, err
		}
		n, lines, err := t.Books.StockOuts(ctx, page)
		return &OutOfStock{Count: n, Lines: lines, Offset: page.Offset}, understood, err
	case ToolOutstanding:
		customers, err := t.resolve(ctx, customerKind, args["customer"], understood)
		if err != nil {
			return nil, understood, err
		}
		tot, dues, err := t.Books.Dues(ctx, DuesQuery{CustomerIDs: ids(customers), Page: page})
		return &Dues{Totals: tot, Customers: dues, Offset: page.Offset, Named: len(customers) > 0}, understood, err
	case ToolPendingOrders:
		customers, err := t.resolve(ctx, customerKind, args["customer"], understood)
		if err != nil {
			return nil, understood, err
		}
		q := OpenOrdersQuery{CustomerIDs: ids(customers), Page: page}
		if user.Role == domain.RoleSales {
			q.PlacedBy = user.Phone // sales staff see the orders they placed, whatever they ask
		}
		tot, orders, err := t.Books.OpenOrders(ctx, q)
		return &PendingOrders{Totals: tot, Orders: orders, Offset: page.Offset, PlacedBy: q.PlacedBy, Customers: names(customers)}, understood, err
	case ToolSalesSummary, ToolTopCustomers:
		return t.sales(ctx, name, args, page, understood, c)
	case ToolOrderStatus:
		return t.orderStatus(ctx, user, args, page, understood, c)
	case ToolDailyDigest:
		rep, err := t.dailyDigest(ctx, user, args, understood)
		return rep, understood, err
	case ToolPaymentsReceived:
		return t.paymentsReceived(ctx, args, page, understood, c)
	}
	return nil, understood, domain.Errorf(domain.EINVALID, "There is no tool called %q.", name)
}
