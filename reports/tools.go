package reports

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

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
)

// Audit kinds the tools write: every call is one entry, KindTool when it
// ran (or failed) and KindRefusal when the person's role may not use it.
const (
	KindTool    = "tool"
	KindRefusal = "refusal" // the audit package's refusal kind
)

// access says which roles may use each tool. Sales staff see pending
// orders too, but only the ones they placed: Call narrows the query.
var access = map[string][]domain.Role{
	ToolCheckStock:    {domain.RoleOwner, domain.RoleSales},
	ToolOutOfStock:    {domain.RoleOwner, domain.RoleSales},
	ToolOutstanding:   {domain.RoleOwner, domain.RoleAccounts},
	ToolPendingOrders: {domain.RoleOwner, domain.RoleAccounts, domain.RoleSales},
	ToolSalesSummary:  {domain.RoleOwner, domain.RoleAccounts},
	ToolTopCustomers:  {domain.RoleOwner, domain.RoleAccounts},
}

// Allowed reports whether a role may use a tool.
func Allowed(role domain.Role, tool string) bool {
	return slices.Contains(access[tool], role)
}

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

	PageRows    int           // rows per message (DefaultPageRows)
	CallTimeout time.Duration // per tool call (DefaultCallTimeout)
	MoreTTL     time.Duration // how long MORE continues an answer (DefaultMoreTTL)

	mu    sync.Mutex
	pages map[string]continuation // by the person's phone
}

// continuation is where MORE picks up.
type continuation struct {
	tool    string
	args    map[string]any
	expires time.Time
}

// NewTools returns tools over the books, auditing to rec, in Asia/Kolkata.
func NewTools(books Books, rec Recorder) *Tools {
	return &Tools{Books: books, Audit: rec, Location: Kolkata(), Now: time.Now}
}

// Kolkata is the Asia/Kolkata time zone, or a fixed +05:30 zone when the
// system has no zone database (India has no daylight saving).
func Kolkata() *time.Location {
	if loc, err := time.LoadLocation("Asia/Kolkata"); err == nil {
		return loc
	}
	return time.FixedZone("IST", 5*3600+1800)
}

func (t *Tools) clock() clock {
	now := time.Now
	if t.Now != nil {
		now = t.Now
	}
	loc := t.Location
	if loc == nil {
		loc = Kolkata()
	}
	return clock{now: now(), loc: loc}
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
	rep, understood, err := t.run(cctx, user, name, args, c)
	res.Args, res.Latency = understood, time.Since(start)
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

// Refusal is the polite answer to a person whose role may not use a tool:
// it says who can see it.
func Refusal(user domain.User, tool string) string {
	name := "there"
	if f := strings.Fields(user.Name); len(f) > 0 {
		name = f[0]
	}
	what := map[string]string{
		ToolCheckStock: "Stock figures are", ToolOutOfStock: "Stock figures are",
		ToolOutstanding: "Dues and outstanding are", ToolPendingOrders: "Pending orders are",
		ToolSalesSummary: "Sales figures are", ToolTopCustomers: "Sales figures are",
	}[tool]
	if what == "" {
		what = "That is"
	}
	var who []string
	for _, r := range access[tool] {
		who = append(who, map[domain.Role]string{
			domain.RoleOwner: "the owners", domain.RoleAccounts: "the accounts team", domain.RoleSales: "the sales staff",
		}[r])
	}
	if len(who) == 0 {
		return fmt.Sprintf("Sorry %s, that isn't something I can share.", name)
	}
	list := strings.Join(who, " and ")
	if len(who) > 2 {
		list = strings.Join(who[:len(who)-1], ", ") + " and " + who[len(who)-1]
	}
	return fmt.Sprintf("Sorry %s, %s only shared with %s. Please ask them if you need this. 🙏", name, strings.ToLower(what[:1])+what[1:], list)
}

// record audits one call. Arguments are cut to the tool's own parameters
// and short strings; the audit log redacts secrets on top.
func (t *Tools) record(ctx context.Context, user domain.User, name string, args map[string]any, res Result, err error) {
	if t.Audit == nil {
		return
	}
	rows := 0
	if res.Report != nil {
		rows = res.Report.Rows()
	}
	detail := map[string]any{
		"tool": name, "role": string(user.Role), "args": auditArgs(name, args), "rows": rows,
		"latency_us": res.Latency.Microseconds(), "refused": res.Refused,
	}
	if err != nil && !res.Refused {
		detail["error"] = domain.ErrorCode(err)
		if domain.ErrorCode(err) == domain.EINTERNAL {
			detail["error_text"] = clip(err.Error(), 200)
		}
	}
	kind := KindTool
	if res.Refused {
		kind = KindRefusal
	}
	t.Audit.Record(ctx, user.Phone, kind, name, detail)
}

func auditArgs(name string, args map[string]any) map[string]any {
	out := map[string]any{}
	spec, _ := specByName(name)
	for k, v := range args {
		if k != "offset" && !slices.ContainsFunc(spec.Parameters, func(p ParamSpec) bool { return p.Name == k }) {
			out["ignored"] = append(asStrings(out["ignored"]), clip(k, 40))
			continue
		}
		switch x := v.(type) {
		case string:
			out[k] = clip(x, 80)
		case []string:
			out[k] = clip(strings.Join(x, "|"), 80)
		case bool, int, int64, float64:
			out[k] = x
		default:
			out[k] = clip(fmt.Sprint(x), 80)
		}
	}
	return out
}

func asStrings(v any) []string {
	s, _ := v.([]string)
	return s
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

func cloneArgs(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// run parses the arguments, resolves names and reads the books.
func (t *Tools) run(ctx context.Context, user domain.User, name string, args map[string]any, c clock) (Report, map[string]any, error) {
	understood := map[string]any{}
	offset, err := intArg(args, "offset")
	if err != nil {
		return nil, understood, err
	}
	page := Page{Offset: int(max(offset, 0)), Limit: t.pageRows()}
	if page.Offset > 0 {
		understood["offset"] = page.Offset
	}
	switch name {
	case ToolCheckStock:
		return t.checkStock(ctx, args, page, understood)
	case ToolOutOfStock:
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
	}
	return nil, understood, domain.Errorf(domain.EINVALID, "There is no tool called %q.", name)
}

func (t *Tools) checkStock(ctx context.Context, args map[string]any, page Page, understood map[string]any) (Report, map[string]any, error) {
	qty, err := intArg(args, "quantity")
	if err != nil {
		return nil, understood, err
	}
	unit, _ := args["unit"].(string)
	products, err := t.resolve(ctx, productKind, args["product"], understood)
	if err != nil {
		return nil, understood, err
	}
	if len(products) == 0 {
		if qty > 0 {
			return nil, understood, domain.Errorf(domain.EINVALID, "Which product is the quantity for?")
		}
		tot, lines, err := t.Books.StockCatalog(ctx, page)
		return &CatalogStock{Totals: tot, Lines: lines, Offset: page.Offset}, understood, err
	}
	if qty > 0 && len(products) > 1 {
		return nil, understood, domain.Errorf(domain.EINVALID, "Which one do you mean: %s?", orList(products))
	}
	lines, err := t.Books.StockOf(ctx, ids(products))
	if err != nil {
		return nil, understood, err
	}
	if len(lines) == 0 {
		return nil, understood, domain.Errorf(domain.ENOTFOUND, "I couldn't find %s in the catalog.", orList(products))
	}
	check := &StockCheck{Lines: lines}
	if qty > 0 {
		units, err := baseUnits(qty, unit, lines[0])
		if err != nil {
			return nil, understood, err
		}
		check.Asked = units
		understood["quantity"] = units
	}
	return check, understood, nil
}

// baseUnits converts a quantity said in a unit of the product (its base
// unit or one of its packs) to base units.
func baseUnits(qty int64, unit string, l StockLine) (int64, error) {
	u := strings.ToLower(strings.TrimSpace(unit))
	if u == "" || u == l.Unit || u == domain.Plural(l.Unit, 2) || u == "unit" || u == "units" {
		return qty, nil
	}
	for _, p := range l.Packs {
		if u == strings.ToLower(p.Name) || u == domain.Plural(strings.ToLower(p.Name), 2) {
			if qty > math.MaxInt64/max(p.Units, 1) {
				return 0, domain.Errorf(domain.EINVALID, "That quantity is too large.")
			}
			return qty * p.Units, nil
		}
	}
	ways := []string{domain.Plural(l.Unit, 2)}
	for _, p := range l.Packs {
		ways = append(ways, fmt.Sprintf("%s of %d", domain.Plural(p.Name, 2), p.Units))
	}
	list := ways[0]
	if n := len(ways); n > 1 {
		list = strings.Join(ways[:n-1], ", ") + " or " + ways[n-1]
	}
	return 0, domain.Errorf(domain.EINVALID, "%s comes in %s, not %s.", l.Name, list, unit)
}

func (t *Tools) sales(ctx context.Context, name string, args map[string]any, page Page, understood map[string]any, c clock) (Report, map[string]any, error) {
	periodArg, _ := args["period"].(string)
	pname := DefaultPeriod
	if strings.TrimSpace(periodArg) != "" {
		if pname = canonicalPeriod(periodArg); pname == "" {
			return nil, understood, domain.Errorf(domain.EINVALID, "I don't know the period %q. Try today, yesterday, this week, last week, this month, last month or last 30 days.", clip(periodArg, 40))
		}
	}
	period, err := MakePeriod(pname, c.now, c.loc)
	if err != nil {
		return nil, understood, err
	}
	understood["period"] = pname
	s := &Sales{Period: period, By: ByCustomer, Top: name == ToolTopCustomers, Offset: page.Offset}
	q := SalesQuery{From: period.From, To: period.To, By: ByCustomer, UTCOffset: utcOffset(period.From), Page: page}
	if name == ToolSalesSummary {
		products, err := t.resolve(ctx, productKind, args["product"], understood)
		if err != nil {
			return nil, understood, err
		}
		if len(products) > 1 {
			return nil, understood, domain.Errorf(domain.EINVALID, "Which one do you mean: %s?", orList(products))
		}
		customers, err := t.resolve(ctx, customerKind, args["customer"], understood)
		if err != nil {
			return nil, understood, err
		}
		by, _ := args["by"].(string)
		switch SalesBy(strings.ToLower(strings.TrimSpace(by))) {
		case ByProduct:
			q.By = ByProduct
		case ByCustomer:
			q.By = ByCustomer
		case ByDay:
			q.By = ByDay
		case "":
			q.By = ByProduct
			if len(products) == 1 {
				q.By = ByCustomer // "who bought glass cleaner last week?"
			}
		default:
			return nil, understood, domain.Errorf(domain.EINVALID, "Sales can be shown by product, customer or day, not %q.", clip(by, 20))
		}
		understood["by"] = string(q.By)
		if len(products) == 1 {
			s.Product = &products[0]
			q.SKUs = ids(products)
		}
		s.Customers, q.CustomerIDs = customers, ids(customers)
		s.By = q.By
	}
	tot, lines, err := t.Books.SalesSummary(ctx, q)
	s.Totals, s.Lines = tot, lines
	return s, understood, err
}

func utcOffset(t time.Time) int {
	_, off := t.Zone()
	return off
}

type nameKind int

const (
	productKind nameKind = iota
	customerKind
)

// resolve turns a product or customer argument into what it names: ids as
// they are (a []string, from the deterministic path), or a name matched in
// the books (exact SKU or id, then name or alias) and by the Normalizer
// (aliases, Hindi spellings, typos). A name shared by a few (two Guptas)
// resolves to all of them. Nothing named is no filter.
func (t *Tools) resolve(ctx context.Context, kind nameKind, v any, understood map[string]any) ([]Named, error) {
	key := "product"
	match := t.Books.MatchProducts
	if kind == customerKind {
		key, match = "customer", t.Books.MatchCustomers
	}
	var out []Named
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []string:
		for _, id := range x[:min(len(x), 5)] {
			found, err := match(ctx, id, 1)
			if err != nil {
				return nil, err
			}
			if len(found) == 1 && found[0].ID == id {
				out = append(out, found[0])
			}
		}
		if len(out) == 0 && len(x) > 0 {
			return nil, domain.Errorf(domain.ENOTFOUND, "I couldn't find %s %s.", key, strings.Join(x, " or "))
		}
	case string:
		text := strings.TrimSpace(x)
		if text == "" {
			return nil, nil
		}
		found, err := match(ctx, text, 6)
		if err != nil {
			return nil, err
		}
		out = found
		if len(found) != 1 && t.Names != nil {
			var byName []Named
			for _, id := range t.entityIDs(kind, text) {
				f, err := match(ctx, id, 1)
				if err != nil {
					return nil, err
				}
				if len(f) == 1 && f[0].ID == id {
					byName = append(byName, f[0])
				}
			}
			if len(byName) > 0 {
				out = byName
			}
		}
		if len(out) == 0 {
			return nil, domain.Errorf(domain.ENOTFOUND, "I couldn't find a %s called %q.", key, clip(text, 40))
		}
		if len(out) > 5 {
			out = out[:5]
		}
	default:
		return nil, domain.Errorf(domain.EINVALID, "%s must be a name.", key)
	}
	understood[key] = ids(out)
	if len(out) == 1 {
		understood[key] = out[0].ID
	}
	return out, nil
}

func (t *Tools) entityIDs(kind nameKind, text string) []string {
	want := intent.EntityProduct
	if kind == customerKind {
		want = intent.EntityCustomer
	}
	for _, e := range t.Names.Normalize(text).Entities {
		if e.Kind == want {
			if len(e.IDs) > 0 {
				return e.IDs
			}
			return []string{e.ID}
		}
	}
	return nil
}

func ids(ns []Named) []string {
	if len(ns) == 0 {
		return nil
	}
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.ID
	}
	return out
}

func names(ns []Named) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Name)
	}
	return out
}

func orList(ns []Named) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprintf("%s (%s)", n.Name, n.ID)
	}
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// intArg reads a whole number from JSON (float64), Go ints or digits.
func intArg(args map[string]any, key string) (int64, error) {
	v, ok := args[key]
	if !ok || v == nil {
		return 0, nil
	}
	bad := domain.Errorf(domain.EINVALID, "%s must be a whole number.", key)
	switch x := v.(type) {
	case int:
		return int64(x), nil
	case int64:
		return x, nil
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1e15 {
			return 0, bad
		}
		return int64(x), nil
	case string:
		if strings.TrimSpace(x) == "" {
			return 0, nil
		}
		n, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(x), ",", ""), 10, 64)
		if err != nil {
			return 0, bad
		}
		return n, nil
	}
	return 0, bad
}

// Reply runs a call for a person and makes the WhatsApp reply, keeping the
// place for MORE when rows remain.
func (t *Tools) Reply(ctx context.Context, user domain.User, call Call) domain.Reply {
	reply, _ := t.ReplyKeys(ctx, user, call)
	return reply
}

// ErrorText is what a person reads when a call did not answer.
func ErrorText(res Result, err error) string {
	switch {
	case res.Refused:
		return res.Text
	case errors.Is(err, context.DeadlineExceeded):
		return "Sorry, the books took too long to answer. Please try again in a minute."
	case domain.ErrorCode(err) == domain.EINTERNAL:
		return "Sorry, I couldn't read the books just now. Please try again in a minute."
	}
	return domain.ErrorMessage(err)
}

func (t *Tools) remember(user domain.User, next map[string]any, tool string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if next == nil {
		delete(t.pages, user.Phone)
		return
	}
	if t.pages == nil {
		t.pages = map[string]continuation{}
	}
	ttl := t.MoreTTL
	if ttl <= 0 {
		ttl = DefaultMoreTTL
	}
	now := t.clock().now
	for phone, c := range t.pages { // forget what expired, so the map stays small
		if now.After(c.expires) {
			delete(t.pages, phone)
		}
	}
	t.pages[user.Phone] = continuation{tool: tool, args: next, expires: now.Add(ttl)}
}

// More continues the person's last answer that had more rows. It reports
// false when there is nothing to continue (or it expired).
func (t *Tools) More(ctx context.Context, user domain.User) (domain.Reply, bool) {
	t.mu.Lock()
	c, ok := t.pages[user.Phone]
	if ok {
		delete(t.pages, user.Phone)
	}
	t.mu.Unlock()
	if !ok || t.clock().now.After(c.expires) {
		return domain.Reply{}, false
	}
	return t.Reply(ctx, user, Call{Tool: c.tool, Args: c.args}), true
}

// IsMore reports whether a message asks for the rest of the last answer:
// "MORE", "more please", "aur", "aur dikhao", "next", "aage".
func IsMore(text string) bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return r == ' ' || r == '.' || r == '!' || r == ',' || r == '?' || r == '*'
	})
	if len(words) == 0 || len(words) > 3 {
		return false
	}
	saw := false
	for _, w := range words {
		switch w {
		case "more", "mor", "aur", "next", "aage", "baaki", "baki", "rest", "और", "आगे":
			saw = true
		case "please", "pls", "plz", "dikhao", "batao", "show", "the", "send", "bhejo", "ji", "sir":
		default:
			return false
		}
	}
	return saw
}
