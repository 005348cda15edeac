package legacyerp

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The changes below move the mapped company's data the way the ERP's own
// screens do, so that a sync test can watch Munshi follow. Each is one
// transaction. Times are written on the ERP's wall clock (Zone).
//
// Breaking a row: SetLineQty with a negative quantity, or BlankItemCode
// (a null key in the item master, and a null SKU on its sales lines).

// ErrNotFound is returned when a change names an item, party, order or
// line the mapped company does not have.
var ErrNotFound = errors.New("legacyerp: not found")

// SetStock is a stock count: the item's ready stock is ready, all of it in
// the MAIN godown (the other ready godowns emptied; damaged goods left as
// they are), and its stock in process wip.
func SetStock(ctx context.Context, db *sql.DB, dialect, sku string, ready, wip int64) error {
	return change(ctx, db, dialect, func(c *changer) error {
		id, err := c.itemID(sku)
		if err != nil {
			return err
		}
		if err := c.exec(`UPDATE "ItemStock" SET "ClQty" = 0, "WIPQty" = 0
			WHERE "CompCd" = ` + companyCode + ` AND "ItmId" = ` + num(id) + ` AND "GdnCd" IN
			(SELECT "GdnCd" FROM "GodownMaster" WHERE "CompCd" = ` + companyCode + ` AND "RejGdn" <> 'Y')`); err != nil {
			return err
		}
		n, err := c.count(`UPDATE "ItemStock" SET "ClQty" = ` + qty(ready) + `, "WIPQty" = ` + qty(wip) + `
			WHERE "CompCd" = ` + companyCode + ` AND "ItmId" = ` + num(id) + ` AND "GdnCd" = 'MAIN'`)
		if err != nil || n > 0 {
			return err
		}
		return c.exec(`INSERT INTO "ItemStock" ("CompCd", "ItmId", "GdnCd", "ClQty", "WIPQty") VALUES (` +
			companyCode + `, ` + num(id) + `, 'MAIN', ` + qty(ready) + `, ` + qty(wip) + `)`)
	})
}

// DeleteItem deletes an item from the item master and its stock, as the
// vendor's screen does: its old sales and goods-received lines stay and
// point at nothing.
func DeleteItem(ctx context.Context, db *sql.DB, dialect, sku string) error {
	return change(ctx, db, dialect, func(c *changer) error {
		id, err := c.itemID(sku)
		if err != nil {
			return err
		}
		if err := c.exec(`DELETE FROM "ItemStock" WHERE "CompCd" = ` + companyCode + ` AND "ItmId" = ` + num(id)); err != nil {
			return err
		}
		return c.exec(`DELETE FROM "ItemMaster" WHERE "ItmId" = ` + num(id))
	})
}

// BlankItemCode empties an item's code (NULL): a row with no key.
func BlankItemCode(ctx context.Context, db *sql.DB, dialect, sku string) error {
	return change(ctx, db, dialect, func(c *changer) error {
		id, err := c.itemID(sku)
		if err != nil {
			return err
		}
		return c.exec(`UPDATE "ItemMaster" SET "ItmCd" = NULL WHERE "ItmId" = ` + num(id))
	})
}

// Order is a sales order to add.
type Order struct {
	No         string    // OrdNo; "" numbers it SO/T/<OrdId>
	CustomerID string    // PartyCd
	Date       time.Time // OrdDt is its date; CreatedOn
	// ModifiedOn is when the ERP says the order last changed; a time
	// before the sync's watermark but inside its overlap is a late
	// commit. Zero means Date.
	ModifiedOn time.Time
	Status     int // StatusOpen, StatusApproved, …; a billed order gets no bill
	Lines      []Line
}

// Line is one item of an Order.
type Line struct {
	SKU   string
	Qty   int64 // base units
	Price int64 // paise per base unit; 0 is the item's rate
}

// AddOrder adds a sales order (header and lines) and returns its number.
func AddOrder(ctx context.Context, db *sql.DB, dialect string, o Order) (string, error) {
	if len(o.Lines) == 0 {
		return "", errors.New("legacyerp: an order needs a line")
	}
	if o.ModifiedOn.IsZero() {
		o.ModifiedOn = o.Date
	}
	err := change(ctx, db, dialect, func(c *changer) error {
		if _, err := c.partyOf(o.CustomerID); err != nil {
			return err
		}
		id, err := c.one(`SELECT COALESCE(MAX("OrdId"), 0) + 1 FROM "SalesOrdHdr"`)
		if err != nil {
			return err
		}
		if o.No == "" {
			o.No = fmt.Sprintf("SO/T/%06d", id)
		}
		var total int64
		for k, l := range o.Lines {
			item, err := c.itemID(l.SKU)
			if err != nil {
				return err
			}
			price, gst, err := c.rateOf(item)
			if err != nil {
				return err
			}
			if l.Price != 0 {
				price = l.Price
			}
			amt := l.Qty * price
			tax := lineGST(amt, gst)
			total += amt + tax
			if err := c.exec(`INSERT INTO "SalesOrdDtl" ("OrdId", "SrNo", "ItmId", "Qty", "Rt", "TaxPer", "Amt", "TaxAmt") VALUES (` +
				strings.Join([]string{num(id), num(int64(k + 1)), num(item), qty(l.Qty), rupees(price), num(gst), rupees(amt), rupees(tax)}, ", ") + `)`); err != nil {
				return err
			}
		}
		return c.exec(`INSERT INTO "SalesOrdHdr" ("OrdId", "CompCd", "OrdNo", "OrdDt", "PartyCd", "SmanCd", "AMT", "StatCd", "CreatedOn", "ModifiedOn", "ModifiedBy") VALUES (` +
			strings.Join([]string{num(id), companyCode, c.x.str(o.No), day(o.Date), c.x.str(o.CustomerID), "'S01'", rupees(total),
				num(int64(o.Status)), stamp(o.Date), stamp(o.ModifiedOn), "'ADMIN'"}, ", ") + `)`)
	})
	return o.No, err
}

// SetLineQty changes line (1, 2, …) of an order to qty, repricing the
// line and the order's total, and stamps the order modifiedOn. A negative
// qty is a broken row.
func SetLineQty(ctx context.Context, db *sql.DB, dialect, orderNo string, line int, q int64, modifiedOn time.Time) error {
	return change(ctx, db, dialect, func(c *changer) error {
		id, err := c.one(`SELECT "OrdId" FROM "SalesOrdHdr" WHERE "CompCd" = ` + companyCode + ` AND "OrdNo" = ` + c.x.str(orderNo))
		if err != nil {
			return err
		}
		var rate, gst int64
		if err := c.row(`SELECT CAST(ROUND("Rt" * 100) AS #INT), CAST(ROUND("TaxPer") AS #INT) FROM "SalesOrdDtl"
			WHERE "OrdId" = `+num(id)+` AND "SrNo" = `+num(int64(line)), &rate, &gst); err != nil {
			return err
		}
		amt := q * rate
		if err := c.exec(`UPDATE "SalesOrdDtl" SET "Qty" = ` + qty(q) + `, "Amt" = ` + rupees(amt) + `, "TaxAmt" = ` + rupees(lineGST(amt, gst)) +
			` WHERE "OrdId" = ` + num(id) + ` AND "SrNo" = ` + num(int64(line))); err != nil {
			return err
		}
		return c.exec(`UPDATE "SalesOrdHdr" SET "AMT" = (SELECT SUM("Amt" + "TaxAmt") FROM "SalesOrdDtl" WHERE "OrdId" = ` + num(id) + `),
			"ModifiedOn" = ` + stamp(modifiedOn) + ` WHERE "OrdId" = ` + num(id))
	})
}

// Payment is money received, to add.
type Payment struct {
	No         string    // RcptNo; "" numbers it RV/T/<RcptId>
	CustomerID string    // PartyCd
	Date       time.Time // RcptDt is its date; EntryOn
	Amount     int64     // paise
	Mode       string    // as the ERP's users type it: "Chq", "UPI ", "CASH"
	Reference  string    // RefNo: a cheque number, a UTR; may be ""
}

// AddPayment records money received and, as the ERP's receipt screen
// does, sets it against the party's oldest unpaid bills and takes it off
// the party's balance, so that dues stay the sum of the bills' balances
// (while the payment is no more than the dues). It returns the receipt's
// number.
func AddPayment(ctx context.Context, db *sql.DB, dialect string, p Payment) (string, error) {
	err := change(ctx, db, dialect, func(c *changer) error {
		if _, err := c.partyOf(p.CustomerID); err != nil {
			return err
		}
		id, err := c.one(`SELECT COALESCE(MAX("RcptId"), 0) + 1 FROM "Receipts"`)
		if err != nil {
			return err
		}
		if p.No == "" {
			p.No = fmt.Sprintf("RV/T/%06d", id)
		}
		ref := null
		if p.Reference != "" {
			ref = c.x.str(p.Reference)
		}
		if err := c.exec(`INSERT INTO "Receipts" ("RcptId", "CompName", "RcptNo", "RcptDt", "PartyCd", "RcptAmt", "PayMode", "RefNo", "EntryOn") VALUES (` +
			strings.Join([]string{num(id), c.x.str(strings.ToUpper(CompanyName)), c.x.str(p.No), day(p.Date), c.x.str(p.CustomerID),
				rupees(p.Amount), c.x.str(p.Mode), ref, stamp(p.Date)}, ", ") + `)`); err != nil {
			return err
		}
		type bill struct {
			no      string
			balance int64
		}
		var bills []bill
		err = c.rows(`SELECT "BillNo", CAST(ROUND("BalAmt" * 100) AS #INT) FROM "BillRegister"
			WHERE "CompCd" = `+companyCode+` AND "PartyCd" = `+c.x.str(p.CustomerID)+` AND "CancYN" = 'N' AND "BalAmt" > 0
			ORDER BY "BillDt", "BillNo"`, func(r *sql.Rows) error {
			var b bill
			err := r.Scan(&b.no, &b.balance)
			bills = append(bills, b)
			return err
		})
		if err != nil {
			return err
		}
		left := p.Amount
		for _, b := range bills {
			if left == 0 {
				break
			}
			take := min(left, b.balance)
			left -= take
			if err := c.exec(`UPDATE "BillRegister" SET "BalAmt" = ` + rupees(b.balance-take) + ` WHERE "CompCd" = ` + companyCode +
				` AND "BillNo" = ` + c.x.str(b.no)); err != nil {
				return err
			}
		}
		return c.exec(`UPDATE "PartyBal" SET "CrTot" = "CrTot" + ` + rupees(p.Amount) + `, "ClBal" = "ClBal" - ` + rupees(p.Amount) +
			`, "LastTxnDt" = ` + day(p.Date) + ` WHERE "CompCd" = ` + companyCode + ` AND "PartyCd" = ` + c.x.str(p.CustomerID))
	})
	return p.No, err
}

// changer runs one change's statements in its transaction.
type changer struct {
	ctx context.Context
	tx  *sql.Tx
	x   sqlText
}

func change(ctx context.Context, db *sql.DB, dialect string, f func(*changer) error) error {
	if err := known(dialect); err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("legacyerp: %w", err)
	}
	defer tx.Rollback()
	if err := f(&changer{ctx: ctx, tx: tx, x: sqlText{dialect}}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("legacyerp: %w", err)
	}
	return nil
}

func (c *changer) exec(q string) error {
	_, err := c.count(q)
	return err
}

func (c *changer) count(q string) (int64, error) {
	res, err := c.tx.ExecContext(c.ctx, c.x.q(q))
	if err != nil {
		return 0, fmt.Errorf("legacyerp: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("legacyerp: %w", err)
	}
	return n, nil
}

func (c *changer) row(q string, dst ...any) error {
	err := c.tx.QueryRowContext(c.ctx, c.x.q(q)).Scan(dst...)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("legacyerp: %w", err)
	}
	return nil
}

func (c *changer) one(q string) (int64, error) {
	var n int64
	err := c.row(q, &n)
	return n, err
}

func (c *changer) rows(q string, each func(*sql.Rows) error) error {
	rows, err := c.tx.QueryContext(c.ctx, c.x.q(q))
	if err != nil {
		return fmt.Errorf("legacyerp: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := each(rows); err != nil {
			return fmt.Errorf("legacyerp: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("legacyerp: %w", err)
	}
	return nil
}

// itemID finds the mapped company's item by SKU, as the mapping spells it.
func (c *changer) itemID(sku string) (int64, error) {
	id, err := c.one(`SELECT "ItmId" FROM "ItemMaster" WHERE UPPER("Company") = ` + c.x.str(strings.ToUpper(CompanyName)) +
		` AND UPPER(TRIM("ItmCd")) = ` + c.x.str(strings.ToUpper(strings.TrimSpace(sku))))
	if errors.Is(err, ErrNotFound) {
		return 0, fmt.Errorf("%w: item %q", ErrNotFound, sku)
	}
	return id, err
}

// rateOf is an item's rate in paise and GST percent.
func (c *changer) rateOf(id int64) (price, gst int64, err error) {
	err = c.row(`SELECT CAST(ROUND("Rt" * 100) AS #INT), CAST(ROUND("TaxPer") AS #INT) FROM "ItemMaster" WHERE "ItmId" = `+num(id), &price, &gst)
	return price, gst, err
}

// partyOf checks that the company deals with the party.
func (c *changer) partyOf(code string) (string, error) {
	var got string
	err := c.row(`SELECT "PartyCd" FROM "PartyBal" WHERE "CompCd" = `+companyCode+` AND "PartyCd" = `+c.x.str(code), &got)
	if errors.Is(err, ErrNotFound) {
		return "", fmt.Errorf("%w: party %q", ErrNotFound, code)
	}
	return got, err
}
