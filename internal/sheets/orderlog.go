package sheets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/outbox"
)

// OrdersTab is the tab the order log is written to.
const OrdersTab = "Orders"

// Header is the order log's first row. The first three columns (order,
// line, status) are what Munshi finds an order's rows by; the rest is for
// people, and is written whole each time.
var Header = []string{"Order", "Line", "Status", "Date", "Time", "Customer ID", "Customer", "Placed by",
	"SKU", "Product", "Qty (base units)", "Unit", "Qty as said", "Price (₹ per unit)", "GST %", "GST (₹)",
	"Amount before GST (₹)", "Order total (₹)", "Payment", "Short (base units)", "Updated"}

// lastColumn is the letter of the header's last column.
var lastColumn = string(rune('A' + len(Header) - 1))

// maxCellRunes cuts text a cell holds: Google refuses cells over 50,000
// characters, and nothing Munshi writes needs more than a name.
const maxCellRunes = 500

// OrderLog is the outbox's sender of domain.EffectSheets: it writes each
// order to the Orders tab, one row per line, many orders in one request.
//
// Writes are idempotent, so a retry never duplicates a row, even after an
// append Google applied whose answer was lost: every batch first reads
// the tab's order, line and status columns, then rewrites in place the
// rows of lines already there (values.batchUpdate) and appends only the
// lines that are not (values.append). An order's later state (delivered,
// cancelled) thus updates its rows, and a write of an earlier state that
// arrives late (committed, after delivered) leaves the newer rows alone.
type OrderLog struct {
	Sheet    *Client
	Location *time.Location // the business's time zone, for the dates people read
	Logger   *slog.Logger
	// Owners, when set, are told once when the spreadsheet refuses
	// Munshi (not shared, a wrong key), and that it works again.
	Owners *Owners
	// Exclusive, when set, runs each batch's read and writes so that no
	// other instance sharing the books writes the tab meanwhile: two
	// batches that both found an order's lines missing would both append
	// them.
	Exclusive func(ctx context.Context, name string, fn func(context.Context) error) error
}

var (
	_ outbox.BatchSender = (*OrderLog)(nil)
	_ outbox.Patient     = (*OrderLog)(nil)
)

// Patience: a row waits up to 30 days for Google before it is given up,
// which a month's outage or a sheet left unshared that long would take.
func (l *OrderLog) Patience() time.Duration { return 30 * 24 * time.Hour }

// SendPayload writes one order.
func (l *OrderLog) SendPayload(ctx context.Context, payload []byte) (string, error) {
	r := l.SendBatch(ctx, [][]byte{payload})[0]
	return r.ProviderID, r.Err
}

// badPayload is a payload that is not a logged order: it never will be.
type badPayload struct{ err error }

func (b badPayload) Error() string  { return "sheets: not an order to log: " + b.err.Error() }
func (badPayload) Permanent() bool  { return true }
func (b badPayload) Reason() string { return "not an order to log" }
func (b badPayload) Unwrap() error  { return b.err }

// lineKey finds a line's rows.
type lineKey struct {
	order string
	line  int
}

// rank orders an order's states: a write never replaces a later one.
func rank(status string) int {
	switch domain.OrderStatus(strings.ToLower(strings.TrimSpace(status))) {
	case domain.OrderCommitted:
		return 1
	case domain.OrderDelivered, domain.OrderCancelled:
		return 2
	}
	return 0
}

// SendBatch writes the orders of payloads: the newest state of each order
// named more than once, in one read and at most two writes. A request
// Google refuses as bad (400) for several orders is tried again in
// halves, so that one order it cannot take does not hold the others back.
func (l *OrderLog) SendBatch(ctx context.Context, payloads [][]byte) []outbox.Result {
	results := make([]outbox.Result, len(payloads))
	byOrder := map[string][]int{} // payload indexes, by order
	newest := map[string]domain.LoggedOrder{}
	var order []string
	for i, p := range payloads {
		var lo domain.LoggedOrder
		err := json.Unmarshal(p, &lo)
		if err == nil && lo.ID == "" {
			err = errors.New("no order id")
		}
		if err != nil {
			results[i].Err = badPayload{err}
			continue
		}
		prev, seen := newest[lo.ID]
		if !seen {
			order = append(order, lo.ID)
		}
		if !seen || rank(string(lo.Status)) > rank(string(prev.Status)) ||
			(rank(string(lo.Status)) == rank(string(prev.Status)) && !lo.ChangedAt.Before(prev.ChangedAt)) {
			newest[lo.ID] = lo
		}
		byOrder[lo.ID] = append(byOrder[lo.ID], i)
	}
	los := make([]domain.LoggedOrder, len(order))
	for i, id := range order {
		los[i] = newest[id]
	}
	var outcomes []outbox.Result
	write := func(ctx context.Context) error {
		outcomes = l.write(ctx, los)
		return nil
	}
	if l.Exclusive == nil {
		write(ctx)
	} else if err := l.Exclusive(ctx, "sheets order log", write); err != nil {
		// Not one row was written: every order waits for the next try.
		outcomes = make([]outbox.Result, len(los))
		for i := range outcomes {
			outcomes[i].Err = err
		}
	}
	for i, id := range order {
		for _, j := range byOrder[id] {
			results[j] = outcomes[i]
		}
	}
	return results
}

// write writes orders and says what became of each.
func (l *OrderLog) write(ctx context.Context, los []domain.LoggedOrder) []outbox.Result {
	out := make([]outbox.Result, len(los))
	if len(los) == 0 {
		return out
	}
	where, err := l.writeAll(ctx, los)
	var e *Error
	if errors.As(err, &e) && e.badRequest() {
		if len(los) > 1 {
			// Halves, until the order Google refuses stands alone.
			half := len(los) / 2
			copy(out, l.write(ctx, los[:half]))
			copy(out[half:], l.write(ctx, los[half:]))
			return out
		}
		err = refused{e}
	}
	l.tell(ctx, err)
	for i, lo := range los {
		out[i] = outbox.Result{ProviderID: where[lo.ID], Err: err}
	}
	return out
}

// refused is an order Google refuses as a bad request: it is given up.
type refused struct{ e *Error }

func (r refused) Error() string { return r.e.Error() }
func (refused) Permanent() bool { return true }
func (r refused) Reason() string {
	return "Google refused the order's rows as a bad request (Google 400)"
}
func (r refused) Unwrap() error { return r.e }

// tell lets the owners know when the spreadsheet starts or stops
// refusing Munshi.
func (l *OrderLog) tell(ctx context.Context, err error) {
	if l.Owners == nil {
		return
	}
	var e *Error
	if err != nil && errors.As(err, &e) && e.Held() {
		l.Owners.Tell(ctx, "orders", e.Code(), fmt.Sprintf("⚠️ Munshi cannot write orders to the Google Sheet: %s. "+
			"Orders are safe in Munshi and go into the sheet as soon as it works again.", e.Reason()))
		return
	}
	if err == nil {
		l.Owners.Clear(ctx, "orders", "✅ Munshi is writing orders to the Google Sheet again; the ones that waited are in.")
	}
}

// writeAll writes the orders in one read and at most two writes, and
// returns where each went ("Orders!12:14").
func (l *OrderLog) writeAll(ctx context.Context, los []domain.LoggedOrder) (map[string]string, error) {
	if err := l.Sheet.EnsureTab(ctx, OrdersTab); err != nil {
		return nil, err
	}
	// Unformatted: a line number the office formats as "1.00" still reads 1.
	keys, err := l.Sheet.values(ctx, A1(OrdersTab, "A1:C"), "UNFORMATTED_VALUE")
	if err != nil {
		return nil, err
	}
	rows := map[lineKey][]int{} // 1-based row numbers
	status := map[int]int{}     // row → rank of what it holds
	for i, k := range keys {
		if i == 0 || len(k) < 2 {
			continue // the header, or a row that is not a line
		}
		n, err := strconv.Atoi(strings.TrimSpace(k[1]))
		if err != nil {
			continue
		}
		key := lineKey{strings.TrimSpace(k[0]), n}
		rows[key] = append(rows[key], i+1)
		if len(k) > 2 {
			status[i+1] = rank(k[2])
		}
	}
	var updates []Range
	if len(keys) == 0 || len(keys[0]) == 0 {
		updates = append(updates, Range{A1: A1(OrdersTab, "A1:"+lastColumn+"1"), Values: [][]any{headerRow()}})
	}
	var appends [][]any
	at := map[string][]int{}      // rows an order is on, by order
	appended := map[string]bool{} // orders with lines appended
	for _, lo := range los {
		for i, ln := range lo.Lines {
			row := l.row(lo, i, ln)
			found := rows[lineKey{lo.ID, i + 1}]
			if len(found) == 0 {
				appends = append(appends, row)
				appended[lo.ID] = true
				continue
			}
			if len(found) > 1 {
				l.Logger.Warn("sheets: a line of an order is on several rows of the Orders tab; each is updated", "order", lo.ID,
					"line", i+1, "rows", found)
			}
			for _, r := range found {
				at[lo.ID] = append(at[lo.ID], r)
				if status[r] > rank(string(lo.Status)) {
					continue // the row already shows a later state
				}
				updates = append(updates, Range{A1: A1(OrdersTab, fmt.Sprintf("A%d:%s%d", r, lastColumn, r)), Values: [][]any{row}})
			}
		}
	}
	if err := l.Sheet.Update(ctx, updates); err != nil {
		return nil, err
	}
	rng, err := l.Sheet.Append(ctx, OrdersTab, appends)
	if err != nil {
		return nil, err
	}
	where := map[string]string{}
	for _, lo := range los {
		var parts []string
		if len(at[lo.ID]) > 0 {
			parts = append(parts, rowList(at[lo.ID]))
		}
		if appended[lo.ID] {
			parts = append(parts, "appended to "+rng)
		}
		where[lo.ID] = strings.Join(parts, "; ")
	}
	return where, nil
}

// rowList names the rows an order is on: "Orders rows 12,13".
func rowList(rows []int) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = strconv.Itoa(r)
	}
	return OrdersTab + " rows " + strings.Join(parts, ",")
}

func headerRow() []any {
	row := make([]any, len(Header))
	for i, h := range Header {
		row[i] = h
	}
	return row
}

// row is line i of an order as the tab shows it.
func (l *OrderLog) row(lo domain.LoggedOrder, i int, ln domain.LoggedLine) []any {
	loc := l.Location
	if loc == nil {
		loc = domain.DefaultLocation()
	}
	placed := lo.PlacedAt.In(loc)
	said := ""
	if ln.SaidQty > 0 {
		said = strconv.FormatInt(ln.SaidQty, 10)
		if ln.SaidUnit != "" {
			said += " " + ln.SaidUnit
		}
	}
	date, clock := "", ""
	if !lo.PlacedAt.IsZero() {
		date, clock = placed.Format("2006-01-02"), placed.Format("15:04")
	}
	updated := ""
	if !lo.ChangedAt.IsZero() {
		updated = lo.ChangedAt.In(loc).Format("2006-01-02 15:04")
	}
	return []any{
		text(lo.ID), i + 1, text(string(lo.Status)), date, clock, text(lo.CustomerID), text(lo.CustomerName), text(lo.PlacedBy),
		text(ln.SKU), text(ln.Product), ln.Qty, text(ln.Unit), text(said), rupees(ln.Price), percent(ln.GSTRate),
		rupees(ln.GSTAmount), rupees(ln.Amount), rupees(lo.Total), text(string(lo.Payment)), ln.Short, updated,
	}
}

// text is a value fit for a cell: control characters (which would break
// the sheet's rows for people) become spaces, and it is cut to
// maxCellRunes. Values are written RAW, so "=…" stays text, never a
// formula.
func text(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s)
	if r := []rune(s); len(r) > maxCellRunes {
		s = string(r[:maxCellRunes-1]) + "…"
	}
	return s
}

// rupees is paise as a number of rupees with two decimals, exact.
func rupees(p domain.Paise) json.Number {
	sign := ""
	if p < 0 {
		sign, p = "-", -p
	}
	return json.Number(fmt.Sprintf("%s%d.%02d", sign, int64(p)/100, int64(p)%100))
}

// percent is a GST rate as a number of percent: 18, 2.5.
func percent(g domain.GSTRate) json.Number {
	s := strconv.FormatFloat(float64(g)/100, 'f', -1, 64)
	return json.Number(s)
}
