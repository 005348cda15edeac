package excel

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/munshi/munshi/internal/domain"
)

// paise reads a money cell back as paise, exactly.
func (f *file) paise(t testing.TB, sheet, ref string) domain.Paise {
	t.Helper()
	raw := f.raw(t, sheet, ref)
	p, err := domain.ParseRupees(raw)
	if err != nil {
		t.Fatalf("%s!%s holds %q, not an amount: %v", sheet, ref, raw, err)
	}
	return p
}

// header is a sheet's first row.
func (f *file) header(t testing.TB, sheet string) []string {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil || len(rows) == 0 {
		t.Fatalf("sheet %s: %v", sheet, err)
	}
	return rows[0]
}

// checkTotal checks a totals cell: the SUM formula over rows 2..last and a
// cached value equal to want.
func (f *file) checkTotal(t testing.TB, sheet string, col, last int, want domain.Paise) {
	t.Helper()
	ref := cell(col, last+1)
	letters, _ := excelize.ColumnNumberToName(col)
	if got, wantF := f.formula(t, sheet, ref), fmt.Sprintf("SUM(%s2:%s%d)", letters, letters, last); got != wantF {
		t.Errorf("%s!%s formula = %q, want %q", sheet, ref, got, wantF)
	}
	if got := f.paise(t, sheet, ref); got != want {
		t.Errorf("%s!%s total = %v, want %v", sheet, ref, got, want)
	}
}

func TestOutstandingExport(t *testing.T) {
	billed := time.Date(2026, 10, 1, 11, 0, 0, 0, kolkata)
	dues := []DueRow{
		{CustomerID: "C01", Customer: "Sharma Traders", Outstanding: 12345678, CreditLimit: 20000000,
			OldestBill: "ORD-1001", OldestBillDate: billed, OldestBillAgeDays: 60},
		{CustomerID: "C02", Customer: "=Mehta & Sons", Outstanding: 25000050, CreditLimit: 20000000,
			OldestBill: "T-5531", OldestBillDate: billed.AddDate(0, -2, 0), OldestBillAgeDays: 121, BeforeRecords: true},
		{CustomerID: "C03", Customer: "गुप्ता किराना", Outstanding: 0, CreditLimit: 5000000},
	}
	f := write(t, Outstanding(About{MadeFor: "Vikram Singh"}, Slice(dues)))
	if got := f.GetSheetList(); strings.Join(got, "|") != "Outstanding|About" {
		t.Fatalf("sheets = %q", got)
	}
	wantHeader := "Customer|Customer ID|Outstanding|Credit limit|Headroom|Oldest unpaid bill age|Oldest bill date|Oldest bill|Note"
	if got := strings.Join(f.header(t, "Outstanding"), "|"); got != wantHeader {
		t.Errorf("header = %q", got)
	}
	var out, limit, head domain.Paise
	for i, d := range dues {
		r := i + 2
		if got := f.value(t, "Outstanding", cell(1, r)); got != d.Customer {
			t.Errorf("row %d customer = %q", r, got)
		}
		if got := f.paise(t, "Outstanding", cell(3, r)); got != d.Outstanding {
			t.Errorf("row %d outstanding = %v", r, got)
		}
		if got := f.paise(t, "Outstanding", cell(5, r)); got != d.CreditLimit-d.Outstanding {
			t.Errorf("row %d headroom = %v, want %v", r, got, d.CreditLimit-d.Outstanding)
		}
		shownHeadroom, err := shown(f.numFmt(t, "Outstanding", cell(5, r)), f.number(t, "Outstanding", cell(5, r)))
		if err != nil || shownHeadroom != rupeeText(d.CreditLimit-d.Outstanding) {
			t.Errorf("row %d headroom shows %q (%v)", r, shownHeadroom, err)
		}
		out, limit, head = out+d.Outstanding, limit+d.CreditLimit, head+d.CreditLimit-d.Outstanding
	}
	if got := f.raw(t, "Outstanding", "F2"); got != "60" {
		t.Errorf("age = %q, want 60", got)
	}
	if got := f.value(t, "Outstanding", "G2"); got != "01-Oct-2026" {
		t.Errorf("oldest bill date = %q", got)
	}
	if got := f.value(t, "Outstanding", "I3"); !strings.Contains(got, "older than Munshi's records") {
		t.Errorf("note = %q", got)
	}
	for _, ref := range []string{"F4", "G4", "H4", "I4"} {
		if got := f.raw(t, "Outstanding", ref); got != "" {
			t.Errorf("%s = %q for a customer with no unpaid bill", ref, got)
		}
	}
	if f.formula(t, "Outstanding", "A3") != "" || !f.quotePrefixed(t, "Outstanding", "A3") {
		t.Error("a customer named like a formula is not plain quoted text")
	}
	f.checkTotal(t, "Outstanding", 3, 4, out)
	f.checkTotal(t, "Outstanding", 4, 4, limit)
	f.checkTotal(t, "Outstanding", 5, 4, head)
	if got := f.value(t, "About", "A1"); got != "Outstanding dues" {
		t.Errorf("About title = %q", got)
	}
	if !slicesContain(f.aboutColumnB(t), "Outstanding: 3 rows") {
		t.Errorf("About = %q", f.aboutColumnB(t))
	}
}

func TestPendingOrdersExport(t *testing.T) {
	placed := time.Date(2026, 11, 29, 16, 5, 0, 0, kolkata)
	orders := []PendingOrderRow{
		{OrderID: "ORD-1042", PlacedAt: placed, Customer: "Sharma Traders", PlacedBy: "Ravi Kumar", Status: "Awaiting approval",
			Lines: 2, Items: "GC500 × 120, PH1L × 24", Total: 1530240},
		{OrderID: "ORD-1043", PlacedAt: placed.Add(time.Hour), Customer: "Mehta & Sons", PlacedBy: "+919900000004", Status: "To deliver",
			Lines: 1, Items: "SOAP100 × 1,200", Total: 4720000},
	}
	f := write(t, PendingOrders(About{}, Slice(orders)))
	if got := strings.Join(f.header(t, "Pending orders"), "|"); got != "Order|Placed at|Customer|Placed by|Status|Lines|Items|Total with GST" {
		t.Errorf("header = %q", got)
	}
	if got := f.value(t, "Pending orders", "B2"); got != "29-Nov-2026 16:05" {
		t.Errorf("placed at = %q", got)
	}
	if got := f.value(t, "Pending orders", "D3"); got != "+919900000004" || !f.quotePrefixed(t, "Pending orders", "D3") {
		t.Errorf("a phone number as placed-by = %q, want it as quoted text", got)
	}
	if got := f.raw(t, "Pending orders", "F4"); got != "3" {
		t.Errorf("total lines = %q", got)
	}
	f.checkTotal(t, "Pending orders", 8, 3, 1530240+4720000)
}

// saleLines makes n random order lines over a few products and customers.
func saleLines(n int, seed uint64) []SaleLine {
	r := rand.New(rand.NewPCG(seed, 3))
	products := []struct {
		sku, name, unit string
		rate            domain.Paise
		gst             domain.GSTRate
	}{
		{"GC500", "Glass Cleaner 500ml", "bottle", 9200, 1800},
		{"PH1L", "Phenyl 1L", "bottle", 6550, 1800},
		{"SOAP100", "Neem Soap 100g", "bar", 2875, 1200},
		{"ATTA5", "Chakki Atta 5kg", "bag", 24500, 500},
		{"TEA250", "चाय पत्ती 250g", "pack", 13000, 500},
	}
	customers := [][2]string{{"C01", "Sharma Traders"}, {"C02", "Mehta & Sons"}, {"C03", "गुप्ता किराना 🛒"}, {"C04", "@Ravi Stores"}}
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, kolkata)
	lines := make([]SaleLine, n)
	for i := range lines {
		p, c := products[r.IntN(len(products))], customers[r.IntN(len(customers))]
		qty := int64(1 + r.IntN(500))
		amount := p.rate * domain.Paise(qty)
		lines[i] = SaleLine{
			Date: start.Add(time.Duration(i) * 17 * time.Minute), OrderID: "ORD-" + strconv.Itoa(1000+i/3),
			CustomerID: c[0], Customer: c[1], SKU: p.sku, Product: p.name, Qty: qty, Unit: p.unit,
			Rate: p.rate, Amount: amount, GSTRate: p.gst, GST: domain.Paise((int64(amount)*int64(p.gst) + 5000) / 10000),
		}
	}
	return lines
}

type sums struct {
	qty, lines  int64
	amount, gst domain.Paise
}

func TestSalesExport(t *testing.T) {
	lines := saleLines(700, 1)
	f := write(t, Sales(About{Period: Period{
		From: time.Date(2026, 11, 1, 0, 0, 0, 0, kolkata), To: time.Date(2026, 12, 1, 0, 0, 0, 0, kolkata)}}, Slice(lines)))
	if got := f.GetSheetList(); strings.Join(got, "|") != "Sales lines|By product|By customer|About" {
		t.Fatalf("sheets = %q", got)
	}
	if got := strings.Join(f.header(t, "Sales lines"), "|"); got != "Date|Order|Customer|SKU|Product|Qty|Unit|Rate|Amount|GST %|GST|Total" {
		t.Errorf("lines header = %q", got)
	}
	var amount, gst domain.Paise
	byProduct, byCustomer := map[string]*sums{}, map[string]*sums{}
	add := func(m map[string]*sums, key string, l SaleLine) {
		if m[key] == nil {
			m[key] = &sums{}
		}
		s := m[key]
		s.qty, s.lines, s.amount, s.gst = s.qty+l.Qty, s.lines+1, s.amount+l.Amount, s.gst+l.GST
	}
	for i, l := range lines {
		r := i + 2
		amount, gst = amount+l.Amount, gst+l.GST
		add(byProduct, l.SKU, l)
		add(byCustomer, l.CustomerID, l)
		if i%97 == 0 { // spot checks along the sheet
			if got := f.paise(t, "Sales lines", cell(12, r)); got != l.Amount+l.GST {
				t.Errorf("line %d total = %v, want %v", r, got, l.Amount+l.GST)
			}
			if got := f.raw(t, "Sales lines", cell(6, r)); got != strconv.FormatInt(l.Qty, 10) {
				t.Errorf("line %d qty = %q", r, got)
			}
			if got := f.value(t, "Sales lines", cell(10, r)); got != l.GSTRate.String()[:len(l.GSTRate.String())-1]+".00%" {
				t.Errorf("line %d GST %% = %q for %v", r, got, l.GSTRate)
			}
		}
	}
	last := len(lines) + 1
	f.checkTotal(t, "Sales lines", 9, last, amount)
	f.checkTotal(t, "Sales lines", 11, last, gst)
	f.checkTotal(t, "Sales lines", 12, last, amount+gst)

	checkSummary := func(sheet string, keyCol int, want map[string]*sums, amountCol int) {
		t.Helper()
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(want)+2 {
			t.Fatalf("%s has %d rows, want %d groups, a header and totals", sheet, len(rows), len(want))
		}
		prev := domain.Paise(1 << 62)
		for i := range len(want) {
			r := i + 2
			key := f.value(t, sheet, cell(keyCol, r))
			s := want[key]
			if s == nil {
				t.Fatalf("%s row %d: unknown key %q", sheet, r, key)
			}
			got := f.paise(t, sheet, cell(amountCol, r))
			if got != s.amount || f.paise(t, sheet, cell(amountCol+1, r)) != s.gst || f.paise(t, sheet, cell(amountCol+2, r)) != s.amount+s.gst {
				t.Errorf("%s %s: amount %v, want %v", sheet, key, got, s.amount)
			}
			if got := f.raw(t, sheet, cell(amountCol-1, r)); got != strconv.FormatInt(s.lines, 10) {
				t.Errorf("%s %s: %s lines, want %d", sheet, key, got, s.lines)
			}
			if got > prev {
				t.Errorf("%s is not largest first at row %d", sheet, r)
			}
			prev = got
		}
		// The summary's totals are the lines' totals, to the paisa.
		f.checkTotal(t, sheet, amountCol, len(want)+1, amount)
		f.checkTotal(t, sheet, amountCol+1, len(want)+1, gst)
		f.checkTotal(t, sheet, amountCol+2, len(want)+1, amount+gst)
	}
	checkSummary("By product", 1, byProduct, 6)
	checkSummary("By customer", 1, byCustomer, 4)
	for r := 2; r < len(byProduct)+2; r++ {
		sku := f.value(t, "By product", cell(1, r))
		if got := f.raw(t, "By product", cell(4, r)); got != strconv.FormatInt(byProduct[sku].qty, 10) {
			t.Errorf("By product %s qty = %q, want %d", sku, got, byProduct[sku].qty)
		}
	}
	if ref, ok := f.aboutValue(t, LabelTo); !ok || f.value(t, "About", ref) != "30-Nov-2026" {
		t.Errorf("About period to = %q", f.value(t, "About", ref))
	}
	if !slicesContain(f.aboutColumnB(t), "Sales lines: 700 rows") || !slicesContain(f.aboutColumnB(t), "By product: 5 rows") {
		t.Errorf("About = %q", f.aboutColumnB(t))
	}
}

// TestSalesWrittenTwiceAgree writes one Sales workbook twice: the
// summaries start again with the lines, so the second file's summaries are
// not doubled.
func TestSalesWrittenTwiceAgree(t *testing.T) {
	wb := Sales(About{MadeAt: madeAt}, Slice(saleLines(50, 2)))
	a, b := write(t, wb), write(t, wb)
	for _, ref := range []string{"F2", "F3", "H7"} {
		if x, y := a.raw(t, "By product", ref), b.raw(t, "By product", ref); x != y || x == "" {
			t.Errorf("By product %s: %q then %q", ref, x, y)
		}
	}
}

func TestSalesRowsErrorStopsTheFile(t *testing.T) {
	boom := errors.New("books timed out")
	lines := func(yield func(SaleLine, error) bool) {
		for _, l := range saleLines(10, 3) {
			if !yield(l, nil) {
				return
			}
		}
		yield(SaleLine{}, boom)
	}
	err := Write(context.Background(), &bytes.Buffer{}, Sales(About{}, lines))
	if !errors.Is(err, boom) {
		t.Fatalf("Write = %v, want the books' error", err)
	}
}

func TestStockExport(t *testing.T) {
	items := []StockRow{
		{SKU: "GC500", Product: "Glass Cleaner 500ml", Unit: "bottle", Ready: 2400, Committed: 600, WIP: 480, Price: 9200},
		{SKU: "PH1L", Product: "Phenyl 1L", Unit: "bottle", Ready: 100, Committed: 340, WIP: 0, Price: 6550},
		{SKU: "SOAP100", Product: "Neem Soap", Unit: "bar", Ready: 0, Committed: 0, WIP: 1200, Price: 2875},
	}
	f := write(t, Stock(About{}, Slice(items)))
	if got := strings.Join(f.header(t, "Stock"), "|"); got != "SKU|Product|Unit|Ready|Committed|Available|In production|Price per unit|Value of ready stock" {
		t.Errorf("header = %q", got)
	}
	var value domain.Paise
	for i, s := range items {
		r := i + 2
		if got := f.raw(t, "Stock", cell(6, r)); got != strconv.FormatInt(s.Ready-s.Committed, 10) {
			t.Errorf("%s available = %q", s.SKU, got)
		}
		v := domain.Paise(s.Ready) * s.Price
		if got := f.paise(t, "Stock", cell(9, r)); got != v {
			t.Errorf("%s stock value = %v, want %v", s.SKU, got, v)
		}
		value += v
	}
	if got, err := shown(f.numFmt(t, "Stock", "F3"), f.number(t, "Stock", "F3")); err != nil || got != "-240" {
		t.Errorf("oversold available shows %q (%v), want -240", got, err)
	}
	f.checkTotal(t, "Stock", 9, 4, value)
	if got := f.raw(t, "Stock", "D5"); got != "" {
		t.Errorf("quantities of different units were summed: %q", got)
	}

	huge := []StockRow{{SKU: "X", Ready: 1 << 40, Price: 1 << 40}}
	if err := Write(context.Background(), &bytes.Buffer{}, Stock(About{}, Slice(huge))); err == nil || !strings.Contains(err.Error(), "15 digits") {
		t.Errorf("an overflowing stock value wrote %v", err)
	}
}

// TestExportsWithNoRows checks every export on empty books: headers, no
// totals, and an About sheet saying so.
func TestExportsWithNoRows(t *testing.T) {
	cases := map[string]Workbook{
		"outstanding": Outstanding(About{}, Slice[DueRow](nil)),
		"pending":     PendingOrders(About{}, Slice[PendingOrderRow](nil)),
		"sales":       Sales(About{}, Slice[SaleLine](nil)),
		"stock":       Stock(About{}, Slice[StockRow](nil)),
	}
	for name, wb := range cases {
		t.Run(name, func(t *testing.T) {
			f := write(t, wb)
			sheets := f.GetSheetList()
			if sheets[len(sheets)-1] != "About" {
				t.Fatalf("sheets = %q", sheets)
			}
			for _, sh := range sheets[:len(sheets)-1] {
				rows, err := f.GetRows(sh)
				if err != nil || len(rows) != 1 || len(rows[0]) == 0 {
					t.Errorf("%s rows = %q, %v; want the header alone", sh, rows, err)
				}
				if !slicesContain(f.aboutColumnB(t), sh+": no rows") {
					t.Errorf("About does not say %s has no rows: %q", sh, f.aboutColumnB(t))
				}
			}
		})
	}
}

// TestSummaryOrder checks the summary order without a file: largest
// amount first, ties by key.
func TestSummaryOrder(t *testing.T) {
	s := &summary{}
	for _, l := range []SaleLine{{SKU: "B", Amount: 100}, {SKU: "A", Amount: 100}, {SKU: "C", Amount: 500}, {SKU: "B", Amount: 1}} {
		s.add(l.SKU, l.SKU, "", l)
	}
	var keys []string
	for row, err := range s.rows(1, func(r Row, g *group) { r[0] = Str(g.key) }) {
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, row[0].s)
	}
	if !slices.Equal(keys, []string{"C", "B", "A"}) {
		t.Errorf("order = %q", keys)
	}
}

// TestOutstandingFromTheERP: dues the ERP owns are as of their sync, and
// a payment recorded here that the ERP does not show yet is noted.
func TestOutstandingFromTheERP(t *testing.T) {
	synced := time.Date(2026, 11, 30, 10, 42, 0, 0, kolkata)
	dues := []DueRow{{CustomerID: "C01", Customer: "Sharma Traders", Outstanding: 3000000, CreditLimit: 10000000, Provisional: 500000}}
	wb := Outstanding(About{MadeAt: synced.Add(3 * time.Hour), SyncedAt: synced}, Slice(dues))
	wb.Location = kolkata
	f := write(t, wb)
	if got := f.value(t, "Outstanding", "I2"); got != "₹5,000 paid here, not yet in the books." {
		t.Errorf("note = %q", got)
	}
	ref, ok := f.aboutValue(t, LabelAsOf)
	if got := f.value(t, "About", ref); !ok || got != "30-Nov-2026 10:42" {
		t.Errorf("as of = %q, want the ERP's sync time", got)
	}
}
