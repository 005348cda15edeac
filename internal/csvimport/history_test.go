package csvimport_test

import (
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/csvimport"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/intake"
)

const (
	ordersHeader   = "order_id,date,customer_id,sku,qty,price,gst_percent,status,placed_by\n"
	paymentsHeader = "date,customer_id,amount,mode,reference\n"
)

// testBooks are the customers and SKUs history rows may name.
var testBooks = intake.Known{Customers: []string{"C01", "C02", "Mehta-3"}, SKUs: []string{"GC500", "PH1L", "BR01"}}

// readOrders reads an orders file as `munshi import` does: csvimport reads
// the rows, intake checks them against the books and builds the orders.
func readOrders(in io.Reader, books intake.Known, loc *time.Location) (intake.OrderHistory, error) {
	rows, err := csvimport.ReadOrders(in, loc)
	if err != nil {
		return intake.OrderHistory{}, err
	}
	return intake.BuildOrders(rows, books)
}

// readPayments reads a payments file as `munshi import` does.
func readPayments(in io.Reader, books intake.Known, loc *time.Location) (intake.PaymentHistory, error) {
	rows, err := csvimport.ReadPayments(in, loc)
	if err != nil {
		return intake.PaymentHistory{}, err
	}
	return intake.BuildPayments(rows, books)
}

var kolkata = time.FixedZone("IST", 5*3600+1800)

func TestReadOrders(t *testing.T) {
	data := "\xef\xbb\xbf" + strings.ReplaceAll(ordersHeader+
		"T-5531,2026-09-14,C01,GC500,120,92.00,18,delivered,+919900000003\n"+
		"INV/26-27/0042,2026-09-15T18:45,c02,ph1l,7,65.55,18%,Committed,\n"+
		"T-5531,2026-09-14,C01,BR01,12,80,12,delivered,+91 99000-00003\n"+
		"\n"+
		"T-5532,2026-10-01,mehta-3,GC500,1,0.01,2.5,cancelled,\n", "\n", "\r\n")
	h, err := readOrders(strings.NewReader(data), testBooks, kolkata)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Orders) != 3 {
		t.Fatalf("%d orders, want 3: %+v", len(h.Orders), h.Orders)
	}
	if want := map[string]int{"T-5531": 2, "INV/26-27/0042": 3, "T-5532": 6}; !reflect.DeepEqual(h.Line, want) {
		t.Errorf("Line = %v, want %v", h.Line, want)
	}
	day := time.Date(2026, 9, 14, 0, 0, 0, 0, kolkata)
	gc := domain.OrderLine{SKU: "GC500", Qty: 120, Price: 9200, GSTRate: 1800, Amount: 1104000, GSTAmount: 198720}
	br := domain.OrderLine{SKU: "BR01", Qty: 12, Price: 8000, GSTRate: 1200, Amount: 96000, GSTAmount: 11520}
	want := domain.Order{ID: "T-5531", CustomerID: "C01", PlacedBy: "+919900000003", Status: domain.OrderDelivered,
		Lines: []domain.OrderLine{gc, br}, Subtotal: 1200000, GST: 210240, Total: 1410240, CreatedAt: day, CommittedAt: day}
	if !reflect.DeepEqual(h.Orders[0], want) {
		t.Errorf("T-5531:\n got %+v\nwant %+v", h.Orders[0], want)
	}
	// 7 × ₹65.55 = ₹458.85; 18% of it is ₹82.593, ₹82.59 to the paisa.
	o := h.Orders[1]
	if o.ID != "INV/26-27/0042" || o.CustomerID != "C02" || o.Lines[0].SKU != "PH1L" || o.Status != domain.OrderCommitted ||
		o.Subtotal != 45885 || o.GST != 8259 || o.Total != 54144 || o.PlacedBy != "" {
		t.Errorf("INV/26-27/0042 = %+v", o)
	}
	if at := time.Date(2026, 9, 15, 18, 45, 0, 0, kolkata); !o.CreatedAt.Equal(at) {
		t.Errorf("created at %v, want %v", o.CreatedAt, at)
	}
	if o := h.Orders[2]; o.CustomerID != "Mehta-3" || o.Lines[0].GSTRate != 250 || o.Total != 1 || o.Status != domain.OrderCancelled {
		t.Errorf("T-5532 = %+v", o)
	}
}

func TestReadOrdersBadRows(t *testing.T) {
	long := strings.Repeat("9", 30)
	tests := []badRow{
		{"unknown customer", "T-1,2026-09-14,C99,GC500,1,1,18,delivered,\n", []problem{p(2, "customer_id", "C99", "not a customer", "customers file")}},
		{"unknown sku", "T-1,2026-09-14,C01,NOPE,1,1,18,delivered,\n", []problem{p(2, "sku", "NOPE", "not a product", "catalog")}},
		{"bad date", "T-1,14/09/2026,C01,GC500,1,1,18,delivered,\n", []problem{p(2, "date", "YYYY-MM-DD")}},
		{"impossible date", "T-1,2026-02-30,C01,GC500,1,1,18,delivered,\n", []problem{p(2, "date")}},
		{"date out of range", "T-1,1899-01-01,C01,GC500,1,1,18,delivered,\n", []problem{p(2, "date", "between")}},
		{"bad status", "T-1,2026-09-14,C01,GC500,1,1,18,shipped,\n", []problem{p(2, "status", "shipped")}},
		{"draft status", "T-1,2026-09-14,C01,GC500,1,1,18,pending_approval,\n", []problem{p(2, "status")}},
		{"zero qty", "T-1,2026-09-14,C01,GC500,0,1,18,delivered,\n", []problem{p(2, "qty")}},
		{"fractional qty", "T-1,2026-09-14,C01,GC500,1.5,1,18,delivered,\n", []problem{p(2, "qty")}},
		{"price to a tenth of a paisa", "T-1,2026-09-14,C01,GC500,1,92.005,18,delivered,\n", []problem{p(2, "price")}},
		{"negative price", "T-1,2026-09-14,C01,GC500,1,-92,18,delivered,\n", []problem{p(2, "price", "negative")}},
		{"float price", "T-1,2026-09-14,C01,GC500,1,9.2e1,18,delivered,\n", []problem{p(2, "price")}},
		{"empty gst", "T-1,2026-09-14,C01,GC500,1,1,,delivered,\n", []problem{p(2, "gst_percent", "empty")}},
		{"gst over 100", "T-1,2026-09-14,C01,GC500,1,1,101,delivered,\n", []problem{p(2, "gst_percent")}},
		{"bad placed_by", "T-1,2026-09-14,C01,GC500,1,1,18,delivered,98100\n", []problem{p(2, "placed_by", "E.164")}},
		{"bad order id", "T 1,2026-09-14,C01,GC500,1,1,18,delivered,\n", []problem{p(2, "order_id")}},
		{"huge amounts", "T-1,2026-09-14,C01,GC500,1000000000," + long + ",18,delivered,\n", []problem{p(2, "price")}},
		{"line too large", "T-1,2026-09-14,C01,GC500,1000000000,10000000,18,delivered,\n", []problem{p(2, "qty × price")}},
		{"order too large", strings.Repeat("T-1,2026-09-14,C01,GC500,1000000,6000,18,delivered,\n", 2), []problem{p(2, "T-1", "comes to")}},
		{"rows disagree on date", "T-1,2026-09-14,C01,GC500,1,1,18,delivered,\nT-1,2026-09-15,C01,PH1L,1,1,18,delivered,\n",
			[]problem{p(3, "T-1", "date", "2026-09-15", "line 2")}},
		{"rows disagree on customer", "T-1,2026-09-14,C01,GC500,1,1,18,delivered,\nT-1,2026-09-14,C02,PH1L,1,1,18,delivered,\n",
			[]problem{p(3, "customer_id", "C02", "line 2")}},
		{"rows disagree on status", "T-1,2026-09-14,C01,GC500,1,1,18,delivered,\nT-1,2026-09-14,C01,PH1L,1,1,18,cancelled,\n",
			[]problem{p(3, "status", "cancelled")}},
		{"rows disagree on who placed it", "T-1,2026-09-14,C01,GC500,1,1,18,delivered,+919900000003\nT-1,2026-09-14,C01,PH1L,1,1,18,delivered,\n",
			[]problem{p(3, "placed_by")}},
		{"order id in two spellings", "T-1,2026-09-14,C01,GC500,1,1,18,delivered,\nt-1,2026-09-14,C01,PH1L,1,1,18,delivered,\n",
			[]problem{p(3, "t-1", "T-1", "line 2")}},
		{"every bad row named", "T-1,2026-09-14,C01,GC500,1,1,18,delivered,\nT-2,2026-09-14,C09,GC500,1,1,18,delivered,\nT-3,2026-09-14,C01,GC500,1,1,18,delivered,\nT-4,2026-09-14,C01,ZZ,1,1,18,delivered,\n",
			[]problem{p(3, "C09"), p(5, "ZZ")}},
	}
	badRows(t, orders, ordersHeader, tests)
}

func TestReadOrdersHeader(t *testing.T) {
	_, err := read(orders, "order_id,date,customer,sku,qty,price,gst_percent,status,placed_by\n")
	wantProblems(t, importError(t, err, "orders"), p(1, "missing column", "customer_id"), p(1, "unknown column", "customer"))
	_, err = read(payments, "")
	wantProblems(t, importError(t, err, "payments"), p(1, "empty file", "date,customer_id,amount,mode,reference"))
}

func TestReadPayments(t *testing.T) {
	data := paymentsHeader +
		"2026-09-15,C01,\"11,040.00\",cheque,CHQ 004512\n" +
		"2026-09-16T10:05,c02,1.5,UPI,UTR991\n" +
		"2026-09-16,C02,500,cod,\n" +
		"2026-09-16,C02,500,cod,\n" + // two cash payments alike: both kept
		"2026-09-17,C01,250,bank_transfer,utr991\n" // another customer's reference
	h, err := readPayments(strings.NewReader(data), testBooks, kolkata)
	if err != nil {
		t.Fatal(err)
	}
	want := []domain.Payment{
		{CustomerID: "C01", Amount: 1104000, Mode: domain.PayCheque, ReceivedAt: time.Date(2026, 9, 15, 0, 0, 0, 0, kolkata), Reference: "CHQ 004512"},
		{CustomerID: "C02", Amount: 150, Mode: domain.PayUPI, ReceivedAt: time.Date(2026, 9, 16, 10, 5, 0, 0, kolkata), Reference: "UTR991"},
		{CustomerID: "C02", Amount: 50000, Mode: domain.PayCOD, ReceivedAt: time.Date(2026, 9, 16, 0, 0, 0, 0, kolkata)},
		{CustomerID: "C02", Amount: 50000, Mode: domain.PayCOD, ReceivedAt: time.Date(2026, 9, 16, 0, 0, 0, 0, kolkata)},
		{CustomerID: "C01", Amount: 25000, Mode: domain.PayBankTransfer, ReceivedAt: time.Date(2026, 9, 17, 0, 0, 0, 0, kolkata), Reference: "utr991"},
	}
	if !reflect.DeepEqual(h.Payments, want) {
		t.Errorf("payments:\n got %+v\nwant %+v", h.Payments, want)
	}
	if !reflect.DeepEqual(h.Line, []int{2, 3, 4, 5, 6}) {
		t.Errorf("Line = %v", h.Line)
	}
}

func TestReadPaymentsBadRows(t *testing.T) {
	tests := []badRow{
		{"unknown customer", "2026-09-15,C99,100,cod,\n", []problem{p(2, "C99", "not a customer")}},
		{"zero", "2026-09-15,C01,0,cod,\n", []problem{p(2, "amount", "more than zero")}},
		{"negative", "2026-09-15,C01,-5,cod,\n", []problem{p(2, "amount", "negative")}},
		{"three decimals", "2026-09-15,C01,10.005,cod,\n", []problem{p(2, "amount")}},
		{"empty amount", "2026-09-15,C01,,cod,\n", []problem{p(2, "amount")}},
		{"unknown mode", "2026-09-15,C01,100,paytm,\n", []problem{p(2, "mode", "paytm")}},
		{"bad date", "15-09-2026,C01,100,cod,\n", []problem{p(2, "date")}},
		{"long reference", "2026-09-15,C01,100,cod," + strings.Repeat("R", 65) + "\n", []problem{p(2, "reference", "64")}},
		{"reference twice for a customer", "2026-09-15,C01,100,upi,UTR991\n2026-09-16,C01,200,upi,utr991\n", []problem{p(3, "utr991", "line 2")}},
	}
	badRows(t, payments, paymentsHeader, tests)
}

// badRow is rows of a file and the problems, exactly, that refuse it.
type badRow struct {
	name string
	rows string
	want []problem
}

func badRows(t *testing.T, k kind, header string, tests []badRow) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := read(k, header+tc.rows)
			if n != 0 {
				t.Fatalf("%d rows returned with the error", n)
			}
			ce := importError(t, err, k.String())
			wantProblems(t, ce, tc.want...)
			if len(ce.Problems) != len(tc.want) {
				t.Errorf("problems %+v, want %d", ce.Problems, len(tc.want))
			}
		})
	}
}
