package legacyerp

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"time"
)

// companySpec is one of the five companies sharing the database.
type companySpec struct {
	code         int
	name, short  string
	gstin, city  string
	items, lines int
	share        float64 // of the shared parties it deals with
}

func companies(o Options) []companySpec {
	part := func(n, d int) int { return max(1, n/d) }
	return []companySpec{
		{1, "Apple Exports Private Limited", "AEPL", "27AAFCA4721B1Z2", "Mumbai", part(o.Items, 4), part(o.SalesLines, 20), 0.3},
		{2, "Shree Balaji Traders", "SBT", "07ABQPG8812K1Z9", "Delhi", part(o.Items, 4), part(o.SalesLines, 20), 0.3},
		{CompanyCode, CompanyName, "ALIL", "07AAJCA5513E1ZT", "New Delhi", o.Items, o.SalesLines, 0.85},
		{4, "Apple Lifestyle Industries Limited - Unit II", "ALU2", "02AAJCA5513E2ZR", "Baddi", part(o.Items, 4), part(o.SalesLines, 20), 0.3},
		{5, "Kanha Packaging LLP", "KPL", "09AAQFK2290M1ZC", "Noida", part(o.Items, 4), part(o.SalesLines, 20), 0.3},
	}
}

// gen fills the ERP. Every company draws from its own random stream, so
// what one company holds does not depend on the others' sizes.
type gen struct {
	x     sqlText
	o     Options
	now   time.Time // o.Now in Zone
	today time.Time // midnight of now
	start time.Time // the first day of history
	ins   map[string]*inserter

	parties   []*party
	suppliers []string
	nextItem  int
	nextOrder int
	nextRcpt  int
	facts     Facts
	mapped    []*item // the mapped company's items, for the upload table
}

// historyDays is how far back the sales history reaches.
const historyDays = 365

var tables = map[string][]string{
	"CompanyMaster":   {"CompCd", "CompNm", "ShortNm", "GSTIN", "Addr1", "City", "StateCd", "FYFrom", "ActiveYN"},
	"GodownMaster":    {"CompCd", "GdnCd", "GdnNm", "RejGdn"},
	"ItemMaster":      {"ItmId", "Company", "ItmCd", "ItmNm", "ShortNm", "GrpNm", "UOM", "AltUOM", "ConvFact", "Rt", "MRP", "TaxPer", "HSNCd", "ReOrdLvl", "CreatedOn", "ModifiedOn"},
	"ItemStock":       {"CompCd", "ItmId", "GdnCd", "ClQty", "WIPQty", "LastUpd"},
	"PartyMaster":     {"PartyCd", "PartyNm", "Alias", "PartyType", "Mob", "Email", "Addr1", "City", "GSTIN", "CrLmt", "CrDays", "PayMode", "CreatedOn"},
	"PartyBal":        {"CompCd", "PartyCd", "OpBal", "DrTot", "CrTot", "ClBal", "LastTxnDt"},
	"SupplierMaster":  {"SupCd", "SupNm", "SupplerPhone", "GSTIN", "City"},
	"SalesOrdHdr":     {"OrdId", "CompCd", "OrdNo", "OrdDt", "PartyCd", "SmanCd", "AMT", "StatCd", "Remarks", "CreatedOn", "ModifiedOn", "ModifiedBy"},
	"SalesOrdDtl":     {"OrdId", "SrNo", "ItmId", "Qty", "Rt", "TaxPer", "Amt", "TaxAmt"},
	"BillRegister":    {"CompCd", "BillNo", "BillDt", "PartyCd", "OrdId", "Amount", "BalAmt", "DueDt", "CancYN"},
	"Receipts":        {"RcptId", "CompName", "RcptNo", "RcptDt", "PartyCd", "RcptAmt", "PayMode", "RefNo", "BankNm", "Narration", "EntryOn"},
	"GRNHdr":          {"CompCd", "GRNNo", "GRNDt", "SupCd", "SupInvNo", "SupInvDt"},
	"GRNDtl":          {"CompCd", "GRNNo", "SrNo", "ItmId", "RecQty", "AccQty", "RejQty", "Rt"},
	"AuditTrail":      {"LogId", "TblNm", "KeyVal", "Action", "OldVal", "NewVal", "UserId", "LogTime"},
	"SalesOrdHdr_Bak": {"OrdId", "CompCd", "OrdNo", "OrdDt", "PartyCd", "SmanCd", "AMT", "StatCd", "Remarks", "CreatedOn", "ModifiedOn", "ModifiedBy"},
	"TmpStkUpload":    {"ItmCd", "ItmNm", "ClQty", "UpldOn"},
}

func fill(ctx context.Context, tx *sql.Tx, x sqlText, o Options) (Facts, error) {
	now := o.Now.In(Zone)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, Zone)
	g := &gen{x: x, o: o, now: now, today: today, start: today.AddDate(0, 0, -historyDays), ins: map[string]*inserter{}}
	names := make([]string, 0, len(tables))
	for t, cols := range tables {
		g.ins[t] = x.inserter(ctx, tx, t, cols...)
		names = append(names, t)
	}
	g.partyMaster()
	g.supplierMaster()
	for _, c := range companies(o) {
		g.company(c)
		if err := ctx.Err(); err != nil {
			return Facts{}, fmt.Errorf("legacyerp: %w", err)
		}
	}
	g.partyRows()
	g.junk()
	sort.Strings(names)
	for _, t := range names {
		if err := g.ins[t].close(); err != nil {
			return Facts{}, err
		}
	}
	return g.facts, nil
}

func (g *gen) add(table string, vals ...string) { g.ins[table].add(vals...) }

// str is a text literal, or NULL for "".
func (g *gen) str(s string) string {
	if s == "" {
		return null
	}
	return g.x.str(s)
}
