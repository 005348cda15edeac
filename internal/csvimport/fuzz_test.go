package csvimport_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

// The fuzz targets check that no file, however broken, makes a reader panic,
// and that a reader either refuses the file with a well-formed *Error or
// returns rows that hold the contract's invariants and read back the same
// when written out again.

func addSeeds(f *testing.F, header string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
		f.Add([]byte(header + s))
		f.Add([]byte("\xef\xbb\xbf" + strings.ReplaceAll(header+s, "\n", "\r\n")))
	}
	f.Add([]byte(""))
	f.Add([]byte(header))
}

// Hostile rows, one kind a line, that every fuzz target starts from: line
// breaks, NUL, DEL and C1 controls inside quoted fields, direction
// overrides and isolates, invisible characters, joiners in and out of
// place, negative and huge amounts, and names people reply with.
const (
	hostileCatalog = "GC500,\"Glass\r\nCleaner\",GC,bottle,carton=24,92,18,1,0\n" +
		"PH1L,\"Phenyl\x00\",,bottle,,65,18,1,0\n" +
		"TC500,Toilet \u202Erenaelc,TC,bottle,,85,18,1,0\n" +
		"FC1L,Floor \u2066Cleaner\u2069,FC,bottle,,120,18,1,0\n" +
		"DW500,Dish\u200Bwash,DW|\ufeffdw,bottle,,99,18,1,0\n" +
		"SP75,साबुन,क्\u200Dष|\u200Dsoap,bar,,25,18,1,0\n" +
		"OK,Okay,ok|haan|हां|👍|cancel|more|help|stop,bottle,,1,18,1,0\n" +
		"FREE,Display Stand,,piece,,0,18,1,0\n" +
		"BIG,Big,,piece,,100000000000000,18,1,0\n" +
		"DEL,Del\x7f\u0085\u009b,,piece,,-1,18,-1,-1\n"
	hostileCustomers = "C01,\"Rajesh\nKirana\",Rajesh,,kirana,100000,-35000,cod\n" +
		"C02,Sharma \u202Eerots,ok|ठीक है|haan ji,,kirana,-1,0,cod\n" +
		"C03,Mehta\u2028Traders,\u200Fmehta,,kirana,99999999999999,0,cod\n" +
		"C04,Gupta\u00ad,\U000E0041gupta,,kirana,0,99999999999999,cod\n" +
		"C05,Cancel,nahi|नहीं|reject|approve|confirm|yes|no|okay,,kirana,0,0,cod\n" +
		"C06,Hotel 👨\u200D👩\u200D👧,श्\u200Cर,,horeca,0,0,cod\n"
	hostileUsers = "+919900000001,\"Vikram\r\nSingh\",owner\n" +
		"+919900000002,Priya\x00,accounts\n" +
		"+919900000003,\u202ERavi,sales\n" +
		"+919900000004,Sunil\uE000,sales\n"
)

func FuzzReadCatalog(f *testing.F) {
	f.Add(demoFile(f, "catalog.csv"))
	addSeeds(f, catalogHeader,
		gcRow+phRow,
		"GC500,\"Glass Cleaner, 500ml\",\"GC|\"\"colin\"\"\",bottle,carton=24|box=6,\"1,092.50\",2.5%,\"2,400\",480\n",
		"SP75,साबुन 🧼,सा|soap,bar,डिब्बा=12,25,5,10,0\n",
		"GC500,x,,bottle,carton=0,abc,101,-5,2.5\ngc500,y,,bottle,carton,12.345,18,1,0\n",
		"PH1L,Ph\xe9nyl,,bottle,,65,18,1,0\n",
		"a\"b,x,,u,,1,1,1,1\n",
		"GC500,x,,bottle\n\n   \n",
		hostileCatalog,
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, err := csvimport.ReadCatalog(bytes.NewReader(data))
		if err != nil {
			checkError(t, err, "catalog", data)
			if ps != nil {
				t.Fatalf("products %+v returned with an error", ps)
			}
			return
		}
		seen := map[string]bool{}
		for _, p := range ps {
			if p.SKU == "" || p.Name == "" || p.Unit == "" {
				t.Fatalf("empty sku, name or unit: %+v", p)
			}
			if p.Price < 0 || p.Price > 1_00_00_000_00 || p.GSTPercent < 0 || p.GSTPercent > 10000 || p.StockReady < 0 || p.StockWIP < 0 {
				t.Fatalf("out-of-range number: %+v", p)
			}
			checkNotReplies(t, append([]string{p.SKU, p.Name}, p.Aliases...)...)
			if k := strings.ToLower(p.SKU); seen[k] {
				t.Fatalf("sku %s twice", p.SKU)
			} else {
				seen[k] = true
			}
			strs := append([]string{p.SKU, p.Name, p.Unit}, p.Aliases...)
			for _, ps := range p.PackSizes {
				if ps.Units < 1 || ps.Name == "" || strings.Contains(ps.Name, "=") {
					t.Fatalf("bad pack size %+v in %+v", ps, p)
				}
				strs = append(strs, ps.Name)
			}
			checkStrings(t, strs...)
		}
		again, err := csvimport.ReadCatalog(bytes.NewReader(writeCatalog(t, ps)))
		if err != nil {
			t.Fatalf("written-out catalog refused: %v", err)
		}
		if !reflect.DeepEqual(again, ps) {
			t.Fatalf("written-out catalog reads differently:\n got %+v\nwant %+v", again, ps)
		}
	})
}

func FuzzReadCustomers(f *testing.F) {
	f.Add(demoFile(f, "customers.csv"))
	addSeeds(f, customersHeader,
		c01,
		"C01,\"Rajesh Kirana, Sadar Bazar 🙏\",राजेश|rajesh bhai,+91 98100-00001,kirana,\"1,00,000\",-500.50,COD | UPI\n",
		"C02,Sharma,,,general_store,,,cod|paytm\nc02,x,,12345,,-1,abc,\n",
		"C03,Mehta,,+919810000003,wholesale,500000,210000,credit|cheque|bank_transfer,extra\n",
		hostileCustomers,
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := csvimport.ReadCustomers(bytes.NewReader(data))
		if err != nil {
			checkError(t, err, "customers", data)
			if cs != nil {
				t.Fatalf("customers %+v returned with an error", cs)
			}
			return
		}
		seen := map[string]bool{}
		for _, c := range cs {
			if c.ID == "" || c.Name == "" {
				t.Fatalf("empty id or name: %+v", c)
			}
			if c.CreditLimit < 0 || c.Outstanding < 0 || c.CreditLimit > maxBalance || c.Outstanding > maxBalance {
				t.Fatalf("credit limit or outstanding out of range: %+v", c)
			}
			checkNotReplies(t, append([]string{c.Name}, c.Aliases...)...)
			if c.Phone != "" {
				checkPhone(t, c.Phone)
			}
			if len(c.PaymentModes) == 0 {
				t.Fatalf("no payment mode: %+v", c)
			}
			for _, m := range c.PaymentModes {
				if _, err := domain.ParsePaymentMode(string(m)); err != nil || string(m) != strings.ToLower(string(m)) {
					t.Fatalf("payment mode %q not canonical", m)
				}
			}
			if k := strings.ToLower(c.ID); seen[k] {
				t.Fatalf("id %s twice", c.ID)
			} else {
				seen[k] = true
			}
			checkStrings(t, append([]string{c.ID, c.Name, c.Segment, c.Phone}, c.Aliases...)...)
		}
		again, err := csvimport.ReadCustomers(bytes.NewReader(writeCustomers(t, cs)))
		if err != nil {
			t.Fatalf("written-out customers refused: %v", err)
		}
		if !reflect.DeepEqual(again, cs) {
			t.Fatalf("written-out customers read differently:\n got %+v\nwant %+v", again, cs)
		}
	})
}

func FuzzReadUsers(f *testing.F) {
	f.Add(demoFile(f, "users.csv"))
	addSeeds(f, usersHeader,
		u01+"+919900000002,Priya Nair,accounts\n",
		"+91 99000-00003,\"Kumar, Ravi\",SALES\n",
		"98100,x,manager\n+919900000001,,owner\n+91 9900000001,y,sales\n",
		"+919900000001,\"Vik\"ram,owner\n",
		hostileUsers,
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		us, err := csvimport.ReadUsers(bytes.NewReader(data))
		if err != nil {
			checkError(t, err, "users", data)
			if us != nil {
				t.Fatalf("users %+v returned with an error", us)
			}
			return
		}
		seen := map[string]bool{}
		for _, u := range us {
			checkPhone(t, u.Phone)
			if u.Name == "" {
				t.Fatalf("empty name: %+v", u)
			}
			if r, err := domain.ParseRole(string(u.Role)); err != nil || r != u.Role {
				t.Fatalf("role %q not canonical", u.Role)
			}
			if seen[u.Phone] {
				t.Fatalf("phone %s twice", u.Phone)
			}
			seen[u.Phone] = true
			checkStrings(t, u.Phone, u.Name)
		}
		again, err := csvimport.ReadUsers(bytes.NewReader(writeUsers(t, us)))
		if err != nil {
			t.Fatalf("written-out users refused: %v", err)
		}
		if !reflect.DeepEqual(again, us) {
			t.Fatalf("written-out users read differently:\n got %+v\nwant %+v", again, us)
		}
	})
}

// checkError checks the shape of a refusal: a *csvimport.Error for the file,
// with between one and fifty problems on lines that exist.
func checkError(t *testing.T, err error, file string, data []byte) {
	t.Helper()
	var ce *csvimport.Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %T %v is not a *csvimport.Error", err, err)
	}
	if ce.File != file {
		t.Fatalf("Error.File = %q, want %q", ce.File, file)
	}
	if len(ce.Problems) == 0 || len(ce.Problems) > 50 || ce.More < 0 {
		t.Fatalf("%d problems and %d more", len(ce.Problems), ce.More)
	}
	lines := bytes.Count(data, []byte("\n")) + 1
	for _, p := range ce.Problems {
		if p.Line < 0 || p.Line > lines || p.Reason == "" {
			t.Fatalf("problem %+v in a file of %d lines", p, lines)
		}
	}
	if !utf8.ValidString(ce.Error()) {
		t.Fatalf("Error() is not valid UTF-8: %q", ce.Error())
	}
}

// maxBalance is the largest credit limit or outstanding a file may give.
const maxBalance = 1_000_00_00_000_00

// checkStrings checks that imported text is valid, trimmed and shows as
// what it is: no control, direction, invisible format or private-use
// character, and a zero-width (non-)joiner only between two visible ones.
func checkStrings(t *testing.T, ss ...string) {
	t.Helper()
	for _, s := range ss {
		if !utf8.ValidString(s) {
			t.Fatalf("%q is not valid UTF-8", s)
		}
		if s != strings.TrimSpace(s) {
			t.Fatalf("%q is not trimmed", s)
		}
		rs := []rune(s)
		for i, r := range rs {
			joiner := r == '\u200C' || r == '\u200D'
			if joiner && (i == 0 || i == len(rs)-1 || !shown(rs[i-1]) || !shown(rs[i+1])) {
				t.Fatalf("%q has a joiner %U at %d that joins nothing", s, r, i)
			}
			if !joiner && (unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Co, unicode.Zl, unicode.Zp)) {
				t.Fatalf("%q holds %U", s, r)
			}
		}
	}
}

func shown(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || unicode.IsSymbol(r)
}

// checkNotReplies checks that no name is a reply people send Munshi.
func checkNotReplies(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if intent.CommandWord(n) || reports.IsMore(n) {
			t.Fatalf("%q imported as a name, but people reply with it", n)
		}
	}
}

func checkPhone(t *testing.T, phone string) {
	t.Helper()
	if len(phone) < 9 || len(phone) > 16 || phone[0] != '+' || phone[1] == '0' {
		t.Fatalf("phone %q is not E.164", phone)
	}
	for _, c := range phone[1:] {
		if c < '0' || c > '9' {
			t.Fatalf("phone %q is not E.164", phone)
		}
	}
}

func rupees(p domain.Paise) string {
	sign := ""
	if p < 0 {
		sign, p = "-", -p
	}
	return fmt.Sprintf("%s%d.%02d", sign, p/100, p%100)
}

func writeCSV(t *testing.T, header []string, rows [][]string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.Write(header); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func writeCatalog(t *testing.T, ps []domain.Product) []byte {
	var rows [][]string
	for _, p := range ps {
		var packs []string
		for _, ps := range p.PackSizes {
			packs = append(packs, ps.Name+"="+strconv.FormatInt(ps.Units, 10))
		}
		rows = append(rows, []string{p.SKU, p.Name, strings.Join(p.Aliases, "|"), p.Unit, strings.Join(packs, "|"),
			rupees(p.Price), rupees(domain.Paise(p.GSTPercent)), strconv.FormatInt(p.StockReady, 10),
			strconv.FormatInt(p.StockWIP, 10)})
	}
	return writeCSV(t, csvimport.CatalogColumns, rows)
}

func writeCustomers(t *testing.T, cs []domain.Customer) []byte {
	var rows [][]string
	for _, c := range cs {
		var modes []string
		for _, m := range c.PaymentModes {
			modes = append(modes, string(m))
		}
		rows = append(rows, []string{c.ID, c.Name, strings.Join(c.Aliases, "|"), c.Phone, c.Segment,
			rupees(c.CreditLimit), rupees(c.Outstanding), strings.Join(modes, "|")})
	}
	return writeCSV(t, csvimport.CustomerColumns, rows)
}

func writeUsers(t *testing.T, us []domain.User) []byte {
	var rows [][]string
	for _, u := range us {
		rows = append(rows, []string{u.Phone, u.Name, string(u.Role)})
	}
	return writeCSV(t, csvimport.UserColumns, rows)
}

func TestWriteBackDemo(t *testing.T) {
	// The write-back the fuzz targets rely on is itself faithful.
	ps, err := csvimport.ReadCatalog(bytes.NewReader(demoFile(t, "catalog.csv")))
	if err != nil {
		t.Fatal(err)
	}
	again, err := csvimport.ReadCatalog(bytes.NewReader(writeCatalog(t, ps)))
	if err != nil || !reflect.DeepEqual(again, ps) {
		t.Fatalf("catalog write-back: %v", err)
	}
	cs, err := csvimport.ReadCustomers(bytes.NewReader(demoFile(t, "customers.csv")))
	if err != nil {
		t.Fatal(err)
	}
	againC, err := csvimport.ReadCustomers(bytes.NewReader(writeCustomers(t, cs)))
	if err != nil || !reflect.DeepEqual(againC, cs) {
		t.Fatalf("customers write-back: %v", err)
	}
}

// Hostile history rows: controls and line breaks inside quoted fields,
// direction overrides, invisible characters, amounts past any business and
// rows of one order that disagree.
const (
	hostileOrders = "\"T-1\r\n\",2026-09-14,C01,GC500,1,1,18,delivered,\n" +
		"T-2,2026-09-14,C01\x00,GC500,1,1,18,delivered,\n" +
		"T-3,2026-09-14,\u202EC01,GC500,1,1,18,delivered,\n" +
		"T-4,2026-09-14,C01,GC\u200B500,1,1,18,delivered,\n" +
		"T-5,2026-09-14,C01,GC500,999999999999,99999999999,18,delivered,\n" +
		"T-6,2026-09-14,C01,GC500,1,1,18,delivered,\nT-6,2026-09-15,C02,GC500,1,1,18,cancelled,+919900000003\n" +
		"T-7,२०२६-०९-१४,C01,GC500,१,1,18,delivered,\n"
	hostilePayments = "2026-09-15,C01,\"1\n00\",cod,\n" +
		"2026-09-15,C01,100,cod,UTR\u2066991\u2069\n" +
		"2026-09-15,C01,100000000000000,cod,\n" +
		"2026-09-15,C01,100,upi,ref 🧾 ₹\n2026-09-15,c01,100,upi,REF 🧾 ₹\n"
)

func FuzzReadOrders(f *testing.F) {
	addSeeds(f, ordersHeader,
		"T-5531,2026-09-14,C01,GC500,120,92.00,18,delivered,+919900000003\nT-5531,2026-09-14,C01,BR01,12,80,12,delivered,+919900000003\n",
		"INV/26-27/0042,2026-09-15T18:45,c02,ph1l,7,65.55,18%,Committed,\nT-2,2026-09-15 09:00,Mehta-3,GC500,\"1,000\",0,0,cancelled,\n",
		"T-1,2026-02-30,C99,NOPE,0,-1,101,shipped,98100\nt-1,x,,,,,,,\n",
		hostileOrders,
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := readOrders(bytes.NewReader(data), testBooks, kolkata)
		if err != nil {
			checkError(t, err, "orders", data)
			if h.Orders != nil || h.Line != nil {
				t.Fatalf("orders %+v returned with an error", h.Orders)
			}
			return
		}
		seen := map[string]bool{}
		for _, o := range h.Orders {
			if k := strings.ToLower(o.ID); o.ID == "" || seen[k] {
				t.Fatalf("order id %q empty or twice", o.ID)
			} else {
				seen[k] = true
			}
			if h.Line[o.ID] < 2 || len(o.Lines) == 0 || !slices.Contains(testBooks.Customers, o.CustomerID) {
				t.Fatalf("order %+v on line %d", o, h.Line[o.ID])
			}
			if o.Status != domain.OrderCommitted && o.Status != domain.OrderDelivered && o.Status != domain.OrderCancelled {
				t.Fatalf("status %q", o.Status)
			}
			if o.PlacedBy != "" {
				checkPhone(t, o.PlacedBy)
			}
			var sub, gst domain.Paise
			for _, l := range o.Lines {
				if !slices.Contains(testBooks.SKUs, l.SKU) || l.Qty < 1 || l.Price < 0 || l.GSTRate < 0 || l.GSTRate > 10000 ||
					l != domain.PriceLine(l) {
					t.Fatalf("line %+v", l)
				}
				sub, gst = sub+l.Amount, gst+l.GSTAmount
			}
			if o.Subtotal != sub || o.GST != gst || o.Total != sub+gst || o.Total > maxBalance {
				t.Fatalf("order %s totals %v + %v = %v", o.ID, o.Subtotal, o.GST, o.Total)
			}
			if o.CreatedAt.Year() < 2000 || o.CreatedAt.Year() > 2099 || !o.CommittedAt.Equal(o.CreatedAt) {
				t.Fatalf("order %s dated %v", o.ID, o.CreatedAt)
			}
			checkStrings(t, o.ID)
		}
		again, err := readOrders(bytes.NewReader(writeOrders(t, h.Orders)), testBooks, kolkata)
		if err != nil {
			t.Fatalf("written-out orders refused: %v", err)
		}
		if !reflect.DeepEqual(again.Orders, h.Orders) {
			t.Fatalf("written-out orders read differently:\n got %+v\nwant %+v", again.Orders, h.Orders)
		}
	})
}

func FuzzReadPayments(f *testing.F) {
	addSeeds(f, paymentsHeader,
		"2026-09-15,C01,\"11,040.00\",cheque,CHQ 004512\n2026-09-16T10:05,c02,1.5,UPI,UTR991\n",
		"2026-09-16,C02,500,cod,\n2026-09-16,C02,500,cod,\n2026-09-17,C01,250,bank_transfer,utr991\n",
		"2026-09-15,C99,0,paytm,x\n15-09-2026,C01,-1,cod,\n",
		hostilePayments,
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := readPayments(bytes.NewReader(data), testBooks, kolkata)
		if err != nil {
			checkError(t, err, "payments", data)
			if h.Payments != nil || h.Line != nil {
				t.Fatalf("payments %+v returned with an error", h.Payments)
			}
			return
		}
		if len(h.Line) != len(h.Payments) {
			t.Fatalf("%d lines for %d payments", len(h.Line), len(h.Payments))
		}
		refs := map[string]bool{}
		for i, p := range h.Payments {
			if i > 0 && h.Line[i] <= h.Line[i-1] {
				t.Fatalf("lines %v out of order", h.Line)
			}
			if !slices.Contains(testBooks.Customers, p.CustomerID) || p.Amount <= 0 || p.Amount > maxBalance {
				t.Fatalf("payment %+v", p)
			}
			if m, err := domain.ParsePaymentMode(string(p.Mode)); err != nil || m != p.Mode {
				t.Fatalf("mode %q not canonical", p.Mode)
			}
			if p.Reference != "" {
				k := strings.ToLower(p.CustomerID + " " + p.Reference)
				if refs[k] {
					t.Fatalf("reference %q of %s twice", p.Reference, p.CustomerID)
				}
				refs[k] = true
			}
			checkStrings(t, p.Reference)
		}
		again, err := readPayments(bytes.NewReader(writePayments(t, h.Payments)), testBooks, kolkata)
		if err != nil {
			t.Fatalf("written-out payments refused: %v", err)
		}
		if !reflect.DeepEqual(again.Payments, h.Payments) {
			t.Fatalf("written-out payments read differently:\n got %+v\nwant %+v", again.Payments, h.Payments)
		}
	})
}

// historyDate writes a time as the history files do, to the minute.
func historyDate(t time.Time) string { return t.In(kolkata).Format("2006-01-02T15:04") }

func writeOrders(t *testing.T, os []domain.Order) []byte {
	var rows [][]string
	for _, o := range os {
		for _, l := range o.Lines {
			rows = append(rows, []string{o.ID, historyDate(o.CreatedAt), o.CustomerID, l.SKU, strconv.FormatInt(l.Qty, 10),
				rupees(l.Price), rupees(domain.Paise(l.GSTRate)), string(o.Status), o.PlacedBy})
		}
	}
	return writeCSV(t, csvimport.OrderColumns, rows)
}

func writePayments(t *testing.T, ps []domain.Payment) []byte {
	var rows [][]string
	for _, p := range ps {
		rows = append(rows, []string{historyDate(p.ReceivedAt), p.CustomerID, rupees(p.Amount), string(p.Mode), p.Reference})
	}
	return writeCSV(t, csvimport.PaymentColumns, rows)
}
