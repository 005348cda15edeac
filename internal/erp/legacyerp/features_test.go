package legacyerp_test

import (
	"database/sql"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/erp/legacyerp"
)

// vendorColumns are names a mapping must find as the vendor wrote them.
var vendorColumns = map[string][]string{
	"CompanyMaster":   {"CompCd", "CompNm"},
	"ItemMaster":      {"ItmId", "Company", "ItmCd", "ItmNm", "ShortNm", "UOM", "AltUOM", "ConvFact", "Rt", "TaxPer"},
	"ItemStock":       {"CompCd", "ItmId", "GdnCd", "ClQty", "WIPQty"},
	"GodownMaster":    {"GdnCd", "RejGdn"},
	"PartyMaster":     {"PartyCd", "PartyNm", "Alias", "PartyType", "Mob", "CrLmt", "PayMode"},
	"PartyBal":        {"CompCd", "PartyCd", "ClBal"},
	"SupplierMaster":  {"SupCd", "SupNm", "SupplerPhone"},
	"SalesOrdHdr":     {"OrdId", "CompCd", "OrdNo", "OrdDt", "PartyCd", "AMT", "StatCd", "ModifiedOn"},
	"SalesOrdDtl":     {"OrdId", "SrNo", "ItmId", "Qty", "Rt", "TaxPer", "Amt"},
	"BillRegister":    {"BillNo", "BillDt", "PartyCd", "Amount", "BalAmt", "CancYN"},
	"Receipts":        {"CompName", "RcptNo", "RcptDt", "PartyCd", "RcptAmt", "PayMode", "RefNo"},
	"GRNHdr":          {"GRNNo", "GRNDt", "SupCd"},
	"GRNDtl":          {"GRNNo", "SrNo", "ItmId", "AccQty"},
	"AuditTrail":      {"TblNm", "OldVal", "NewVal"},
	"SalesOrdHdr_Bak": {"OrdNo", "AMT", "ModifiedOn"},
	"TmpStkUpload":    {"ItmCd", "ClQty"},
}

// adversarial checks the traps the ERP sets, as a vendor's schema does.
func adversarial(t *testing.T, db *sql.DB, dialect string, f legacyerp.Facts) {
	t.Helper()
	for table, want := range vendorColumns {
		rows, err := db.Query(ident(dialect, `SELECT * FROM "`+table+`" WHERE 1 = 0`))
		if err != nil {
			t.Errorf("%s: %v", table, err)
			continue
		}
		cols, _ := rows.Columns()
		rows.Close()
		for _, c := range want {
			if !slices.Contains(cols, c) {
				t.Errorf("%s has no column %s (it has %v)", table, c, cols)
			}
		}
	}
	if n := count(t, db, dialect, `SELECT COUNT(*) FROM "CompanyMaster"`); n != 5 {
		t.Errorf("companies = %d, want 5", n)
	}
	// Every company's name in two casings: CompanyMaster's, and capitals
	// in the item master and the receipts.
	for _, q := range []string{
		`SELECT COUNT(DISTINCT c."CompCd") FROM "CompanyMaster" c JOIN "ItemMaster" i ON i."Company" = UPPER(c."CompNm")`,
		`SELECT COUNT(DISTINCT c."CompCd") FROM "CompanyMaster" c JOIN "Receipts" r ON r."CompName" = UPPER(c."CompNm")`,
	} {
		if n := count(t, db, dialect, q); n != 5 {
			t.Errorf("%s = %d, want 5", q, n)
		}
	}
	upper := text(t, db, dialect, `SELECT "Company" FROM "ItemMaster"`) // not DISTINCT: MySQL's is blind to case
	if !slices.Contains(upper, strings.ToUpper(legacyerp.CompanyName)) || !slices.Contains(upper, legacyerp.CompanyName) {
		t.Errorf("the item master does not name the company in both casings")
	}
	if names := text(t, db, dialect, `SELECT "CompNm" FROM "CompanyMaster"`); !slices.Contains(names, legacyerp.CompanyName) {
		t.Errorf("companies %q", names)
	}

	// The mapped company's items: a name in two casings, stray spaces and
	// lower case in codes and names.
	items := text(t, db, dialect, `SELECT "ItmNm" FROM "ItemMaster" WHERE UPPER("Company") = '`+strings.ToUpper(legacyerp.CompanyName)+`'`)
	spellings := map[string]map[string]bool{}
	for _, n := range items {
		k := strings.ToUpper(strings.TrimSpace(n))
		if spellings[k] == nil {
			spellings[k] = map[string]bool{}
		}
		spellings[k][n] = true
	}
	twice := 0
	for _, s := range spellings {
		if len(s) > 1 {
			twice++
		}
	}
	if twice < 3 {
		t.Errorf("%d item names in two casings, want at least 3", twice)
	}
	codes := text(t, db, dialect, `SELECT "ItmCd" FROM "ItemMaster" WHERE UPPER("Company") = '`+strings.ToUpper(legacyerp.CompanyName)+`'`)
	has(t, "item codes with a stray space", codes, func(s string) bool { return strings.HasSuffix(s, " ") })
	has(t, "item codes in lower case", codes, func(s string) bool { return s == strings.ToLower(s) && s != strings.ToUpper(s) })
	has(t, "item names with trailing spaces", items, func(s string) bool { return strings.HasSuffix(s, " ") })

	parties := text(t, db, dialect, `SELECT "PartyNm" FROM "PartyMaster"`)
	has(t, "party names with trailing spaces", parties, func(s string) bool { return strings.HasSuffix(s, " ") })
	has(t, "party names in capitals", parties, func(s string) bool { return s == strings.ToUpper(s) })
	mobs := text(t, db, dialect, `SELECT "Mob" FROM "PartyMaster" WHERE "Mob" IS NOT NULL`)
	for _, format := range []string{`^\d{5} \d{5}$`, `^\+91-\d{10}$`, `^0\d{10}$`} {
		re := regexp.MustCompile(format)
		has(t, "mobiles like "+format, mobs, re.MatchString)
	}
	modes := text(t, db, dialect, `SELECT "PayMode" FROM "Receipts"`)
	for _, m := range []string{"CASH", "Chq", "NEFT", "UPI "} {
		if !slices.Contains(modes, m) {
			t.Errorf("payment modes lack %q", m)
		}
	}
	statuses := text(t, db, dialect, `SELECT DISTINCT "StatCd" FROM "SalesOrdHdr" WHERE "CompCd" = 3`)
	for _, s := range []string{"0", "1", "2", "3", "9"} {
		if !slices.Contains(statuses, s) {
			t.Errorf("order statuses %q lack %s", statuses, s)
		}
	}

	// Traps for a query without the right filters.
	for what, q := range map[string]string{
		"damaged stock":                    `SELECT COUNT(*) FROM "ItemStock" s JOIN "GodownMaster" g ON g."CompCd" = s."CompCd" AND g."GdnCd" = s."GdnCd" WHERE s."CompCd" = 3 AND g."RejGdn" = 'Y' AND s."ClQty" > 0`,
		"cancelled bills with a balance":   `SELECT COUNT(*) FROM "BillRegister" WHERE "CompCd" = 3 AND "CancYN" = 'Y' AND "BalAmt" > 0`,
		"the company's codes in another":   `SELECT COUNT(*) FROM "ItemMaster" i JOIN "ItemMaster" j ON j."ItmCd" = i."ItmCd" AND j."Company" <> i."Company" WHERE i."Company" = 'APPLE LIFESTYLE INDUSTRIES LIMITED'`,
		"order numbers in another company": `SELECT COUNT(*) FROM "SalesOrdHdr" h JOIN "SalesOrdHdr" k ON k."OrdNo" = h."OrdNo" AND k."CompCd" <> h."CompCd" WHERE h."CompCd" = 3`,
		"old orders in the backup table":   `SELECT COUNT(*) FROM "SalesOrdHdr_Bak" WHERE "CompCd" = 3`,
		"audit rows":                       `SELECT COUNT(*) FROM "AuditTrail"`,
		"a stale stock upload":             `SELECT COUNT(*) FROM "TmpStkUpload"`,
		"parties of other companies only":  `SELECT COUNT(*) FROM "PartyMaster" p WHERE NOT EXISTS (SELECT 1 FROM "PartyBal" b WHERE b."PartyCd" = p."PartyCd" AND b."CompCd" = 3)`,
	} {
		if n := count(t, db, dialect, q); n == 0 {
			t.Errorf("no %s", what)
		}
	}
	duesMatchBills(t, db, dialect)
	if f.LastModified.After(now) {
		t.Errorf("LastModified %v is after now %v", f.LastModified, now)
	}
}

// duesMatchBills: each party's closing balance is the sum of its bills'
// balances (cancelled bills left out).
func duesMatchBills(t *testing.T, db *sql.DB, dialect string) {
	t.Helper()
	bal := sums(t, db, dialect, `SELECT "PartyCd", "ClBal" FROM "PartyBal" WHERE "CompCd" = 3`)
	bills := sums(t, db, dialect, `SELECT "PartyCd", "BalAmt" FROM "BillRegister" WHERE "CompCd" = 3 AND "CancYN" = 'N'`)
	for p, v := range bal {
		if bills[p] != v {
			t.Errorf("party %s: ClBal %d paise, bills' balances %d", p, v, bills[p])
		}
	}
	for p, v := range bills {
		if _, ok := bal[p]; !ok && v != 0 {
			t.Errorf("party %s has bills and no balance row", p)
		}
	}
}

func sums(t *testing.T, db *sql.DB, dialect, q string) map[string]int64 {
	t.Helper()
	rows, err := db.Query(ident(dialect, q))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var k string
		var v any
		if err := rows.Scan(&k, &v); err != nil {
			t.Fatal(err)
		}
		out[k] += paise(t, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func text(t *testing.T, db *sql.DB, dialect, q string) []string {
	t.Helper()
	rows, err := db.Query(ident(dialect, q))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s sql.NullString
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		if s.Valid {
			out = append(out, s.String)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func has(t *testing.T, what string, xs []string, ok func(string) bool) {
	t.Helper()
	if !slices.ContainsFunc(xs, ok) {
		t.Errorf("no %s", what)
	}
}
