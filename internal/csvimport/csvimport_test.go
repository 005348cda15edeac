package csvimport_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/domain"
)

const (
	catalogHeader   = "sku,name,aliases,unit,pack_sizes,price,gst_percent,stock_ready,stock_wip\n"
	customersHeader = "id,name,aliases,phone,segment,credit_limit,outstanding,payment_modes\n"
	usersHeader     = "phone,name,role\n"

	gcRow = "GC500,Glass Cleaner 500ml,GC|colin,bottle,carton=24|box=6,92.00,18,2400,480\n"
	phRow = "PH1L,Phenyl 1L,phenyl,bottle,carton=12,65.00,18,1800,600\n"
	c01   = "C01,Rajesh Kirana Store,Rajesh,+919810000001,kirana,100000,35000,cod|credit|upi\n"
	u01   = "+919900000001,Vikram Singh,owner\n"
)

// demoFile reads one of the demo distributor's CSV files, the ones
// `munshi serve --demo` seeds from.
func demoFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "demo", "data", name))
	if err != nil {
		t.Fatalf("read demo %s: %v", name, err)
	}
	return b
}

func TestDemoCatalog(t *testing.T) {
	products, err := csvimport.ReadCatalog(bytes.NewReader(demoFile(t, "catalog.csv")))
	if err != nil {
		t.Fatalf("ReadCatalog(demo): %v", err)
	}
	if len(products) != 14 {
		t.Fatalf("demo catalog has %d products, want 14", len(products))
	}
	bySKU := map[string]domain.Product{}
	for _, p := range products {
		bySKU[p.SKU] = p
	}
	want := map[string]domain.Product{
		"GC500": {
			SKU: "GC500", Name: "Glass Cleaner 500ml",
			Aliases:   []string{"GC", "colin", "glass cleaner", "glas cleaner", "ग्लास क्लीनर"},
			Unit:      "bottle",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 24}, {Name: "box", Units: 6}},
			Price:     9200, GSTPercent: 1800, StockReady: 2400, StockWIP: 480,
		},
		"BR01": {
			SKU: "BR01", Name: "Floor Broom",
			Aliases:   []string{"broom", "jhadu", "jhaadu", "झाड़ू"},
			Unit:      "piece",
			PackSizes: []domain.PackSize{{Name: "dozen", Units: 12}},
			Price:     8000, GSTPercent: 1200, StockReady: 600, StockWIP: 0,
		},
		"NB100": {
			SKU: "NB100", Name: "Naphthalene Balls 100g",
			Aliases:   []string{"NB", "naphthalene", "goli", "फिनाइल गोली"},
			Unit:      "pack",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 100}},
			Price:     3000, GSTPercent: 1800, StockReady: 0, StockWIP: 1000,
		},
	}
	for sku, w := range want {
		got, ok := bySKU[sku]
		if !ok {
			t.Errorf("demo catalog lacks %s", sku)
			continue
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s:\n got %+v\nwant %+v", sku, got, w)
		}
	}
	// The order of the file is kept.
	if products[0].SKU != "GC500" || products[len(products)-1].SKU != "SP75" {
		t.Errorf("order not kept: first %s, last %s", products[0].SKU, products[len(products)-1].SKU)
	}
	gc := bySKU["GC500"]
	if p, ok := gc.Pack("CARTON"); !ok || p.Units != 24 {
		t.Errorf("GC500 carton = %+v, %v; want 24 bottles", p, ok)
	}
	if gc.Price.String() != "₹92" {
		t.Errorf("GC500 price prints %q, want ₹92", gc.Price.String())
	}
}

func TestDemoCustomers(t *testing.T) {
	customers, err := csvimport.ReadCustomers(bytes.NewReader(demoFile(t, "customers.csv")))
	if err != nil {
		t.Fatalf("ReadCustomers(demo): %v", err)
	}
	if len(customers) != 9 {
		t.Fatalf("demo has %d customers, want 9", len(customers))
	}
	byID := map[string]domain.Customer{}
	for _, c := range customers {
		byID[c.ID] = c
	}
	want := map[string]domain.Customer{
		"C02": {
			ID: "C02", Name: "Sharma General Store",
			Aliases: []string{"Sharma", "Sharma ji", "शर्मा"},
			Phone:   "+919810000002", Segment: "general_store",
			CreditLimit: 15000000, Outstanding: 12000000,
			PaymentModes: []domain.PaymentMode{domain.PayCOD, domain.PayCredit, domain.PayUPI, domain.PayCheque},
		},
		"C04": {
			ID: "C04", Name: "Gupta Supermart",
			Aliases: []string{"Gupta", "Gupta ji", "गुप्ता"},
			Phone:   "+919810000004", Segment: "supermarket",
			CreditLimit: 30000000, Outstanding: 0,
			PaymentModes: []domain.PaymentMode{domain.PayUPI, domain.PayBankTransfer, domain.PayCheque},
		},
		"C05": {
			ID: "C05", Name: "Hotel Shivam",
			Aliases: []string{"Shivam", "hotel shivam"},
			Phone:   "+919810000005", Segment: "horeca",
			CreditLimit: 7500000, Outstanding: 1500000,
			PaymentModes: []domain.PaymentMode{domain.PayCOD, domain.PayUPI, domain.PayCredit},
		},
	}
	for id, w := range want {
		got, ok := byID[id]
		if !ok {
			t.Errorf("demo customers lack %s", id)
			continue
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s:\n got %+v\nwant %+v", id, got, w)
		}
	}
	if c := byID["C03"]; !c.Accepts(domain.PayBankTransfer) || c.Accepts(domain.PayCOD) {
		t.Errorf("C03 modes = %v, want bank transfer and not COD", c.PaymentModes)
	}
}

func TestDemoUsers(t *testing.T) {
	users, err := csvimport.ReadUsers(bytes.NewReader(demoFile(t, "users.csv")))
	if err != nil {
		t.Fatalf("ReadUsers(demo): %v", err)
	}
	want := []domain.User{
		{Phone: "+919900000001", Name: "Vikram Singh", Role: domain.RoleOwner},
		{Phone: "+919900000002", Name: "Priya Nair", Role: domain.RoleAccounts},
		{Phone: "+919900000003", Name: "Ravi Kumar", Role: domain.RoleSales},
		{Phone: "+919900000004", Name: "Sunil Yadav", Role: domain.RoleSales},
	}
	if !reflect.DeepEqual(users, want) {
		t.Errorf("users:\n got %+v\nwant %+v", users, want)
	}
}

// kind picks which reader a table case goes through.
type kind int

const (
	catalog kind = iota
	customers
	users
	orders
	payments
)

func (k kind) String() string {
	return [...]string{"catalog", "customers", "users", "orders", "payments"}[k]
}

// read runs the reader of k and returns how many rows it produced.
func read(k kind, data string) (int, error) {
	in := strings.NewReader(data)
	switch k {
	case catalog:
		ps, err := csvimport.ReadCatalog(in)
		if err != nil && ps != nil {
			return -1, errors.New("ReadCatalog returned products with an error")
		}
		return len(ps), err
	case customers:
		cs, err := csvimport.ReadCustomers(in)
		if err != nil && cs != nil {
			return -1, errors.New("ReadCustomers returned customers with an error")
		}
		return len(cs), err
	case orders:
		h, err := readOrders(in, testBooks, kolkata)
		if err != nil && (h.Orders != nil || h.Line != nil) {
			return -1, errors.New("ReadOrders returned orders with an error")
		}
		return len(h.Orders), err
	case payments:
		h, err := readPayments(in, testBooks, kolkata)
		if err != nil && (h.Payments != nil || h.Line != nil) {
			return -1, errors.New("ReadPayments returned payments with an error")
		}
		return len(h.Payments), err
	default:
		us, err := csvimport.ReadUsers(in)
		if err != nil && us != nil {
			return -1, errors.New("ReadUsers returned users with an error")
		}
		return len(us), err
	}
}

// problem is a problem a test expects: on that line, with a reason holding
// every word (case-insensitively).
type problem struct {
	line  int
	words []string
}

func p(line int, words ...string) problem { return problem{line, words} }

// importError checks that err is a *csvimport.Error for file.
func importError(t *testing.T, err error, file string) *csvimport.Error {
	t.Helper()
	if err == nil {
		t.Fatal("no error, want a *csvimport.Error")
	}
	var ce *csvimport.Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %T %q is not a *csvimport.Error", err, err)
	}
	if ce.File != file {
		t.Errorf("Error.File = %q, want %q", ce.File, file)
	}
	if len(ce.Problems) == 0 {
		t.Errorf("Error has no problems")
	}
	if !strings.Contains(ce.Error(), "nothing imported") {
		t.Errorf("Error() = %q does not say nothing was imported", ce.Error())
	}
	return ce
}

// wantProblems checks that every expected problem is among the reported ones.
func wantProblems(t *testing.T, ce *csvimport.Error, want ...problem) {
	t.Helper()
	for _, w := range want {
		found := false
		for _, got := range ce.Problems {
			if got.Line == w.line && hasWords(got.Reason, w.words) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("no problem on line %d with %q; got %+v", w.line, w.words, ce.Problems)
		}
	}
}

func hasWords(s string, words []string) bool {
	s = strings.ToLower(s)
	for _, w := range words {
		if !strings.Contains(s, strings.ToLower(w)) {
			return false
		}
	}
	return true
}

func TestBadFiles(t *testing.T) {
	long := strings.Repeat("x", csvimport.MaxFieldBytes+1)
	tests := []struct {
		name string
		kind kind
		data string
		want []problem
		// exact, when set, is the number of problems the error must list.
		exact int
	}{
		{
			name: "missing column",
			kind: catalog,
			data: "sku,name,aliases,unit,pack_sizes,price,gst_percent,stock_ready\n" + "GC500,Glass Cleaner,,bottle,,92,18,10\n",
			want: []problem{p(1, "missing column", "stock_wip")}, exact: 1,
		},
		{
			name: "unknown column",
			kind: users,
			data: "phone,name,role,colour\n+919900000001,Vikram,owner,blue\n",
			want: []problem{p(1, "unknown column", "colour")}, exact: 1,
		},
		{
			name: "column twice",
			kind: users,
			data: "phone,name,role,Name\n+919900000001,Vikram,owner,V\n",
			want: []problem{p(1, "name", "twice")},
		},
		{
			name: "price not a number",
			kind: catalog,
			data: catalogHeader + gcRow + "PH1L,Phenyl 1L,,bottle,,abc,18,10,0\n",
			want: []problem{p(3, "price", `"abc"`)}, exact: 1,
		},
		{
			name: "negative stock",
			kind: catalog,
			data: catalogHeader + "PH1L,Phenyl 1L,,bottle,,65,18,-5,0\n",
			want: []problem{p(2, "stock_ready", `"-5"`)}, exact: 1,
		},
		{
			name: "fractional stock",
			kind: catalog,
			data: catalogHeader + "PH1L,Phenyl 1L,,bottle,,65,18,10,2.5\n",
			want: []problem{p(2, "stock_wip", `"2.5"`)}, exact: 1,
		},
		{
			name: "price with three decimals",
			kind: catalog,
			data: catalogHeader + "PH1L,Phenyl 1L,,bottle,,12.345,18,10,0\n",
			want: []problem{p(2, "price", `"12.345"`)}, exact: 1,
		},
		{
			name: "negative price",
			kind: catalog,
			data: catalogHeader + "PH1L,Phenyl 1L,,bottle,,-65,18,10,0\n",
			want: []problem{p(2, "price", `"-65"`)}, exact: 1,
		},
		{
			name: "gst above 100 percent",
			kind: catalog,
			data: catalogHeader + "PH1L,Phenyl 1L,,bottle,,65,101,10,0\n",
			want: []problem{p(2, "gst_percent", `"101"`)}, exact: 1,
		},
		{
			name: "duplicate sku in another case",
			kind: catalog,
			data: catalogHeader + gcRow + phRow + "gc500,Glass Cleaner again,,bottle,,90,18,1,0\n",
			want: []problem{p(4, "duplicate sku", `"gc500"`, "line 2")}, exact: 1,
		},
		{
			name: "bad sku",
			kind: catalog,
			data: catalogHeader + "GC 500,Glass Cleaner,,bottle,,92,18,1,0\n",
			want: []problem{p(2, "sku", `"GC 500"`)}, exact: 1,
		},
		{
			name: "empty name and unit",
			kind: catalog,
			data: catalogHeader + "GC500, ,,,,92,18,1,0\n",
			want: []problem{p(2, "name is empty"), p(2, "unit is empty")}, exact: 2,
		},
		{
			name: "pack size of zero",
			kind: catalog,
			data: catalogHeader + "GC500,Glass Cleaner,,bottle,carton=0,92,18,1,0\n",
			want: []problem{p(2, "pack size", `"carton=0"`)}, exact: 1,
		},
		{
			name: "pack size without a count",
			kind: catalog,
			data: catalogHeader + "GC500,Glass Cleaner,,bottle,carton,92,18,1,0\n",
			want: []problem{p(2, "pack size", `"carton"`, "carton=24")}, exact: 1,
		},
		{
			name: "pack size given twice",
			kind: catalog,
			data: catalogHeader + "GC500,Glass Cleaner,,bottle,carton=24|Carton=12,92,18,1,0\n",
			want: []problem{p(2, "pack size", "twice")}, exact: 1,
		},
		{
			name: "wrong role",
			kind: users,
			data: usersHeader + u01 + "+919900000002,Priya Nair,manager\n",
			want: []problem{p(3, "role", `"manager"`)}, exact: 1,
		},
		{
			name: "bad user phone",
			kind: users,
			data: usersHeader + "98100 00001,Vikram Singh,owner\n",
			want: []problem{p(2, "phone", "98100 00001", "E.164")}, exact: 1,
		},
		{
			name: "duplicate user phone written differently",
			kind: users,
			data: usersHeader + u01 + "+91 99000 00001,Vikram again,sales\n",
			want: []problem{p(3, "duplicate phone", "line 2")}, exact: 1,
		},
		{
			name: "bad payment mode",
			kind: customers,
			data: customersHeader + c01 + "C02,Sharma General Store,,+919810000002,general_store,150000,0,cod|paytm\n",
			want: []problem{p(3, "payment mode", `"paytm"`)}, exact: 1,
		},
		{
			name: "no payment mode",
			kind: customers,
			data: customersHeader + "C02,Sharma General Store,,+919810000002,general_store,150000,0,\n",
			want: []problem{p(2, "payment_modes is empty")}, exact: 1,
		},
		{
			name: "bad customer phone",
			kind: customers,
			data: customersHeader + "C02,Sharma General Store,,phone-me,general_store,150000,0,cod\n",
			want: []problem{p(2, "phone", `"phone-me"`, "E.164")}, exact: 1,
		},
		{
			name: "negative credit limit",
			kind: customers,
			data: customersHeader + "C02,Sharma General Store,,,general_store,-1,0,cod\n",
			want: []problem{p(2, "credit_limit", `"-1"`)}, exact: 1,
		},
		{
			name: "duplicate customer id",
			kind: customers,
			data: customersHeader + c01 + "c01,Rajesh again,,,kirana,0,0,cod\n",
			want: []problem{p(3, "duplicate id", "line 2")}, exact: 1,
		},
		{
			name: "not UTF-8 on line 3",
			kind: catalog,
			data: catalogHeader + gcRow + "PH1L,Ph\xe9nyl 1L,,bottle,,65,18,1,0\n" + "FC1L,Floor Cleaner,,bottle,,120,18,1,0\n",
			want: []problem{p(3, "UTF-8")}, exact: 1,
		},
		{
			name: "wrong field count",
			kind: users,
			data: usersHeader + u01 + "+919900000002,Priya Nair\n",
			want: []problem{p(3, "2 fields", "header has 3")}, exact: 1,
		},
		{
			name: "empty file",
			kind: customers,
			data: "",
			want: []problem{p(1, "empty file", "header")}, exact: 1,
		},
		{
			name: "field longer than the limit",
			kind: users,
			data: usersHeader + u01 + "+919900000002," + long + ",accounts\n",
			want: []problem{p(3, "name", "longer than 2048 bytes")}, exact: 1,
		},
		{
			name: "bare quote in the first field",
			kind: users,
			data: usersHeader + u01 + "+9199\"00000002,Priya Nair,accounts\n",
			want: []problem{p(3, "unreadable row", "quote")}, exact: 1,
		},
		{
			name: "unterminated quoted field",
			kind: catalog,
			data: catalogHeader + gcRow + "\"PH1L,Phenyl 1L,,bottle,,65,18,1,0\n",
			want: []problem{p(3, "unreadable row")}, exact: 1,
		},
		{
			name: "unreadable header",
			kind: users,
			data: "phone,\"name,role\n",
			want: []problem{p(1, "unreadable header")}, exact: 1,
		},
		{
			name: "error line counts blank and CRLF lines",
			kind: users,
			data: "phone,name,role\r\n\r\n+919900000001,Vikram Singh,owner\r\n\r\n\r\n+919900000002,Priya Nair,boss\r\n",
			want: []problem{p(6, "role", `"boss"`)}, exact: 1,
		},
		{
			name: "line break in a quoted field, and the line numbers after it",
			kind: catalog,
			data: catalogHeader + "GC500,\"Glass\nCleaner\",,bottle,,92,18,1,0\n" + "PH1L,Phenyl,,bottle,,x,18,1,0\n",
			want: []problem{p(2, "name", "line break"), p(4, "price", `"x"`)}, exact: 2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := read(tc.kind, tc.data)
			if n != 0 {
				t.Errorf("got %d rows with the error, want none", n)
			}
			ce := importError(t, err, tc.kind.String())
			wantProblems(t, ce, tc.want...)
			if tc.exact > 0 && len(ce.Problems) != tc.exact {
				t.Errorf("got %d problems, want %d: %+v", len(ce.Problems), tc.exact, ce.Problems)
			}
			for _, w := range tc.want {
				if !strings.Contains(ce.Error(), "line "+strconv.Itoa(w.line)+":") {
					t.Errorf("Error() does not name line %d:\n%s", w.line, ce.Error())
				}
			}
		})
	}
}

func TestSeveralProblemsInOneError(t *testing.T) {
	data := catalogHeader +
		gcRow + // 2: fine
		"PH1L,Phenyl 1L,,bottle,,abc,18,1,0\n" + // 3: bad price
		"TC500,Toilet Cleaner,,bottle,carton=0,85,18,-5,0\n" + // 4: bad pack and stock
		"FC1L,Floor Cleaner,,bottle,,120,18\n" + // 5: short row
		"gc500,Glass Cleaner,,bottle,,92,18,1,0\n" // 6: duplicate of line 2
	_, err := csvimport.ReadCatalog(strings.NewReader(data))
	ce := importError(t, err, "catalog")
	wantProblems(t, ce,
		p(3, "price", "abc"),
		p(4, "pack size", "carton=0"),
		p(4, "stock_ready", "-5"),
		p(5, "7 fields", "header has 9"),
		p(6, "duplicate sku", "line 2"),
	)
	if len(ce.Problems) != 5 {
		t.Errorf("got %d problems, want 5: %+v", len(ce.Problems), ce.Problems)
	}
	msg := ce.Error()
	for _, l := range []string{"line 3:", "line 4:", "line 5:", "line 6:"} {
		if !strings.Contains(msg, l) {
			t.Errorf("Error() lacks %q:\n%s", l, msg)
		}
	}
	if strings.Contains(msg, "line 2:") {
		t.Errorf("Error() blames the good line 2:\n%s", msg)
	}
}

func TestProblemsAreCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(usersHeader)
	for range 60 {
		b.WriteString("+919900000001,Vikram Singh,manager\n")
	}
	_, err := csvimport.ReadUsers(strings.NewReader(b.String()))
	ce := importError(t, err, "users")
	if len(ce.Problems) != 50 || ce.More != 10 {
		t.Errorf("got %d problems and %d more, want 50 and 10", len(ce.Problems), ce.More)
	}
	if !strings.Contains(ce.Error(), "… and 10 more") {
		t.Errorf("Error() does not count the unlisted problems:\n%s", ce.Error())
	}
	wantProblems(t, ce, p(2, "manager"), p(51, "manager"))
}

func TestHeaderOnly(t *testing.T) {
	for _, tc := range []struct {
		kind kind
		data string
	}{
		{catalog, catalogHeader},
		{customers, customersHeader},
		{users, usersHeader},
		{users, "phone,name,role"},           // no final newline
		{users, "phone,name,role\n\n  \n\n"}, // blank lines only
	} {
		n, err := read(tc.kind, tc.data)
		if err != nil || n != 0 {
			t.Errorf("%s %q: %d rows, %v; want 0 rows and no error", tc.kind, tc.data, n, err)
		}
	}
}

func TestHeaderIsForgiving(t *testing.T) {
	// Columns in another order, in capitals and padded still map by name.
	data := " Role ,PHONE,name\nsales,+919900000003,Ravi Kumar\n"
	us, err := csvimport.ReadUsers(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.User{{Phone: "+919900000003", Name: "Ravi Kumar", Role: domain.RoleSales}}
	if !reflect.DeepEqual(us, want) {
		t.Errorf("got %+v, want %+v", us, want)
	}
}

func TestBOM(t *testing.T) {
	data := "\xef\xbb\xbf" + catalogHeader + gcRow
	ps, err := csvimport.ReadCatalog(strings.NewReader(data))
	if err != nil {
		t.Fatalf("BOM-prefixed catalog: %v", err)
	}
	if len(ps) != 1 || ps[0].SKU != "GC500" || ps[0].Price != 9200 {
		t.Errorf("got %+v", ps)
	}
	// A BOM before a bad file must not shift the line numbers.
	_, err = csvimport.ReadUsers(strings.NewReader("\xef\xbb\xbf" + usersHeader + "+919900000001,Vikram,chief\n"))
	wantProblems(t, importError(t, err, "users"), p(2, "chief"))
}

func TestQuotedFieldsAndUnicode(t *testing.T) {
	data := catalogHeader +
		`GC500,"Glass Cleaner, 500ml ✨","GC|""colin""|ग्लास क्लीनर",bottle,"carton=24|box=6","1,092.50",18,"2,400",480` + "\n" +
		`SP75,साबुन 75g 🧼,"सा|soap, bath",bar,"डिब्बा=12",25,5%,10,0` + "\n"
	ps, err := csvimport.ReadCatalog(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.Product{
		{
			SKU: "GC500", Name: "Glass Cleaner, 500ml ✨",
			Aliases:   []string{"GC", `"colin"`, "ग्लास क्लीनर"},
			Unit:      "bottle",
			PackSizes: []domain.PackSize{{Name: "carton", Units: 24}, {Name: "box", Units: 6}},
			Price:     109250, GSTPercent: 1800, StockReady: 2400, StockWIP: 480,
		},
		{
			SKU: "SP75", Name: "साबुन 75g 🧼",
			Aliases:   []string{"सा", "soap, bath"},
			Unit:      "bar",
			PackSizes: []domain.PackSize{{Name: "डिब्बा", Units: 12}},
			Price:     2500, GSTPercent: 500, StockReady: 10,
		},
	}
	if !reflect.DeepEqual(ps, want) {
		t.Errorf("got  %+v\nwant %+v", ps, want)
	}

	cs, err := csvimport.ReadCustomers(strings.NewReader(customersHeader +
		`C01,"Rajesh Kirana, Sadar Bazar 🙏",राजेश|rajesh bhai,+91 98100-00001,kirana,"1,00,000",500.50,COD | UPI` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	wantC := []domain.Customer{{
		ID: "C01", Name: "Rajesh Kirana, Sadar Bazar 🙏", Aliases: []string{"राजेश", "rajesh bhai"},
		Phone: "+919810000001", Segment: "kirana", CreditLimit: 10000000, Outstanding: 50050,
		PaymentModes: []domain.PaymentMode{domain.PayCOD, domain.PayUPI},
	}}
	if !reflect.DeepEqual(cs, wantC) {
		t.Errorf("got  %+v\nwant %+v", cs, wantC)
	}
}

func TestCatalogDefaultsAndRates(t *testing.T) {
	data := catalogHeader +
		"A1,Empty optional columns,,Bottle,,0,,,\n" +
		"A2,Half rate,,piece,,1.5,2.5,0,0\n" +
		"A3,Percent sign,,piece,,.5,28%,0,0\n" +
		"A4,Zero rated,,piece,,₹ 10,0,0,0\n"
	ps, err := csvimport.ReadCatalog(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		sku   string
		unit  string
		price domain.Paise
		gst   domain.GSTRate
	}
	want := []got{
		{"A1", "bottle", 0, 1800},
		{"A2", "piece", 150, 250},
		{"A3", "piece", 50, 2800},
		{"A4", "piece", 1000, 0},
	}
	if len(ps) != len(want) {
		t.Fatalf("got %d products, want %d", len(ps), len(want))
	}
	for i, w := range want {
		g := got{ps[i].SKU, ps[i].Unit, ps[i].Price, ps[i].GSTPercent}
		if g != w {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
		if ps[i].PackSizes != nil || ps[i].Aliases != nil || ps[i].StockReady != 0 || ps[i].StockWIP != 0 {
			t.Errorf("row %d has packs, aliases or stock from empty columns: %+v", i, ps[i])
		}
	}
	if ps[1].GSTPercent.String() != "2.5%" {
		t.Errorf("2.5 GST prints %q", ps[1].GSTPercent.String())
	}
}

func TestBlankLinesAreSkipped(t *testing.T) {
	data := "\n" + usersHeader + "\n" + u01 + "   \n\n" + "+919900000003,Ravi Kumar,sales\n\n"
	us, err := csvimport.ReadUsers(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(us) != 2 || us[0].Phone != "+919900000001" || us[1].Phone != "+919900000003" {
		t.Errorf("got %+v", us)
	}
}

func TestCRLF(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	ps, err := csvimport.ReadCatalog(strings.NewReader(crlf(catalogHeader + gcRow + phRow)))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].StockWIP != 480 || ps[1].StockWIP != 600 {
		t.Fatalf("got %+v", ps)
	}
	cs, err := csvimport.ReadCustomers(strings.NewReader(crlf(customersHeader + c01)))
	if err != nil {
		t.Fatal(err)
	}
	last := cs[0].PaymentModes[len(cs[0].PaymentModes)-1]
	if last != domain.PayUPI {
		t.Errorf("last payment mode = %q, want upi (no carriage return)", last)
	}
	us, err := csvimport.ReadUsers(strings.NewReader(crlf(usersHeader + u01)))
	if err != nil {
		t.Fatal(err)
	}
	if us[0].Role != domain.RoleOwner {
		t.Errorf("role = %q", us[0].Role)
	}
	// The demo files with Windows line endings read the same.
	for _, name := range []string{"catalog.csv", "customers.csv", "users.csv"} {
		raw := demoFile(t, name)
		win := bytes.ReplaceAll(raw, []byte("\n"), []byte("\r\n"))
		a, errA := readAny(name, raw)
		b, errB := readAny(name, win)
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v / %v", name, errA, errB)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s reads differently with CRLF", name)
		}
	}
}

func readAny(name string, data []byte) (any, error) {
	switch name {
	case "catalog.csv":
		return csvimport.ReadCatalog(bytes.NewReader(data))
	case "customers.csv":
		return csvimport.ReadCustomers(bytes.NewReader(data))
	default:
		return csvimport.ReadUsers(bytes.NewReader(data))
	}
}

func TestFieldAtTheLimit(t *testing.T) {
	name := strings.Repeat("क", csvimport.MaxFieldBytes/3) // 3 bytes a letter
	us, err := csvimport.ReadUsers(strings.NewReader(usersHeader + "+919900000001," + name + ",owner\n"))
	if err != nil {
		t.Fatalf("a %d-byte name: %v", len(name), err)
	}
	if us[0].Name != name {
		t.Errorf("name changed")
	}
	name += "क" // now over the limit
	_, err = csvimport.ReadUsers(strings.NewReader(usersHeader + "+919900000001," + name + ",owner\n"))
	wantProblems(t, importError(t, err, "users"), p(2, "name", "longer than"))
}

func TestFileTooLarge(t *testing.T) {
	data := make([]byte, csvimport.MaxFileBytes+10)
	copy(data, usersHeader)
	for i := len(usersHeader); i < len(data); i++ {
		data[i] = '\n'
	}
	_, err := csvimport.ReadUsers(bytes.NewReader(data))
	wantProblems(t, importError(t, err, "users"), p(0, "larger than 32 MiB"))
}

func TestRoleAndModeSpelling(t *testing.T) {
	us, err := csvimport.ReadUsers(strings.NewReader(usersHeader +
		"+919900000001,A,OWNER\n+919900000002,B, Accounts \n+919900000003,C,Sales\n"))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []domain.Role{domain.RoleOwner, domain.RoleAccounts, domain.RoleSales} {
		if us[i].Role != want {
			t.Errorf("user %d role = %q, want %q", i, us[i].Role, want)
		}
	}
}

func TestUserPhones(t *testing.T) {
	tests := []struct {
		in, want string // want "" means the row is refused
	}{
		{"+919810000001", "+919810000001"},
		{" +91 98100-00001 ", "+919810000001"},
		{"+1 (415) 555-2671", "+14155552671"},
		{"+44 20 7946 0958", "+442079460958"},
		{"919810000001", ""},           // no plus
		{"+0919810000001", ""},         // country code cannot start with 0
		{"+9198100", ""},               // too short
		{"+1234567890123456", ""},      // 16 digits is too long
		{"+91981000000१", ""},          // Devanagari digit
		{"+91 9810.000001", ""},        // dot
		{"+91+9810000001", ""},         // second plus
		{"whatsapp:+919810000001", ""}, // channel prefix
		{"", ""},
	}
	for _, tc := range tests {
		data := usersHeader + `"` + tc.in + `",Ravi Kumar,sales` + "\n"
		us, err := csvimport.ReadUsers(strings.NewReader(data))
		if tc.want != "" {
			if err != nil || len(us) != 1 || us[0].Phone != tc.want {
				t.Errorf("phone %q: got %+v, %v; want %s", tc.in, us, err, tc.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("phone %q: got %+v, want the row refused", tc.in, us)
			continue
		}
		wantProblems(t, importError(t, err, "users"), p(2, "phone", "E.164"))
	}
}
