package sqlbooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/erpsync"
)

// The ERP's history: bills, sales, open orders, payments and goods
// received, each imported by its key and settling the provisional entries
// of the chat's that it shows.

// billSlack is how far a bill's amount may be from a credit order's and
// still be its bill: ₹1 of rounding.
const billSlack = 100

// SyncBills upserts bills by number and settles the provisional credit
// orders they match; full says the rows are every unpaid bill, so a bill
// not among them has nothing left to pay.
func (s *Store) SyncBills(ctx context.Context, b erpsync.Batch, bills []erpsync.Bill, full bool, settle erpsync.Settle) (domain.Tally, error) {
	var t domain.Tally
	keys := make([]string, len(bills))
	for i, bl := range bills {
		keys[i] = bl.Number
	}
	if err := distinct("bill", keys); err != nil {
		return t, fmt.Errorf("sqlbooks: sync bills: %w", err)
	}
	at := s.settleTime(settle)
	now := formatTime(s.Now())
	err := s.syncWrite(ctx, "sync bills", b, nil, func(tx *dbTx) error {
		t = domain.Tally{}
		for _, bl := range bills {
			if err := knownCustomer(ctx, tx, bl.CustomerID, "bill "+bl.Number); err != nil {
				return err
			}
			var customer, date string
			var amount, balance int64
			err := tx.QueryRowContext(ctx, `SELECT customer_id, date, amount_paise, balance_paise FROM bills WHERE number = ?`, bl.Number).Scan(
				&customer, &date, &amount, &balance)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				if _, err := tx.ExecContext(ctx, `INSERT INTO bills (number, customer_id, date, amount_paise, balance_paise, synced_at)
					VALUES (?, ?, ?, ?, ?, ?)`, bl.Number, bl.CustomerID, formatTime(bl.Date), int64(bl.Amount), int64(bl.Balance), now); err != nil {
					return fmt.Errorf("bill %s: %w", bl.Number, err)
				}
				t.Added++
			case err != nil:
				return err
			case customer == bl.CustomerID && date == formatTime(bl.Date) && amount == int64(bl.Amount) && balance == int64(bl.Balance):
				t.Unchanged++
			default:
				if _, err := tx.ExecContext(ctx, `UPDATE bills SET customer_id = ?, date = ?, amount_paise = ?, balance_paise = ?, synced_at = ?
					WHERE number = ?`, bl.CustomerID, formatTime(bl.Date), int64(bl.Amount), int64(bl.Balance), now, bl.Number); err != nil {
					return fmt.Errorf("bill %s: %w", bl.Number, err)
				}
				t.Updated++
			}
			from, to := within(bl.Date, settle.Days)
			if _, err := settleMatch(ctx, tx, "bill:"+bl.Number, at, `figure = 'dues' AND kind = 'order' AND customer_id = ?
				AND amount_paise BETWEEN ? AND ? AND at >= ? AND at <= ?`,
				bl.CustomerID, int64(bl.Amount)-billSlack, int64(bl.Amount)+billSlack, from, to); err != nil {
				return err
			}
		}
		if !full {
			return nil
		}
		res, err := tx.ExecContext(ctx, `UPDATE bills SET balance_paise = 0, synced_at = ?
			WHERE balance_paise <> 0 AND number NOT IN (`+s.e.jsonStrings()+`)`, now, jsonList(keys))
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		t.Updated += int(n)
		return nil
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}

// importERPOrders imports orders as history (ImportHistory's rules) and
// notes which ERP entity wrote them.
func (s *Store) importERPOrders(ctx context.Context, tx *dbTx, entity string, orders []domain.Order, ids []string) (domain.Tally, error) {
	for _, o := range orders {
		if err := knownCustomer(ctx, tx, o.CustomerID, "order "+o.ID); err != nil {
			return domain.Tally{}, err
		}
		for _, l := range o.Lines {
			if err := knownProduct(ctx, tx, l.SKU, "order "+o.ID); err != nil {
				return domain.Tally{}, err
			}
		}
	}
	clash := &domain.HistoryClash{}
	t, err := importOrders(ctx, tx, orders, clash)
	if err != nil {
		return t, err
	}
	if len(clash.Orders) > 0 {
		return t, clash
	}
	_, err = tx.ExecContext(ctx, `UPDATE orders SET erp_entity = ? WHERE source = ? AND erp_entity <> ?
		AND id IN (`+s.e.jsonStrings()+`)`, entity, sourceImport, entity, jsonList(ids))
	return t, err
}

// SyncSales imports the ERP's sales as history, pairs the chat's orders
// the ERP shows as its own with them (twinChatOrders), and settles the
// provisional deliveries their lines show (same SKU, quantity delivered
// and customer, within settle.Days) and, while no bills are synced to
// settle them, the credit orders they show (same customer, total within
// ₹1, within settle.Days).
func (s *Store) SyncSales(ctx context.Context, b erpsync.Batch, orders []domain.Order, settle erpsync.Settle) (domain.Tally, error) {
	var t domain.Tally
	ids := orderIDs(orders)
	if err := distinct("order", ids); err != nil {
		return t, fmt.Errorf("sqlbooks: sync sales: %w", err)
	}
	at := s.settleTime(settle)
	err := s.syncWrite(ctx, "sync sales", b, nil, func(tx *dbTx) error {
		var err error
		if t, err = s.importERPOrders(ctx, tx, erpSales, orders, ids); err != nil {
			return err
		}
		if err := twinChatOrders(ctx, tx, orders, settle.Days); err != nil {
			return err
		}
		var bills int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sync_states WHERE entity = ?`, string(erpsync.Bills)).Scan(&bills); err != nil {
			return err
		}
		for _, o := range orders {
			if o.Status == domain.OrderCancelled {
				continue
			}
			when := o.DeliveredAt
			if when.IsZero() {
				when = o.CreatedAt
			}
			from, to := within(when, settle.Days)
			for i, l := range o.Lines {
				q := l.Qty - l.Short
				if q <= 0 {
					continue
				}
				if _, err := settleMatch(ctx, tx, "sale:"+o.ID+"#"+strconv.Itoa(i+1), at, `figure = 'stock' AND kind = 'delivery'
					AND sku = ? AND qty = ? AND customer_id = ? AND at >= ? AND at <= ?`, l.SKU, -q, o.CustomerID, from, to); err != nil {
					return err
				}
			}
			if bills > 0 {
				continue
			}
			from, to = within(o.CreatedAt, settle.Days)
			if _, err := settleMatch(ctx, tx, "sale:"+o.ID, at, `figure = 'dues' AND kind = 'order' AND customer_id = ?
				AND amount_paise BETWEEN ? AND ? AND at >= ? AND at <= ?`,
				o.CustomerID, int64(o.Total)-billSlack, int64(o.Total)+billSlack, from, to); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}

// closedInERP is the note on an ERP order that is no longer open there.
const closedInERP = "no longer open in the ERP"

// SyncOpenOrders imports the ERP's open orders as history; full says they
// are every one, so an open order an earlier run brought that is not
// among them is closed (cancelled, with a note: had it become a sale, the
// sales entity brings it back as one).
func (s *Store) SyncOpenOrders(ctx context.Context, b erpsync.Batch, orders []domain.Order, full bool, settle erpsync.Settle) (domain.Tally, error) {
	var t domain.Tally
	ids := orderIDs(orders)
	if err := distinct("order", ids); err != nil {
		return t, fmt.Errorf("sqlbooks: sync open orders: %w", err)
	}
	now := formatTime(s.Now())
	err := s.syncWrite(ctx, "sync open orders", b, nil, func(tx *dbTx) error {
		var err error
		if t, err = s.importERPOrders(ctx, tx, erpOpenOrders, orders, ids); err != nil {
			return err
		}
		if err := twinChatOrders(ctx, tx, orders, settle.Days); err != nil {
			return err
		}
		if !full {
			return nil
		}
		res, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'cancelled', cancelled_at = ?, note = ?
			WHERE source = ? AND erp_entity = ? AND status = 'committed' AND id NOT IN (`+s.e.jsonStrings()+`)`,
			now, closedInERP, sourceImport, erpOpenOrders, jsonList(ids))
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		t.Updated += int(n)
		if n == 0 {
			return nil
		}
		// An open order the ERP closed was often billed as a sale that an
		// earlier run brought: a chat order paired with it pairs with that.
		return retwinChatOrders(ctx, tx, settle.Days)
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}

func orderIDs(orders []domain.Order) []string {
	ids := make([]string, len(orders))
	for i, o := range orders {
		ids[i] = o.ID
	}
	return ids
}

// erpPaymentKey is how the ERP's payment is known on the next run: its
// reference whatever its case, or without one its date, amount and mode.
func erpPaymentKey(p domain.Payment) string {
	if p.Reference != "" {
		return "ref:" + strings.ToUpper(p.Reference)
	}
	return "at:" + formatTime(p.ReceivedAt) + "|" + strconv.FormatInt(int64(p.Amount), 10) + "|" + string(p.Mode)
}

// SyncPayments writes the ERP's payments, each once: a payment the books
// already hold as the ERP's (payments.source_key) is updated in place; one
// the chat recorded — the same reference, whatever its case, or the same
// amount within settle.Days where the references do not differ — becomes
// that one row: it keeps its time and who recorded it, takes the ERP's
// amount and mode and its key, and its provisional entry is settled; any
// other is added as imported history. So a chat payment and the ERP's
// count once in every sum of payments.
func (s *Store) SyncPayments(ctx context.Context, b erpsync.Batch, ps []domain.Payment, settle erpsync.Settle) (domain.Tally, error) {
	var t domain.Tally
	keys := make([]string, len(ps))
	for i, p := range ps {
		keys[i] = p.CustomerID + " " + erpPaymentKey(p)
	}
	if err := distinct("payment", keys); err != nil {
		return t, fmt.Errorf("sqlbooks: sync payments: %w", err)
	}
	at := s.settleTime(settle)
	err := s.syncWrite(ctx, "sync payments", b, nil, func(tx *dbTx) error {
		t = domain.Tally{}
		for _, p := range ps {
			if err := knownCustomer(ctx, tx, p.CustomerID, "a payment"); err != nil {
				return err
			}
			if p.Amount <= 0 {
				return domain.Errorf(domain.EINVALID, "a payment of %s of %s: want an amount above zero", p.CustomerID, p.Amount)
			}
			id, changed, err := s.syncPayment(ctx, tx, p, settle.Days)
			if err != nil {
				return fmt.Errorf("payment of %s: %w", p.CustomerID, err)
			}
			switch {
			case id == 0:
				t.Added++
				continue
			case changed:
				t.Updated++
			default:
				t.Unchanged++
			}
			if _, err := settleMatch(ctx, tx, "payment:"+p.CustomerID+":"+erpPaymentKey(p), at,
				`figure = 'dues' AND kind = 'payment' AND payment_id = ?`, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}

// syncPayment writes one ERP payment and returns the row it found for it
// (0 when it added one) and whether that row changed.
func (s *Store) syncPayment(ctx context.Context, tx *dbTx, p domain.Payment, days int) (int64, bool, error) {
	key := erpPaymentKey(p)
	var id, amount int64
	var mode, receivedAt, ref, source string
	// The ERP's payment, from an earlier run.
	err := tx.QueryRowContext(ctx, `SELECT id, amount_paise, mode, received_at, reference, source FROM payments
		WHERE customer_id = ? AND source_key = ?`, p.CustomerID, key).Scan(&id, &amount, &mode, &receivedAt, &ref, &source)
	if err == nil {
		if source != sourceImport {
			// The chat's payment it became: its time and reference stay.
			receivedAt, ref = formatTime(p.ReceivedAt), p.Reference
		}
		if amount == int64(p.Amount) && mode == string(p.Mode) && receivedAt == formatTime(p.ReceivedAt) && ref == p.Reference {
			return id, false, nil
		}
		if source != sourceImport {
			_, err = tx.ExecContext(ctx, `UPDATE payments SET amount_paise = ?, mode = ? WHERE id = ?`, int64(p.Amount), string(p.Mode), id)
		} else {
			_, err = tx.ExecContext(ctx, `UPDATE payments SET amount_paise = ?, mode = ?, received_at = ?, reference = ? WHERE id = ?`,
				int64(p.Amount), string(p.Mode), formatTime(p.ReceivedAt), p.Reference, id)
		}
		return id, true, err
	} else if !errors.Is(err, sql.ErrNoRows) {
		return 0, false, err
	}
	// A payment of the same reference: the chat's, or a history file's.
	if p.Reference != "" {
		err := tx.QueryRowContext(ctx, `SELECT id, amount_paise, mode FROM payments
			WHERE customer_id = ? AND reference <> '' AND upper(reference) = upper(?)`, p.CustomerID, p.Reference).Scan(&id, &amount, &mode)
		if err == nil {
			changed := amount != int64(p.Amount) || mode != string(p.Mode)
			_, err = tx.ExecContext(ctx, `UPDATE payments SET source_key = ?, amount_paise = ?, mode = ? WHERE id = ?`,
				key, int64(p.Amount), string(p.Mode), id)
			return id, changed, err
		} else if !errors.Is(err, sql.ErrNoRows) {
			return 0, false, err
		}
	}
	// The chat's payment of the same amount, near enough in time, whose
	// reference does not say it is another: the one still provisional
	// first, then the oldest.
	from, to := within(p.ReceivedAt, days)
	err = tx.QueryRowContext(ctx, `SELECT p.id FROM payments p
		WHERE p.customer_id = ? AND p.source = ? AND p.source_key = '' AND p.amount_paise = ?
			AND p.received_at >= ? AND p.received_at <= ? AND (? = '' OR p.reference = '')
		ORDER BY CASE WHEN EXISTS (SELECT 1 FROM provisional v WHERE v.payment_id = p.id AND v.settled_at IS NULL) THEN 0 ELSE 1 END,
			p.received_at, p.id LIMIT 1`, p.CustomerID, sourceMunshi, int64(p.Amount), from, to, p.Reference).Scan(&id)
	if err == nil {
		_, err = tx.ExecContext(ctx, `UPDATE payments SET source_key = ?, mode = ?,
			reference = CASE WHEN reference = '' THEN ? ELSE reference END WHERE id = ?`, key, string(p.Mode), p.Reference, id)
		return id, false, err
	} else if !errors.Is(err, sql.ErrNoRows) {
		return 0, false, err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO payments (customer_id, amount_paise, mode, received_at, reference, source, source_key)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, p.CustomerID, int64(p.Amount), string(p.Mode), formatTime(p.ReceivedAt), p.Reference, sourceImport, key)
	return 0, false, err
}

// SyncReceipts records goods received by reference and settles the
// provisional receipts they match (same SKU and quantity within
// settle.Days). Stock itself comes from the stock figure.
func (s *Store) SyncReceipts(ctx context.Context, b erpsync.Batch, rs []erpsync.Receipt, settle erpsync.Settle) (domain.Tally, error) {
	var t domain.Tally
	keys := make([]string, len(rs))
	for i, r := range rs {
		keys[i] = r.Reference
	}
	if err := distinct("receipt", keys); err != nil {
		return t, fmt.Errorf("sqlbooks: sync receipts: %w", err)
	}
	at := s.settleTime(settle)
	err := s.syncWrite(ctx, "sync receipts", b, nil, func(tx *dbTx) error {
		t = domain.Tally{}
		for _, r := range rs {
			if err := knownProduct(ctx, tx, r.SKU, "receipt "+r.Reference); err != nil {
				return err
			}
			var sku, date string
			var qty int64
			err := tx.QueryRowContext(ctx, `SELECT sku, qty, date FROM receipts WHERE reference = ?`, r.Reference).Scan(&sku, &qty, &date)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				if _, err := tx.ExecContext(ctx, `INSERT INTO receipts (reference, sku, qty, date) VALUES (?, ?, ?, ?)`,
					r.Reference, r.SKU, r.Qty, formatTime(r.Date)); err != nil {
					return fmt.Errorf("receipt %s: %w", r.Reference, err)
				}
				t.Added++
			case err != nil:
				return err
			case sku == r.SKU && qty == r.Qty && date == formatTime(r.Date):
				t.Unchanged++
			default:
				if _, err := tx.ExecContext(ctx, `UPDATE receipts SET sku = ?, qty = ?, date = ? WHERE reference = ?`,
					r.SKU, r.Qty, formatTime(r.Date), r.Reference); err != nil {
					return fmt.Errorf("receipt %s: %w", r.Reference, err)
				}
				t.Updated++
			}
			from, to := within(r.Date, settle.Days)
			if _, err := settleMatch(ctx, tx, "receipt:"+r.Reference, at, `figure = 'stock' AND kind = 'receipt'
				AND sku = ? AND qty = ? AND at >= ? AND at <= ?`, r.SKU, r.Qty, from, to); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return domain.Tally{}, err
	}
	return t, nil
}
