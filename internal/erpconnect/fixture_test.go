package erpconnect_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/munshi/munshi/internal/erp"
)

// distributor is a small ERP a vendor designed badly: cryptic names, two
// companies in one database, a sales header whose AMT its lines' Amt add
// up to, a bill register with Amount, money receipts called Receipts with
// the mode as free text, a supplier master with a misspelt SupplerPhone,
// order numbers that the lines write in lower case, party codes the order
// headers write in lower case, a customer in two casings, and a log.
var distributor = []string{
	`CREATE TABLE ItemMaster (ItmCd VARCHAR(12) PRIMARY KEY, ItmNm VARCHAR(80), UOM VARCHAR(6), Rt DECIMAL(12,2),
		TaxPer DECIMAL(5,2), ClQty INTEGER, WIPQty INTEGER, Fld7 VARCHAR(40), CompanyID INTEGER, ModifiedOn DATETIME)`,
	`CREATE TABLE PartyMaster (PartyCd VARCHAR(8) PRIMARY KEY, PartyNm VARCHAR(80), Mob VARCHAR(20), CrLmt DECIMAL(12,2),
		Bal DECIMAL(12,2), City VARCHAR(30), CompanyID INTEGER)`,
	`CREATE TABLE SupplierMaster (SupCd VARCHAR(8) PRIMARY KEY, SupNm VARCHAR(80), SupplerPhone VARCHAR(20), City VARCHAR(30))`,
	`CREATE TABLE SalesOrderHdr (SONo VARCHAR(12) PRIMARY KEY, SODt DATE, PartyCd VARCHAR(8), AMT DECIMAL(14,2),
		Status VARCHAR(12), CompanyID INTEGER, ModifiedOn DATETIME)`,
	`CREATE TABLE SalesOrderDtl (SONo VARCHAR(12), LineNo INTEGER, ItmCd VARCHAR(12), Qty INTEGER, Rt DECIMAL(12,2),
		Amt DECIMAL(14,2), PRIMARY KEY (SONo, LineNo))`,
	`CREATE TABLE BillRegister (BillNo VARCHAR(16) PRIMARY KEY, BillDt DATE, PartyCd VARCHAR(8), Amount DECIMAL(14,2),
		BalAmt DECIMAL(14,2), CompanyID INTEGER)`,
	`CREATE TABLE Receipts (RcptNo VARCHAR(12) PRIMARY KEY, RcptDt DATE, PartyCd VARCHAR(8), Amt DECIMAL(14,2),
		Mode VARCHAR(10), ChqNo VARCHAR(12), CompanyID INTEGER)`,
	`CREATE TABLE PurGRN (GRNNo VARCHAR(12), LineNo INTEGER, SupCd VARCHAR(8), ItmCd VARCHAR(12), Qty INTEGER, GRNDt DATE,
		PRIMARY KEY (GRNNo, LineNo))`,
	`CREATE TABLE AppLog (LogID INTEGER PRIMARY KEY, Msg VARCHAR(200), LoggedAt DATETIME)`,
}

var (
	itemWords  = []string{"Glass Cleaner", "Phenyl", "Floor Cleaner", "Toilet Cleaner", "Hand Wash", "Dish Wash", "Detergent Powder", "Air Freshener", "Room Spray", "Bleach"}
	sizes      = []string{"500ml", "1L", "5L", "200ml"}
	units      = []string{"BTL", "PCS", "BOX", "BTL", "NOS"}
	partyNames = []string{"Sharma Traders", "Gupta General Store", "Rajesh Kirana", "Verma Enterprises", "Singh Brothers",
		"Mehta Distributors", "Agarwal Stores", "Jain Super Market", "Patel Provision", "Khan Wholesale"}
	towns   = []string{"Delhi", "Noida", "Gurgaon", "Faridabad"}
	modes   = []string{"CASH", "Cash", "Chq", "CHQ", "NEFT", "UPI", "upi", "Chq."}
	statuss = []string{"DELIVERED", "DELIVERED", "OPEN", "DELIVERED", "CANCELLED"}
)

// mobile writes an Indian mobile the ways ERPs hold them.
func mobile(i int) string {
	n := fmt.Sprintf("98%08d", 10000000+i*7919%90000000)
	switch i % 5 {
	case 0:
		return n[:5] + " " + n[5:]
	case 1:
		return "+91-" + n
	case 2:
		return "0" + n
	case 3:
		return n
	}
	return "+91 " + n
}

func rupees(paise int) string { return fmt.Sprintf("%d.%02d", paise/100, paise%100) }

// buildDistributor writes the distributor into a new SQLite file, with
// logRows rows of log, and returns its path.
func buildDistributor(t testing.TB, logRows int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "erp.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := tx.Exec(q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, s := range distributor {
		exec(s)
	}
	type item struct {
		code string
		rate int
	}
	var items []item
	for i := 0; i < 30; i++ {
		w := itemWords[i%len(itemWords)]
		size := sizes[i/len(itemWords)%len(sizes)]
		code := fmt.Sprintf("%s%03d", strings.ToUpper(w[:2]), 100+i)
		rate := 4500 + i*1375 + i%3*5 // paise, most with paise
		company := 1
		if i >= 25 {
			company = 2
		}
		items = append(items, item{code, rate})
		exec(`INSERT INTO ItemMaster VALUES (?,?,?,?,?,?,?,?,?,?)`, code, w+" "+size, units[i%len(units)], rupees(rate),
			[]int{18, 12, 5, 18, 28}[i%5], 10+i*7%90, i%4*6, strings.ToLower(w[:2])+" "+size, company,
			fmt.Sprintf("2026-11-%02d 10:%02d:00", 1+i%28, i%60))
	}
	var parties []string
	for i := 0; i < 40; i++ {
		code := fmt.Sprintf("C%03d", i+1)
		name := partyNames[i%len(partyNames)]
		if i >= len(partyNames) {
			name = fmt.Sprintf("%s %s", name, towns[i%len(towns)])
		}
		if i == 10 {
			name = "SHARMA TRADERS" // the same customer entered twice, in capitals
		}
		company := 1
		if i >= 34 {
			company = 2
		}
		parties = append(parties, code)
		exec(`INSERT INTO PartyMaster VALUES (?,?,?,?,?,?,?)`, code, name, mobile(i), rupees((i%5+1)*5000000),
			rupees(i*123457%4000000), towns[i%len(towns)], company)
	}
	for i := 0; i < 10; i++ {
		exec(`INSERT INTO SupplierMaster VALUES (?,?,?,?)`, fmt.Sprintf("S%02d", i+1), fmt.Sprintf("%s Chemicals", []string{"Bharat", "Hind", "Ganga", "Om"}[i%4]),
			mobile(100+i), towns[i%len(towns)])
	}
	for o := 0; o < 60; o++ {
		no := fmt.Sprintf("SO-%04d", o+1)
		party := parties[o*7%34]
		total := 0
		for l := 0; l < 1+o%4; l++ {
			it := items[(o*3+l*5)%25]
			qty := 1 + (o+l)%12
			amt := qty * it.rate
			total += amt
			exec(`INSERT INTO SalesOrderDtl VALUES (?,?,?,?,?,?)`, strings.ToLower(no), l+1, it.code, qty, rupees(it.rate), rupees(amt))
		}
		company := 1
		if o >= 50 {
			company = 2
		}
		exec(`INSERT INTO SalesOrderHdr VALUES (?,?,?,?,?,?,?)`, no, fmt.Sprintf("2026-10-%02d", 1+o%30), strings.ToLower(party),
			rupees(total), statuss[o%len(statuss)], company, fmt.Sprintf("2026-11-%02d 12:%02d:05", 1+o%28, o%60))
	}
	for b := 0; b < 45; b++ {
		amount := 150000 + b*98765%9000000
		exec(`INSERT INTO BillRegister VALUES (?,?,?,?,?,?)`, fmt.Sprintf("INV/26-27/%03d", b+1), fmt.Sprintf("2026-09-%02d", 1+b%30),
			parties[b*5%34], rupees(amount), rupees(amount*(b%3)/2), 1+b/40)
	}
	for r := 0; r < 50; r++ {
		mode := modes[r%len(modes)]
		chq := ""
		if strings.HasPrefix(strings.ToUpper(mode), "CHQ") {
			chq = fmt.Sprintf("%06d", 100000+r*37)
		}
		exec(`INSERT INTO Receipts VALUES (?,?,?,?,?,?,?)`, fmt.Sprintf("RV-%03d", r+1), fmt.Sprintf("2026-10-%02d", 1+r%30),
			parties[r*3%34], rupees(50000+r*45678%2000000), mode, chq, 1+r/45)
	}
	for g := 0; g < 12; g++ {
		for l := 0; l < 1+g%3; l++ {
			exec(`INSERT INTO PurGRN VALUES (?,?,?,?,?,?)`, fmt.Sprintf("GRN-%03d", g+1), l+1, fmt.Sprintf("S%02d", 1+g%10),
				items[(g*2+l)%25].code, 12*(1+l+g%4), fmt.Sprintf("2026-08-%02d", 1+g*2))
		}
	}
	for i := 0; i < logRows; i++ {
		exec(`INSERT INTO AppLog VALUES (?,?,?)`, i+1, fmt.Sprintf("user %d opened screen %d", i%17, i%40), fmt.Sprintf("2026-11-%02d 09:%02d:%02d", 1+i%28, i%60, i%60))
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return path
}

// openSource opens an SQLite file as the ERP source, read-only.
func openSource(t testing.TB, path string) *erp.Source {
	t.Helper()
	src, err := erp.Open(context.Background(), "sqlite:"+path, erp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}
