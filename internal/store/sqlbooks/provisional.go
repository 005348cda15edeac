package sqlbooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erpsync"
	"github.com/munshi/munshi/orders"
)

// Once the ERP owns a figure, what the chat records against it moves it
// at once and is written down as provisional too. The books keep, for
// each SKU and each customer,
//
//	figure = the ERP's last value + Σ unsettled provisional entries
//
// so a sync sets the ERP's value plus what is still provisional, and an
// entry the ERP's data shows (settled) takes its part out of the figure
// in the same transaction: from then on the ERP's value carries it.

// Kinds of provisional entry.
const (
	provPayment  = "payment"  // dues, amount negative
	provOrder    = "order"    // dues, a credit order's amount (or a change to it)
	provReceipt  = "receipt"  // stock, qty positive
	provDelivery = "delivery" // stock, qty negative
)

// provisionalEntry is one row of provisional, as written.
type provisionalEntry struct {
	figure     erpsync.Figure
	kind       string
	customerID string
	sku        string
	amount     domain.Paise
	qty        int64
	wip        int64 // a receipt from production: the move out of WIP
	reference  string
	paymentID  int64 // 0: none
	at         time.Time
}

func addProvisional(ctx context.Context, tx *dbTx, e provisionalEntry) error {
	var payment any
	if e.paymentID != 0 {
		payment = e.paymentID
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO provisional (figure, kind, customer_id, sku, amount_paise, qty, wip_qty, reference, payment_id, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, string(e.figure), e.kind, e.customerID, e.sku, int64(e.amount), e.qty, e.wip, e.reference,
		payment, formatTime(e.at))
	if err != nil {
		return fmt.Errorf("provisional %s: %w", e.kind, err)
	}
	return nil
}

// ownedFigures reads the figures the ERP owns, inside q's transaction: a
// chat change and the first sync of a figure cannot pass each other.
func ownedFigures(ctx context.Context, q querier) (map[erpsync.Figure]bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT figure FROM sync_figures`)
	if err != nil {
		return nil, fmt.Errorf("owned figures: %w", err)
	}
	defer rows.Close()
	out := map[erpsync.Figure]bool{}
	for rows.Next() {
		var f string
		if err := rows.Scan(&f); err != nil {
			return nil, err
		}
		out[erpsync.Figure(f)] = true
	}
	return out, rows.Err()
}

// recordProvisional writes what a settlement's changes did to figures the
// ERP owns: goods received and delivered (stock), payments and changes to
// a credit order's amount (dues). proposal names a receipt; a delivery or
// a cancellation names its order. paid maps a payment change's index to
// the payment row it wrote.
func recordProvisional(ctx context.Context, tx *dbTx, proposal string, changes []orders.Change, paid map[int]int64, at time.Time) error {
	own, err := ownedFigures(ctx, tx)
	if err != nil || len(own) == 0 {
		return err
	}
	var orderID string
	for _, c := range changes {
		if c.Kind == orders.ChangeDeliver || c.Kind == orders.ChangeCancel {
			orderID = c.OrderID
		}
	}
	for _, c := range changes {
		switch {
		case c.Kind == orders.ChangeStock && own[erpsync.FigureStock] && c.Ready != 0:
			e := provisionalEntry{figure: erpsync.FigureStock, sku: c.SKU, qty: c.Ready, wip: c.WIP, at: at, kind: provReceipt, reference: proposal}
			if c.Ready < 0 {
				e.kind, e.reference = provDelivery, orderID
				if err := tx.QueryRowContext(ctx, `SELECT customer_id FROM orders WHERE id = ?`, orderID).Scan(&e.customerID); err != nil && !errors.Is(err, sql.ErrNoRows) {
					return err
				}
			}
			if err := addProvisional(ctx, tx, e); err != nil {
				return err
			}
		case c.Kind == orders.ChangeDue && own[erpsync.FigureDues] && c.Amount != 0:
			if j := paymentChange(changes, c.CustomerID); j >= 0 {
				if err := addProvisional(ctx, tx, provisionalEntry{figure: erpsync.FigureDues, kind: provPayment, customerID: c.CustomerID,
					amount: c.Amount, reference: changes[j].Reference, paymentID: paid[j], at: at}); err != nil {
					return err
				}
				continue
			}
			if err := amendOrder(ctx, tx, orderID, c.CustomerID, c.Amount, at); err != nil {
				return err
			}
		}
	}
	return nil
}

// paymentChange is the index of the payment change of the customer's
// among changes, or -1.
func paymentChange(changes []orders.Change, customerID string) int {
	for i, c := range changes {
		if c.Kind == orders.ChangePayment && c.CustomerID == customerID {
			return i
		}
	}
	return -1
}

// provisionalOrder notes a credit order's amount as provisional dues, if
// the ERP owns them.
func provisionalOrder(ctx context.Context, tx *dbTx, orderID, customerID string, total domain.Paise, at time.Time) error {
	own, err := ownedFigures(ctx, tx)
	if err != nil || !own[erpsync.FigureDues] {
		return err
	}
	return addProvisional(ctx, tx, provisionalEntry{figure: erpsync.FigureDues, kind: provOrder, customerID: customerID,
		amount: total, reference: orderID, at: at})
}

// amendOrder records a change to a credit order's dues (a delivery
// re-priced it, a cancellation reversed it). While the order's own entry
// is unsettled the bill to come is for the amended amount, so the entry
// takes the change, and one brought to nothing is settled as moot;
// otherwise the change is an entry of its own.
func amendOrder(ctx context.Context, tx *dbTx, orderID, customerID string, delta domain.Paise, at time.Time) error {
	var id, amount int64
	err := tx.QueryRowContext(ctx, `SELECT id, amount_paise FROM provisional WHERE figure = 'dues' AND kind = 'order' AND reference = ?
		AND customer_id = ? AND settled_at IS NULL AND reference <> '' ORDER BY id LIMIT 1`, orderID, customerID).Scan(&id, &amount)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return addProvisional(ctx, tx, provisionalEntry{figure: erpsync.FigureDues, kind: provOrder, customerID: customerID,
			amount: delta, reference: orderID, at: at})
	case err != nil:
		return err
	case amount+int64(delta) == 0:
		_, err = tx.ExecContext(ctx, `UPDATE provisional SET settled_at = ?, settled_by = ? WHERE id = ?`,
			formatTime(at), "cancelled:"+orderID, id)
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE provisional SET amount_paise = ? WHERE id = ?`, amount+int64(delta), id)
	return err
}

// settleMatch settles the oldest unsettled entry that where (with args)
// matches as shown by the ERP row key, unless that row settled one
// already, and takes the entry's part out of its figure. It reports
// whether it settled one.
func settleMatch(ctx context.Context, tx *dbTx, key string, at time.Time, where string, args ...any) (bool, error) {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM provisional WHERE settled_by = ?`, key).Scan(&n); err != nil || n > 0 {
		return false, err
	}
	var id, amount, qty int64
	var figure, customer, sku string
	err := tx.QueryRowContext(ctx, `SELECT id, figure, customer_id, sku, amount_paise, qty FROM provisional
		WHERE settled_at IS NULL AND `+where+` ORDER BY at, id LIMIT 1`, args...).Scan(&id, &figure, &customer, &sku, &amount, &qty)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE provisional SET settled_at = ?, settled_by = ? WHERE id = ?`, formatTime(at), key, id); err != nil {
		return false, err
	}
	switch erpsync.Figure(figure) {
	case erpsync.FigureDues:
		_, err = tx.ExecContext(ctx, `UPDATE customers SET outstanding_paise = outstanding_paise - ? WHERE id = ?`, amount, customer)
	case erpsync.FigureStock:
		_, err = tx.ExecContext(ctx, `UPDATE products SET stock_ready = stock_ready - ? WHERE sku = ?`, qty, sku)
	}
	return err == nil, err
}

// within is the [from, to] of times as stored, days either side of t.
func within(t time.Time, days int) (string, string) {
	d := time.Duration(days) * 24 * time.Hour
	return formatTime(t.Add(-d)), formatTime(t.Add(d))
}

// pendingQty is Σ unsettled provisional stock of a SKU.
func pendingQty(ctx context.Context, tx *dbTx, sku string) (int64, error) {
	var n int64
	err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(qty), 0) FROM provisional WHERE figure = 'stock' AND sku = ? AND settled_at IS NULL`, sku).Scan(&n)
	return n, err
}

// pendingWIP is Σ unsettled provisional moves out of a SKU's work in
// progress (goods the chat recorded as made).
func pendingWIP(ctx context.Context, tx *dbTx, sku string) (int64, error) {
	var n int64
	err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(wip_qty), 0) FROM provisional WHERE figure = 'stock' AND sku = ? AND settled_at IS NULL`, sku).Scan(&n)
	return n, err
}

// pendingDues is Σ unsettled provisional dues of a customer.
func pendingDues(ctx context.Context, tx *dbTx, customerID string) (domain.Paise, error) {
	var n int64
	err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(amount_paise), 0) FROM provisional WHERE figure = 'dues' AND customer_id = ? AND settled_at IS NULL`,
		customerID).Scan(&n)
	return domain.Paise(n), err
}

// Owned reports the figures the ERP owns.
func (s *Store) Owned(ctx context.Context) ([]erpsync.Figure, error) {
	own, err := ownedFigures(ctx, s.read)
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: %w", err)
	}
	var out []erpsync.Figure
	for f := range own {
		out = append(out, f)
	}
	slices.Sort(out)
	return out, nil
}

const provisionalColumns = `id, figure, kind, customer_id, sku, amount_paise, qty, reference, at, flagged_at`

func scanProvisional(rows *sql.Rows) (erpsync.Provisional, error) {
	var p erpsync.Provisional
	var figure, at string
	var amount int64
	var flagged sql.NullString
	if err := rows.Scan(&p.ID, &figure, &p.Kind, &p.CustomerID, &p.SKU, &amount, &p.Qty, &p.Reference, &at, &flagged); err != nil {
		return p, err
	}
	p.Figure, p.Amount, p.At, p.Flagged = erpsync.Figure(figure), domain.Paise(amount), parseTime(at), flagged.Valid
	return p, nil
}

func provisionalIn(ctx context.Context, q querier, where string, args ...any) ([]erpsync.Provisional, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+provisionalColumns+` FROM provisional WHERE settled_at IS NULL`+where+` ORDER BY at, id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []erpsync.Provisional
	for rows.Next() {
		p, err := scanProvisional(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Unsettled returns the provisional entries not yet settled, oldest first.
func (s *Store) Unsettled(ctx context.Context) ([]erpsync.Provisional, error) {
	out, err := provisionalIn(ctx, s.read, "")
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: unsettled: %w", err)
	}
	return out, nil
}

// FlagUnsettled marks the unsettled entries made before cutoff and not yet
// flagged as flagged, with tell's effects in the outbox in the same
// transaction, and returns them: each is flagged once, whichever
// instance runs it.
func (s *Store) FlagUnsettled(ctx context.Context, cutoff time.Time, tell func([]erpsync.Provisional) []domain.Effect) ([]erpsync.Provisional, error) {
	var out []erpsync.Provisional
	err := s.inTx(ctx, func(tx *dbTx) error {
		var err error
		if out, err = provisionalIn(ctx, tx, ` AND flagged_at IS NULL AND at < ?`, formatTime(cutoff)); err != nil || len(out) == 0 {
			return err
		}
		now := formatTime(s.Now())
		for i := range out {
			if _, err := tx.ExecContext(ctx, `UPDATE provisional SET flagged_at = ? WHERE id = ?`, now, out[i].ID); err != nil {
				return err
			}
			out[i].Flagged = true
		}
		if tell == nil {
			return nil
		}
		return s.enqueueTx(ctx, tx, tell(out)...)
	})
	if err != nil {
		return nil, fmt.Errorf("sqlbooks: flag unsettled: %w", err)
	}
	return out, nil
}
