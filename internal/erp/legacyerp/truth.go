package legacyerp

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The figures below are read from the ERP with plain SQL, the way its own
// reports would, following what the reviewed mapping reads: the mapped
// company only, SKUs and party codes trimmed and in capitals, money in
// paise, quantities in base units. Sales values are before GST (Munshi's
// sales figures), cancelled orders left out (every other status is a
// sale to Munshi: committed or delivered). Days are the ERP's dates.

// ReadyStock is an item's ready stock: its closing quantity in every
// godown but the damaged-goods one.
func ReadyStock(ctx context.Context, db *sql.DB, dialect, sku string) (int64, error) {
	return stockOf(ctx, db, dialect, sku, `CASE WHEN g."RejGdn" = 'Y' THEN 0 ELSE s."ClQty" END`)
}

// WIPStock is an item's stock in process.
func WIPStock(ctx context.Context, db *sql.DB, dialect, sku string) (int64, error) {
	return stockOf(ctx, db, dialect, sku, `s."WIPQty"`)
}

func stockOf(ctx context.Context, db *sql.DB, dialect, sku, expr string) (int64, error) {
	x := sqlText{dialect}
	q := `SELECT CAST(ROUND(COALESCE(SUM(` + expr + `), 0)) AS #INT)
		FROM "ItemStock" s
		JOIN "GodownMaster" g ON g."CompCd" = s."CompCd" AND g."GdnCd" = s."GdnCd"
		JOIN "ItemMaster" i ON i."ItmId" = s."ItmId"
		WHERE s."CompCd" = ` + companyCode + ` AND UPPER(i."Company") = ` + x.str(strings.ToUpper(CompanyName)) + `
		  AND UPPER(TRIM(i."ItmCd")) = ` + x.str(strings.ToUpper(strings.TrimSpace(sku)))
	return one(ctx, db, x, q)
}

var companyCode = strconv.Itoa(CompanyCode)

// TotalDues is what the company's parties owe it, in paise.
func TotalDues(ctx context.Context, db *sql.DB, dialect string) (int64, error) {
	x := sqlText{dialect}
	return one(ctx, db, x, `SELECT CAST(COALESCE(SUM(CAST(ROUND(b."ClBal" * 100) AS #INT)), 0) AS #INT)
		FROM "PartyBal" b WHERE b."CompCd" = `+companyCode)
}

// DuesByParty is each party's outstanding in paise, for the parties that
// owe something (or are owed).
func DuesByParty(ctx context.Context, db *sql.DB, dialect string) (map[string]int64, error) {
	x := sqlText{dialect}
	rows, err := db.QueryContext(ctx, x.q(`SELECT UPPER(TRIM(b."PartyCd")), CAST(ROUND(b."ClBal" * 100) AS #INT)
		FROM "PartyBal" b WHERE b."CompCd" = `+companyCode+` AND b."ClBal" <> 0`))
	if err != nil {
		return nil, fmt.Errorf("legacyerp: dues: %w", err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var id string
		var paise int64
		if err := rows.Scan(&id, &paise); err != nil {
			return nil, fmt.Errorf("legacyerp: dues: %w", err)
		}
		out[id] = paise
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("legacyerp: dues: %w", err)
	}
	return out, nil
}

// PartySales is a party's sales over a period.
type PartySales struct {
	CustomerID string
	Value      int64 // paise, before GST
	Orders     int
}

// TopParties are the n parties with the greatest sales value on the days
// from (inclusive) to to (exclusive), greatest first, ties by code.
func TopParties(ctx context.Context, db *sql.DB, dialect string, from, to time.Time, n int) ([]PartySales, error) {
	x := sqlText{dialect}
	q := `SELECT x.p, CAST(SUM(x.amt) AS #INT) AS v, COUNT(DISTINCT x.o)
		FROM (` + saleLines(x, `h."OrdDt" >= `+day(from)+` AND h."OrdDt" < `+day(to)) + `) x
		GROUP BY x.p ORDER BY v DESC, x.p LIMIT ` + fmt.Sprint(n)
	rows, err := db.QueryContext(ctx, x.q(q))
	if err != nil {
		return nil, fmt.Errorf("legacyerp: top parties: %w", err)
	}
	defer rows.Close()
	var out []PartySales
	for rows.Next() {
		var s PartySales
		if err := rows.Scan(&s.CustomerID, &s.Value, &s.Orders); err != nil {
			return nil, fmt.Errorf("legacyerp: top parties: %w", err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("legacyerp: top parties: %w", err)
	}
	return out, nil
}

// saleLines is one row per sales line of the company's orders that are
// not cancelled: the party (p), the order (o), the line's amount in paise
// (amt) and its GST rate in hundredths of a percent (rate).
func saleLines(x sqlText, where string) string {
	return `SELECT UPPER(TRIM(h."PartyCd")) AS p, h."OrdId" AS o,
			CAST(ROUND(d."Qty" * d."Rt" * 100) AS #INT) AS amt, CAST(ROUND(d."TaxPer" * 100) AS #INT) AS rate
		FROM "SalesOrdHdr" h JOIN "SalesOrdDtl" d ON d."OrdId" = h."OrdId"
		WHERE h."CompCd" = ` + companyCode + ` AND h."StatCd" <> ` + fmt.Sprint(StatusCancelled) + ` AND ` + where
}

// DaySales is a day's sales, for the daily digest.
type DaySales struct {
	Orders int
	Lines  int
	Value  int64 // paise, before GST
	GST    int64 // paise, each line's GST rounded half up
}

// SalesOn is the sales of the date day falls on in Zone.
func SalesOn(ctx context.Context, db *sql.DB, dialect string, on time.Time) (DaySales, error) {
	x := sqlText{dialect}
	q := `SELECT COUNT(DISTINCT x.o), COUNT(*), CAST(COALESCE(SUM(x.amt), 0) AS #INT),
			CAST(COALESCE(SUM((x.amt * x.rate + 5000) #DIV 10000), 0) AS #INT)
		FROM (` + saleLines(x, `h."OrdDt" = `+day(on)) + `) x`
	var s DaySales
	if err := db.QueryRowContext(ctx, x.q(q)).Scan(&s.Orders, &s.Lines, &s.Value, &s.GST); err != nil {
		return DaySales{}, fmt.Errorf("legacyerp: sales: %w", err)
	}
	return s, nil
}

// Collections is money received over a period.
type Collections struct {
	Payments int
	Amount   int64 // paise
}

// PaymentsOn is the money the company received on the date on falls on
// in Zone.
func PaymentsOn(ctx context.Context, db *sql.DB, dialect string, on time.Time) (Collections, error) {
	x := sqlText{dialect}
	q := `SELECT COUNT(*), CAST(COALESCE(SUM(CAST(ROUND(r."RcptAmt" * 100) AS #INT)), 0) AS #INT)
		FROM "Receipts" r JOIN "CompanyMaster" c ON UPPER(c."CompNm") = UPPER(r."CompName")
		WHERE c."CompCd" = ` + companyCode + ` AND r."RcptDt" = ` + day(on)
	var c Collections
	if err := db.QueryRowContext(ctx, x.q(q)).Scan(&c.Payments, &c.Amount); err != nil {
		return Collections{}, fmt.Errorf("legacyerp: payments: %w", err)
	}
	return c, nil
}

func one(ctx context.Context, db *sql.DB, x sqlText, q string) (int64, error) {
	var n int64
	if err := db.QueryRowContext(ctx, x.q(q)).Scan(&n); err != nil {
		return 0, fmt.Errorf("legacyerp: %w", err)
	}
	return n, nil
}
