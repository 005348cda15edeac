package orders_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
	"github.com/munshi/munshi/orders"
)

// shop is the demo's books with phenyl in two sizes and two Sharmas, a
// salesperson, and the order service over them, on a fixed clock.
type shop struct {
	t      testing.TB
	svc    *orders.Service
	books  store.Store
	router *intent.Router
	ravi   domain.User
	// pending is the question the last reply left waiting, as the
	// conversation would keep it; shown the draft it showed.
	pending, shown string
}

func newShop(t testing.TB, chooser orders.Chooser) *shop {
	t.Helper()
	ctx := context.Background()
	books, clock := openBooks(t)
	if _, err := demo.Seed(ctx, books, clock()); err != nil {
		t.Fatal(err)
	}
	products, customers, _, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	for i := range products {
		if products[i].SKU == "PH1L" {
			big := products[i]
			big.SKU, big.Name, big.Aliases, big.Price = "PH5L", "Phenyl 5L", []string{"phenyl", "bada phenyl"}, 29000
			big.PackSizes = []domain.PackSize{{Name: "carton", Units: 4}}
			products = append(products, big)
			break
		}
	}
	customers = append(customers, domain.Customer{ID: "C10", Name: "Sharma Hardware", Aliases: []string{"Sharma"},
		CreditLimit: 30000000, PaymentModes: []domain.PaymentMode{domain.PayCOD, domain.PayCheque}})
	s := shopOver(t, books, clock, products, customers)
	if chooser != nil {
		s.svc.Chooser = chooser
	}
	return s
}

// openBooks opens empty books on a fixed clock, 16 Nov 2026 at 11:00 in
// India.
func openBooks(t testing.TB) (store.Store, func() time.Time) {
	t.Helper()
	now := time.Date(2026, 11, 16, 5, 30, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	books, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "m.db"), store.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { books.Close() })
	return books, clock
}

// shopOver is the order service over books that hold products and
// customers, for a salesperson, on clock.
func shopOver(t testing.TB, books store.Store, clock func() time.Time, products []domain.Product, customers []domain.Customer) *shop {
	t.Helper()
	ctx := context.Background()
	if err := books.UpsertProducts(ctx, products); err != nil {
		t.Fatal(err)
	}
	if err := books.UpsertCustomers(ctx, customers); err != nil {
		t.Fatal(err)
	}
	router, err := intent.NewRouter(intent.Vocabulary{Products: products, Customers: customers}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc := &orders.Service{Books: books, Parser: orders.NewParser(router, products, customers),
		Audit: audit.New(books, nil, quiet), Logger: quiet, Now: clock, MinimumOrder: 2500000}
	return &shop{t: t, svc: svc, books: books, router: router,
		ravi: domain.User{Phone: demo.SalesPhone, Name: "Ravi", Role: domain.RoleSales}}
}

// say sends text as the conversation would: as the answer to the pending
// question, else as a correction of the draft shown, else as itself.
func (s *shop) say(text string) domain.Reply {
	s.t.Helper()
	ctx := context.Background()
	d := s.router.Route(ctx, text)
	var r domain.Reply
	var ok bool
	switch {
	case s.pending != "":
		r, ok = s.svc.Answer(ctx, s.ravi, s.pending, d)
	case s.shown != "":
		r, ok = s.svc.Correct(ctx, s.ravi, s.shown, d)
	}
	if !ok {
		switch d.Intent {
		case domain.IntentConfirm:
			r = s.svc.Confirm(ctx, s.ravi, "")
		case domain.IntentOrder:
			r = s.svc.Take(ctx, s.ravi, d)
		default:
			s.t.Fatalf("%q: neither an answer, a correction nor an order (%s)", text, d.Intent)
		}
	}
	s.pending, s.shown = r.Pending, r.About
	return r
}

// lines is the draft last shown, as SKU:qty pairs, with its customer and
// payment.
func (s *shop) draft() orders.Draft {
	s.t.Helper()
	if s.shown == "" {
		s.t.Fatal("no draft shown")
	}
	d, ok, err := s.books.DraftByID(context.Background(), s.shown)
	if err != nil || !ok {
		s.t.Fatalf("draft %s: %v %v", s.shown, ok, err)
	}
	return d
}

func (s *shop) wantDraft(customer string, payment domain.PaymentMode, lines ...string) {
	s.t.Helper()
	d := s.draft()
	var got []string
	for _, l := range d.Lines {
		got = append(got, l.SKU+":"+itoa(l.Qty))
	}
	if d.Customer.ID != customer || d.Payment != payment || strings.Join(got, ",") != strings.Join(lines, ",") {
		s.t.Fatalf("draft %s is %s %s %v; want %s %s %v", d.ID, d.Customer.ID, d.Payment, got, customer, payment, lines)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestAnswersFillTheQuestionAsked(t *testing.T) {
	cases := []struct {
		name     string
		turns    []string
		customer string
		payment  domain.PaymentMode
		lines    []string
	}{
		{"customer by full name", []string{"Gupta ke liye 5 carton GC, cash", "Gupta Brothers"}, "C09", domain.PayCOD, []string{"GC500:120"}},
		{"customer by part of the name", []string{"Gupta ke liye 5 carton GC, cash", "bros"}, "C09", domain.PayCOD, []string{"GC500:120"}},
		{"customer by a distinguishing word", []string{"Gupta ke liye 5 carton GC, cash", "supermart wala"}, "C04", domain.PayCOD, []string{"GC500:120"}},
		{"customer by id", []string{"Gupta ke liye 5 carton GC, cash", "c09"}, "C09", domain.PayCOD, []string{"GC500:120"}},
		{"customer by position", []string{"Gupta ke liye 5 carton GC, cash", "pehla"}, "C04", domain.PayCOD, []string{"GC500:120"}},
		{"customer by position, in Gujarati", []string{"Gupta ke liye 5 carton GC, cash", "bijo"}, "C09", domain.PayCOD, []string{"GC500:120"}},
		{"customer by position, in Urdu", []string{"Gupta ke liye 5 carton GC, cash", "دوسرا"}, "C09", domain.PayCOD, []string{"GC500:120"}},
		{"customer by position, in Bengali", []string{"Gupta ke liye 5 carton GC, cash", "ditio ta"}, "C09", domain.PayCOD, []string{"GC500:120"}},
		{"size by position, in Kannada", []string{"Rajesh ke liye 2 carton phenyl, cash", "modalnedu"}, "C01", domain.PayCOD, []string{"PH1L:24"}},
		{"size by position, in Tamil", []string{"Rajesh ke liye 2 carton phenyl, cash", "mudhal onnu"}, "C01", domain.PayCOD, []string{"PH1L:24"}},
		{"size by position, in Gujarati", []string{"Rajesh ke liye 2 carton phenyl, cash", "pehlu"}, "C01", domain.PayCOD, []string{"PH1L:24"}},
		{"size by position, in Konkani", []string{"Rajesh ke liye 2 carton phenyl, cash", "pailo"}, "C01", domain.PayCOD, []string{"PH1L:24"}},
		{"size by position, in Chhattisgarhi", []string{"Rajesh ke liye 2 carton phenyl, cash", "pahili wala"}, "C01", domain.PayCOD, []string{"PH1L:24"}},
		{"customer by position, in Punjabi", []string{"Gupta ke liye 5 carton GC, cash", "dooja wala"}, "C09", domain.PayCOD, []string{"GC500:120"}},
		{"customer by position, in Marwari", []string{"Gupta ke liye 5 carton GC, cash", "doosro walo"}, "C09", domain.PayCOD, []string{"GC500:120"}},
		{"payment in Kannada", []string{"Rajesh ke liye 5 carton GC", "nagadu"}, "C01", domain.PayCOD, []string{"GC500:120"}},
		{"credit in Konkani", []string{"Rajesh ke liye 5 carton GC", "udari"}, "C01", domain.PayCredit, []string{"GC500:120"}},
		{"payment in Urdu", []string{"Rajesh ke liye 5 carton GC", "ادھار"}, "C01", domain.PayCredit, []string{"GC500:120"}},
		{"a payment said in words", []string{"Rajesh ke liye 5 carton GC", "udhaar pe likh de"}, "C01", domain.PayCredit, []string{"GC500:120"}},
		{"on the account, in Punjabi", []string{"Rajesh ke liye 5 carton GC", "khate vich likh do"}, "C01", domain.PayCredit, []string{"GC500:120"}},
		{"on the books, in Odia", []string{"Rajesh ke liye 5 carton GC", "baki re rakha"}, "C01", domain.PayCredit, []string{"GC500:120"}},
		{"credit, in Malayalam", []string{"Rajesh ke liye 5 carton GC", "kadam"}, "C01", domain.PayCredit, []string{"GC500:120"}},
		{"payment on the books, in Bengali", []string{"Rajesh ke liye 5 carton GC", "baki te"}, "C01", domain.PayCredit, []string{"GC500:120"}},
		{"a cheque to be given, as check", []string{"Sharma General Store ke liye 5 carton GC", "check aapse"}, "C02", domain.PayCheque, []string{"GC500:120"}},
		{"customer by number", []string{"Sharma ke liye 2 carton harpic, cash", "2"}, "C10", domain.PayCOD, []string{"TC500:48"}},
		{"customer never named", []string{"5 carton GC cash", "Rajesh"}, "C01", domain.PayCOD, []string{"GC500:120"}},
		{"payment in a word", []string{"Rajesh ke liye 5 carton GC", "credit"}, "C01", domain.PayCredit, []string{"GC500:120"}},
		{"payment in Devanagari", []string{"Rajesh ke liye 5 carton GC", "उधार"}, "C01", domain.PayCredit, []string{"GC500:120"}},
		{"payment as a phrase", []string{"Rajesh ke liye 5 carton GC", "cash on delivery"}, "C01", domain.PayCOD, []string{"GC500:120"}},
		{"payment with se", []string{"Rajesh ke liye 5 carton GC", "UPI se"}, "C01", domain.PayUPI, []string{"GC500:120"}},
		{"size by litres", []string{"Rajesh ke liye 2 carton phenyl, cash", "5 litre wala"}, "C01", domain.PayCOD, []string{"PH5L:8"}},
		{"size as written in the name", []string{"Rajesh ke liye 2 carton phenyl, cash", "1L"}, "C01", domain.PayCOD, []string{"PH1L:24"}},
		{"size by a word", []string{"Rajesh ke liye 2 carton phenyl, cash", "bada wala"}, "C01", domain.PayCOD, []string{"PH5L:8"}},
		{"size by its price", []string{"Rajesh ke liye 2 carton phenyl, cash", "290 wala"}, "C01", domain.PayCOD, []string{"PH5L:8"}},
		{"size by its price in rupees", []string{"Rajesh ke liye 2 carton phenyl, cash", "290 rupay wala"}, "C01", domain.PayCOD, []string{"PH5L:8"}},
		{"size by its price after ₹", []string{"Rajesh ke liye 2 carton phenyl, cash", "₹290 wala chahiye"}, "C01", domain.PayCOD, []string{"PH5L:8"}},
		{"size by its price after rs", []string{"Rajesh ke liye 2 carton phenyl, cash", "Rs. 290 wala"}, "C01", domain.PayCOD, []string{"PH5L:8"}},
		{"quantity with a unit", []string{"Agarwal ke liye hand wash, cash", "2 carton"}, "C07", domain.PayCOD, []string{"HW200:96"}},
		{"quantity in words", []string{"Agarwal ke liye hand wash, cash", "das peti"}, "C07", domain.PayCOD, []string{"HW200:480"}},
		{"quantity alone", []string{"Agarwal ke liye hand wash, cash", "20"}, "C07", domain.PayCOD, []string{"HW200:20"}},
		{"unknown product replaced", []string{"Shivam ke liye dettol 5 carton, cash", "dettol nahi, hand wash"}, "C05", domain.PayCOD, []string{"HW200:240"}},
		{"two questions, one at a time", []string{"Gupta ke liye 5 carton GC", "Gupta Brothers", "credit"}, "C09", domain.PayCredit, []string{"GC500:120"}},
		{"size then quantity", []string{"Rajesh ke liye phenyl aur 2 carton GC, cash", "1L", "3 carton"}, "C01", domain.PayCOD, []string{"GC500:48", "PH1L:36"}},
		{"customer by a longer spelling", []string{"Gupta ke liye 5 carton GC, cash", "supermarket wala"}, "C04", domain.PayCOD, []string{"GC500:120"}},
		{"customer by position, feminine", []string{"Sharma ke liye 2 carton harpic, cash", "dusri wali"}, "C10", domain.PayCOD, []string{"TC500:48"}},
		{"customer turned down for another", []string{"5 carton GC cash", "Ashok nahi, Rajesh"}, "C01", domain.PayCOD, []string{"GC500:120"}},
		{"quantity as a number word alone", []string{"Agarwal ke liye hand wash, cash", "bees"}, "C07", domain.PayCOD, []string{"HW200:20"}},
		{"customer by position with a shared word", []string{"Sharma ke liye 2 carton harpic, cash", "second wale sharma"}, "C10", domain.PayCOD, []string{"TC500:48"}},
		{"customer by position, Devanagari", []string{"Sharma ke liye 2 carton harpic, cash", "पहला वाला"}, "C02", domain.PayCOD, []string{"TC500:48"}},
		{"customer with fillers", []string{"5 carton GC cash", "rajesh bhai ka hai"}, "C01", domain.PayCOD, []string{"GC500:120"}},
		{"customer by a word beside the kind of shop", []string{"Sharma ke liye 2 carton harpic, cash", "the hardware store one"}, "C10", domain.PayCOD, []string{"TC500:48"}},
		{"customer by the kind of shop alone", []string{"Sharma ke liye 2 carton harpic, cash", "store wala"}, "C02", domain.PayCOD, []string{"TC500:48"}},
		// How it is paid, said while another question waits, is taken,
		// and the question asked again.
		{"payment before the quantity", []string{"Agarwal ke liye hand wash", "upi", "2 carton"}, "C07", domain.PayUPI, []string{"HW200:96"}},
		{"payment before the customer", []string{"Gupta ke liye 5 carton GC", "credit", "Gupta Brothers"}, "C09", domain.PayCredit, []string{"GC500:120"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newShop(t, nil)
			for i, turn := range c.turns {
				r := s.say(turn)
				last := i == len(c.turns)-1
				if !last && r.Pending == "" {
					t.Fatalf("%q left no question: %s", turn, r.Text)
				}
				if last && (r.Pending != "" || r.About == "") {
					t.Fatalf("%q did not end in a summary: %s", turn, r.Text)
				}
			}
			s.wantDraft(c.customer, c.payment, c.lines...)
		})
	}
}

// TestTheWordsAfterASharedNameSettleIt: "sharma general" is Sharma
// General Store, though other Sharmas share the first word.
func TestTheWordsAfterASharedNameSettleIt(t *testing.T) {
	s := newShop(t, nil)
	if r := s.say("sharma general ko 2 carton GC cash"); r.About == "" {
		t.Fatalf("no summary: %s", r.Text)
	}
	s.wantDraft("C02", domain.PayCOD, "GC500:48")
}

func TestWhatIsNotAnAnswerIsLeftToBeReadAsItself(t *testing.T) {
	for _, text := range []string{"ok", "cancel", "namaste", "Sharma ke liye 3 carton harpic, cash", "GC ka stock kitna hai?"} {
		s := newShop(t, nil)
		q := s.say("Gupta ke liye 5 carton GC, cash")
		if q.Pending == "" {
			t.Fatalf("no question: %s", q.Text)
		}
		if r, ok := s.svc.Answer(context.Background(), s.ravi, q.Pending, s.router.Route(context.Background(), text)); ok {
			t.Errorf("%q was read as the answer: %s", text, r.Text)
		}
	}
}

func TestAQuestionNeverAsksToSendTheOrderAgain(t *testing.T) {
	s := newShop(t, nil)
	for _, text := range []string{"Gupta ke liye 5 carton GC, cash", "Rajesh ke liye 5 carton GC", "Rajesh ke liye 2 carton phenyl, cash"} {
		if r := s.say(text); strings.Contains(strings.ToLower(r.Text), "send the order again") {
			t.Errorf("%q: %s", text, r.Text)
		}
		s.pending, s.shown = "", ""
	}
}

func TestCorrectionsChangeTheShownDraft(t *testing.T) {
	cases := []struct {
		name, first, fix string
		customer         string
		payment          domain.PaymentMode
		lines            []string
		change           string
	}{
		{"quantity of the one line", "Rajesh ke liye 10 carton GC, cash", "nahi 15 carton kar do", "C01", domain.PayCOD, []string{"GC500:360"}, "10 cartons → 15 cartons"},
		{"quantity of a named line", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "GC 15 carton", "C01", domain.PayCOD, []string{"GC500:360", "TC500:48"}, "10 cartons → 15 cartons"},
		{"quantity of a shared name", "Rajesh ke liye 2 carton phenyl 1L aur 10 carton GC, cash", "phenyl 20 karo", "C01", domain.PayCOD, []string{"PH1L:20", "GC500:240"}, "→ 20 bottles"},
		{"an item added", "Rajesh ke liye 10 carton GC, cash", "aur 5 carton harpic", "C01", domain.PayCOD, []string{"GC500:240", "TC500:120"}, "added Toilet Cleaner 500ml 5 cartons"},
		{"an item added with Bhojpuri's and", "Rajesh ke liye 10 carton GC, cash", "आ 5 कार्टन harpic भी", "C01", domain.PayCOD, []string{"GC500:240", "TC500:120"}, "added Toilet Cleaner 500ml 5 cartons"},
		{"more of an item", "Rajesh ke liye 10 carton GC, cash", "aur 5 carton GC add karo", "C01", domain.PayCOD, []string{"GC500:360"}, "10 cartons → 15 cartons"},
		{"a line set and another added", "Rajesh ke liye 10 carton GC, cash", "GC 15 carton aur 5 carton harpic bhi", "C01", domain.PayCOD, []string{"GC500:360", "TC500:120"}, "10 cartons → 15 cartons"},
		{"more of a line, said with aur", "Rajesh ke liye 10 carton GC, cash", "GC 5 carton aur bhejo", "C01", domain.PayCOD, []string{"GC500:360"}, "10 cartons → 15 cartons"},
		{"a line removed and another changed", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic hata do, GC 15 carton", "C01", domain.PayCOD, []string{"GC500:360"}, "removed Toilet Cleaner 500ml"},
		{"an item removed", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic hata do", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"an item taken out", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic nikaal do", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"the one of a shared name the draft has, removed", "Rajesh ke liye 2 carton phenyl 1L aur 10 carton GC, cash", "phenyl nikaal do", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Phenyl 1L"},
		{"an item not wanted", "Rajesh ke liye 10 carton GC aur 2 carton phenyl 1L, cash", "phenyl nahi chahiye", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Phenyl 1L"},
		{"the payment", "Sharma General Store ke liye 10 carton GC, cash", "payment cheque se hoga", "C02", domain.PayCheque, []string{"GC500:240"}, "payment cash on delivery → cheque"},
		{"the customer", "Rajesh ke liye 10 carton GC, cash", "Rajesh nahi, Shivam ke liye", "C05", domain.PayCOD, []string{"GC500:240"}, "customer Rajesh Kirana Store → Hotel Shivam"},
		{"the customer, in English", "Rajesh ke liye 10 carton GC, cash", "sorry not rajesh, hotel shivam", "C05", domain.PayCOD, []string{"GC500:240"}, "customer Rajesh Kirana Store → Hotel Shivam"},
		{"the customer, turned down after its case word", "Rajesh ke liye 10 carton GC, cash", "ye Rajesh ka nahi Shivam ka hai", "C05", domain.PayCOD, []string{"GC500:240"}, "customer Rajesh Kirana Store → Hotel Shivam"},
		{"quantity of a named line, words between", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic sirf 5 carton", "C01", domain.PayCOD, []string{"GC500:240", "TC500:120"}, "2 cartons → 5 cartons"},
		{"an item no longer needed", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic ki zarurat nahi", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"an item cancelled", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic cancel karo", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"whose the order is", "Rajesh ke liye 10 carton GC, cash", "ye order Shivam ka hai", "C05", domain.PayCOD, []string{"GC500:240"}, "customer Rajesh Kirana Store → Hotel Shivam"},
		{"a name written by mistake", "Rajesh ke liye 10 carton GC, cash", "galti se Rajesh likh diya, Shivam ka hai", "C05", domain.PayCOD, []string{"GC500:240"}, "customer Rajesh Kirana Store → Hotel Shivam"},
		{"under another customer", "Rajesh ke liye 10 carton GC, cash", "wait, put this under Hotel Shivam", "C05", domain.PayCOD, []string{"GC500:240"}, "customer Rajesh Kirana Store → Hotel Shivam"},
		// "ka" and "ko" in Punjabi, Marwari, Dakhini and Kannada, and
		// "written to their name" in Bhojpuri.
		{"whose the order is, in Punjabi", "Rajesh ke liye 10 carton GC, cash", "galti ho gayi, Shivam da order hai", "C05", domain.PayCOD, []string{"GC500:240"}, "customer Rajesh Kirana Store → Hotel Shivam"},
		{"whose the order is, in Marwari", "Rajesh ke liye 10 carton GC, cash", "galti su likh diyo, Shivam ro hai", "C05", domain.PayCOD, []string{"GC500:240"}, "customer Rajesh Kirana Store → Hotel Shivam"},
		{"whom it was to go to, in Dakhini", "Rajesh ke liye 10 carton GC, cash", "galti hogaya, Shivam ku bhejna tha", "C05", domain.PayCOD, []string{"GC500:240"}, "customer Rajesh Kirana Store → Hotel Shivam"},
		{"whom it is for, in Kannada", "Rajesh ke liye 10 carton GC, cash", "Rajesh alla, Shivam ge", "C05", domain.PayCOD, []string{"GC500:240"}, "customer Rajesh Kirana Store → Hotel Shivam"},
		{"written to another's name, in Bhojpuri", "Rajesh ke liye 10 carton GC, cash", "galti ho gail, Shivam ke likhiye", "C05", domain.PayCOD, []string{"GC500:240"}, "customer Rajesh Kirana Store → Hotel Shivam"},
		{"a mode turned down", "Sharma General Store ke liye 10 carton GC, cash", "cash nahi, cheque denge", "C02", domain.PayCheque, []string{"GC500:240"}, "payment cash on delivery → cheque"},
		{"a mode turned down before it, in English", "Sharma General Store ke liye 10 carton GC, cash", "not cash, gpay", "C02", domain.PayUPI, []string{"GC500:240"}, "payment cash on delivery → UPI"},
		{"a mode turned down before it, in Marathi", "Sharma General Store ke liye 10 carton GC, cash", "नको cash, चेक ने देणार", "C02", domain.PayCheque, []string{"GC500:240"}, "payment cash on delivery → cheque"},
		{"a mode turned down, in Nepali", "Sharma General Store ke liye 10 carton GC, cash", "cash hoina, cheque garchha", "C02", domain.PayCheque, []string{"GC500:240"}, "payment cash on delivery → cheque"},
		{"reduce a line", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "reduce harpic to 1 carton", "C01", domain.PayCOD, []string{"GC500:240", "TC500:24"}, "2 cartons → 1 carton"},
		{"a line not needed", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "no harpic needed", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a line not to be put in", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic mat dalna", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a line cut", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic wali line cut karo", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a product in another's place", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic nahi, lizol", "C01", domain.PayCOD, []string{"GC500:240", "FC1L:24"}, "Toilet Cleaner 500ml → Floor Cleaner 1L"},
		{"a product in another's place, with its quantity", "Rajesh ke liye 10 carton GC, cash", "GC ki jagah 20 carton lizol", "C01", domain.PayCOD, []string{"FC1L:240"}, "Glass Cleaner 500ml → Floor Cleaner 1L"},
		{"a product turned down for another that is wanted", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic nahi, lizol chahiye", "C01", domain.PayCOD, []string{"GC500:240", "FC1L:24"}, "Toilet Cleaner 500ml → Floor Cleaner 1L"},
		{"a product instead of another", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "send lizol instead of harpic", "C01", domain.PayCOD, []string{"GC500:240", "FC1L:24"}, "Toilet Cleaner 500ml → Floor Cleaner 1L"},
		{"a line taken out", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "take out the harpic", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a line named by a word of its name", "Rajesh ke liye 10 carton GC aur 5 carton dishwash liquid, cash", "liquid nikal do", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Dishwash Liquid 500ml"},
		{"a line not wanted, only the other", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic nahi chahiye sirf GC", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a line not wanted, in Marathi", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic nako", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		// Taken out in Marathi, Gujarati, Konkani and Kashmiri; "pan" adds
		// in Marathi and Gujarati.
		{"a line taken out, in Marathi", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic kadhun taka", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a line taken out, in Gujarati", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic kadhi nakho", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a line not wanted, in Konkani", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic naka", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a quantity said to a friend, in Bambaiya", "Rajesh ke liye 10 carton GC, cash", "nahi bhidu 15 carton kar de", "C01", domain.PayCOD, []string{"GC500:360"}, "10 cartons → 15 cartons"},
		{"a quantity that is enough, in Tamil", "Rajesh ke liye 10 carton GC, cash", "15 carton podhum", "C01", domain.PayCOD, []string{"GC500:360"}, "10 cartons → 15 cartons"},
		{"a quantity made, in Kashmiri", "Rajesh ke liye 10 carton GC, cash", "na, 15 carton kaer", "C01", domain.PayCOD, []string{"GC500:360"}, "10 cartons → 15 cartons"},
		{"a line left out, in Bengali", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic bad dao", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a line left out, in Kashmiri", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic trav", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"an item added, in Marathi", "Rajesh ke liye 10 carton GC, cash", "आणि 5 कार्टन harpic पण", "C01", domain.PayCOD, []string{"GC500:240", "TC500:120"}, "added Toilet Cleaner 500ml 5 cartons"},
		{"a line not needed, in Bengali", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic lagbe na", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"an item added, in Marathi", "Rajesh ke liye 10 carton GC, cash", "ani 5 carton harpic suddha", "C01", domain.PayCOD, []string{"GC500:240", "TC500:120"}, "added Toilet Cleaner 500ml 5 cartons"},
		{"a line not needed, in Punjabi", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic nahi chahida", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a line not wanted, in Dakhini", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic nakko, sirf GC", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a mode turned down, in Telugu", "Sharma General Store ke liye 10 carton GC, cash", "cash kaadu, cheque", "C02", domain.PayCheque, []string{"GC500:240"}, "payment cash on delivery → cheque"},
		{"an item added, in Gujarati", "Rajesh ke liye 10 carton GC, cash", "ane 5 carton harpic", "C01", domain.PayCOD, []string{"GC500:240", "TC500:120"}, "added Toilet Cleaner 500ml 5 cartons"},
		// The quantity replaced said beside the new one: turned down, in
		// so many words, brought down, or after it in English.
		{"the old quantity turned down", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "GC 10 nahi 12", "C01", domain.PayCOD, []string{"GC500:288", "TC500:48"}, "10 cartons → 12 cartons"},
		{"the old quantity replaced, in Devanagari", "Rajesh ke liye 20 carton GC, cash", "GC 20 की जगह 15 कार्टन कर दो", "C01", domain.PayCOD, []string{"GC500:360"}, "20 cartons → 15 cartons"},
		{"the old quantity brought down", "Rajesh ke liye 20 carton GC, cash", "GC 20 carton se ghata ke 12 carton kar do", "C01", domain.PayCOD, []string{"GC500:288"}, "20 cartons → 12 cartons"},
		{"the old quantity after, in English", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "they want 12 cartons of GC, not 10", "C01", domain.PayCOD, []string{"GC500:288", "TC500:48"}, "10 cartons → 12 cartons"},
		{"the old quantity after instead of", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "GC 12 cartons instead of 10", "C01", domain.PayCOD, []string{"GC500:288", "TC500:48"}, "10 cartons → 12 cartons"},
		{"a mode set, another turned down after it", "Sharma General Store ke liye 10 carton GC, credit", "Payment mode should be cheque, not credit.", "C02", domain.PayCheque, []string{"GC500:240"}, "payment credit → cheque"},
		// A line left to be, or taken out, in the regions' words.
		{"a line left to be", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic rehne do", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a line taken out, in Tamil", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic vendam, eduthudunga", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a line taken out, in Gujarati", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic nathi joitu, kadhi nakho", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a line taken out, in Punjabi", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic nahi chahide, kadh deo", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a line taken out, in Konkani", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic nakka, kaad", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"a line taken out, in Chhattisgarhi", "Rajesh ke liye 10 carton GC aur 2 carton harpic, cash", "harpic nai lagay, hata de", "C01", domain.PayCOD, []string{"GC500:240"}, "removed Toilet Cleaner 500ml"},
		{"an item added, in Tamil", "Rajesh ke liye 10 carton GC, cash", "innum 5 carton harpic um podunga", "C01", domain.PayCOD, []string{"GC500:240", "TC500:120"}, "added Toilet Cleaner 500ml 5 cartons"},
		{"an item added, in Kannada", "Rajesh ke liye 10 carton GC, cash", "innu 5 carton harpic kooda haaki", "C01", domain.PayCOD, []string{"GC500:240", "TC500:120"}, "added Toilet Cleaner 500ml 5 cartons"},
		{"an item added, in Punjabi", "Rajesh ke liye 10 carton GC, cash", "hor 5 carton harpic vi pa deo", "C01", domain.PayCOD, []string{"GC500:240", "TC500:120"}, "added Toilet Cleaner 500ml 5 cartons"},
		{"the one line's old quantity turned down", "Rajesh ke liye 10 carton GC, cash", "10 nai, 12 carton kar de", "C01", domain.PayCOD, []string{"GC500:288"}, "10 cartons → 12 cartons"},
		{"the one line's old quantity turned down, in Tamil", "Rajesh ke liye 10 carton GC, cash", "10 இல்ல 12 carton pannunga", "C01", domain.PayCOD, []string{"GC500:288"}, "10 cartons → 12 cartons"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newShop(t, nil)
			if r := s.say(c.first); r.About == "" {
				t.Fatalf("no summary: %s", r.Text)
			}
			old := s.shown
			r := s.say(c.fix)
			if r.About == "" || r.About == old || !strings.Contains(r.Text, "✏️ Changed") || !strings.Contains(r.Text, c.change) {
				t.Fatalf("%q: %s", c.fix, r.Text)
			}
			s.wantDraft(c.customer, c.payment, c.lines...)
			// Only the newest summary can be placed: the old draft is gone.
			if d, _, _ := s.books.DraftByID(context.Background(), old); d.Status == orders.DraftOpen {
				t.Fatalf("the uncorrected draft %s is still open", old)
			}
			ok := s.svc.Confirm(context.Background(), s.ravi, "")
			if d, _, _ := s.books.DraftByID(context.Background(), r.About); d.Status != orders.DraftCommitted || !strings.Contains(ok.Text, d.OrderID) {
				t.Fatalf("ok after the correction placed %s %s: %s", d.ID, d.Status, ok.Text)
			}
		})
	}
}

func TestWhatIsNotACorrectionChangesNothing(t *testing.T) {
	for _, text := range []string{"Ashok", "asdf qwe zzz", "ok", "Sharma ke liye 3 carton harpic, cash", "GC ka stock kitna hai?",
		"harpic ka stock kitna hai", "lizol kitna pada hai?",
		"GC wala order cancel kar do", "jjjj kk ;;; 77 ..", "qwrt 15 zzxv"} {
		s := newShop(t, nil)
		s.say("Rajesh ke liye 10 carton GC, cash")
		if r, ok := s.svc.Correct(context.Background(), s.ravi, s.shown, s.router.Route(context.Background(), text)); ok {
			t.Errorf("%q was read as a correction: %s", text, r.Text)
		}
	}
}

// chooser picks the option it was told to, and counts its calls.
type chooser struct {
	pick    string
	calls   int
	offered []string
}

func (c *chooser) Choose(_ context.Context, _, _ string, options []string) (int, error) {
	c.calls++
	c.offered = options
	for i, o := range options {
		if o == c.pick {
			return i, nil
		}
	}
	return -1, nil
}

func TestTheModelChoosesOnlyAmongTheOptions(t *testing.T) {
	c := &chooser{pick: "Gupta Brothers"}
	s := newShop(t, c)
	s.say("Gupta ke liye 5 carton GC, cash")
	if r := s.say("jo wholesale karte hain"); r.About == "" {
		t.Fatalf("the model's choice was not taken: %s", r.Text)
	}
	if c.calls != 1 || strings.Join(c.offered, "|") != "Gupta Supermart|Gupta Brothers" {
		t.Fatalf("%d calls offering %v", c.calls, c.offered)
	}
	s.wantDraft("C09", domain.PayCOD, "GC500:120")

	// A pick of nothing offered is no answer.
	c2 := &chooser{pick: "Mehta Traders"}
	s2 := newShop(t, c2)
	q := s2.say("Gupta ke liye 5 carton GC, cash")
	if r, ok := s2.svc.Answer(context.Background(), s2.ravi, q.Pending, s2.router.Route(context.Background(), "jo wholesale karte hain")); ok {
		t.Fatalf("a choice outside the options was taken: %s", r.Text)
	}
}

func TestAnAccountantsAnswerCompletesThePayment(t *testing.T) {
	s := newShop(t, nil)
	s.ravi = domain.User{Phone: demo.AccountsPhone, Name: "Priya", Role: domain.RoleAccounts}
	ctx := context.Background()
	q := s.svc.RecordPayment(ctx, s.ravi, "Mehta se 25000 mila")
	if q.Pending == "" || !strings.Contains(q.Text, "How was it paid") {
		t.Fatalf("question: %+v", q)
	}
	r, ok := s.svc.Answer(ctx, s.ravi, q.Pending, s.router.Route(ctx, "cheque 778899"))
	if !ok || r.Pending != "" || !strings.Contains(r.Text, "778899") || !strings.Contains(r.Text, "₹25,000") || !strings.Contains(r.Text, "Reply *ok*") {
		t.Fatalf("answer: %v %+v", ok, r)
	}
}

// FuzzAnswerAndCorrect: whatever the answer or correction, reading it
// never panics, and what it shows is always a priced draft of the
// catalog's products or a question.
func FuzzAnswerAndCorrect(f *testing.F) {
	for _, seed := range []string{"Gupta Brothers", "dusra", "5 litre wala", "nahi 15 carton kar do", "harpic hata do",
		"उधार", "Rajesh nahi, Shivam ke liye", "-5 carton", "999999999 carton GC", "aur aur aur", "\x00\u202e", "🙏🙏", "",
		"GC 10 nahi 12", "GC 10 की जगह 8 कार्टन", "they want 12 cartons of GC, not 10", "GC 10 carton se ghata ke", "İİ GC 10 nahi İ 12"} {
		f.Add(seed)
	}
	s := newShop(f, nil)
	ctx := context.Background()
	q := s.say("Gupta ke liye phenyl aur 2 carton GC")
	s.pending = ""
	shown := s.say("Rajesh ke liye 10 carton GC, cash").About
	f.Fuzz(func(t *testing.T, text string) {
		d := s.router.Route(ctx, text)
		if r, ok := s.svc.Answer(ctx, s.ravi, q.Pending, d); ok && r.Text == "" {
			t.Fatalf("%q: an empty reply", text)
		}
		if r, ok := s.svc.Correct(ctx, s.ravi, shown, d); ok && r.Text == "" {
			t.Fatalf("%q: an empty reply", text)
		}
	})
}

// BenchmarkAnswerAndCorrect times reading a reply against what waits for
// it: an answer to "which Gupta?" that fills the question and shows the
// priced summary (a draft saved), and a correction of a shown draft that
// re-prices it and shows the new one. Each iteration checks the reply is
// the summary it times.
func BenchmarkAnswerAndCorrect(b *testing.B) {
	s := newShop(b, nil)
	ctx := context.Background()
	q := s.say("Gupta ke liye 5 carton GC, cash")
	answer := s.router.Route(ctx, "Gupta Brothers")
	b.Run("answer", func(b *testing.B) {
		for b.Loop() {
			r, ok := s.svc.Answer(ctx, s.ravi, q.Pending, answer)
			if !ok || r.About == "" {
				b.Fatalf("not a summary: %s", r.Text)
			}
		}
	})
	fix := s.router.Route(ctx, "GC 15 carton")
	b.Run("correct", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			s.pending, s.shown = "", ""
			shown := s.say("Rajesh ke liye 10 carton GC, cash").About
			b.StartTimer()
			r, ok := s.svc.Correct(ctx, s.ravi, shown, fix)
			if !ok || !strings.Contains(r.Text, "✏️ Changed") {
				b.Fatalf("not a corrected summary: %s", r.Text)
			}
		}
	})
}

// TestACountInAUnitNobodyKnowsIsAskedAbout: "20 thaila" in answer to how
// many is not taken as 20 bottles; the question comes back naming the
// word, and a count in a known unit then answers it.
func TestACountInAUnitNobodyKnowsIsAskedAbout(t *testing.T) {
	s := newShop(t, nil)
	s.say("Rajesh ke liye GC, cash")
	r := s.say("20 thaila")
	if s.shown != "" || s.pending == "" || !strings.Contains(r.Text, `I don't know the unit "thaila"`) {
		t.Fatalf("20 thaila: %q (shown %q)", r.Text, s.shown)
	}
	s.say("20 carton")
	s.wantDraft("C01", domain.PayCOD, "GC500:480")
}

// TestAnAnswerTheModelTookForHelp: an answer the model guessed was a
// request for help or a greeting still answers the question when it
// picks an option ("construction" read as "instructions"); help the
// rules read is read as itself.
func TestAnAnswerTheModelTookForHelp(t *testing.T) {
	s := newShop(t, nil)
	s.say("Sharma ke liye 10 carton GC, cash")
	if s.pending == "" {
		t.Fatal("no question about which Sharma")
	}
	d := s.router.Route(context.Background(), "hardware")
	d.Intent, d.Tier = domain.IntentHelp, intent.TierModel
	r, ok := s.svc.Answer(context.Background(), s.ravi, s.pending, d)
	if !ok || r.About == "" {
		t.Fatalf("hardware, guessed as help: answered %v: %s", ok, r.Text)
	}
	s.pending, s.shown = r.Pending, r.About
	s.wantDraft("C10", domain.PayCOD, "GC500:240")

	s = newShop(t, nil)
	s.say("Sharma ke liye 10 carton GC, cash")
	d = s.router.Route(context.Background(), "help")
	if _, ok := s.svc.Answer(context.Background(), s.ravi, s.pending, d); ok || d.Tier != intent.TierRules {
		t.Fatalf("help (%s) was taken as an answer", d.Tier)
	}
}

// TestWhatTheSummaryAlreadySays: a message after a summary that only
// says again its customer, its way of paying, one of its products (by
// words of its name alone too) or a size of one, or a line's quantity
// changes nothing, says so, and the ok after it places the order. A mode turned down or another quantity
// is no restatement.
func TestWhatTheSummaryAlreadySays(t *testing.T) {
	for _, again := range []string{"cash", "Rajesh Kirana Store", "1 litre wala", "30 carton", "haan phenyl 1L hi", "cash se", "white phenyl wala", "white wala"} {
		t.Run(again, func(t *testing.T) {
			s := newShop(t, nil)
			if r := s.say("Rajesh ke liye phenyl 1L 30 carton, cash"); r.About == "" {
				t.Fatalf("no summary: %s", r.Text)
			}
			r := s.say(again)
			if r.About == "" || !strings.Contains(r.Text, "already says") || strings.Contains(r.Text, "Changed") {
				t.Fatalf("%q: %s", again, r.Text)
			}
			s.wantDraft("C01", domain.PayCOD, "PH1L:360")
			ok := s.svc.Confirm(context.Background(), s.ravi, "")
			if d, _, _ := s.books.DraftByID(context.Background(), r.About); d.Status != orders.DraftCommitted || !strings.Contains(ok.Text, d.OrderID) {
				t.Fatalf("ok after %q placed %s %s: %s", again, d.ID, d.Status, ok.Text)
			}
		})
	}
	s := newShop(t, nil)
	if r := s.say("Rajesh ke liye phenyl 1L 30 carton, cash"); r.About == "" {
		t.Fatalf("no summary: %s", r.Text)
	}
	for _, change := range []string{"cash nahi", "20 carton", "Hotel Shivam"} {
		d := s.router.Route(context.Background(), change)
		if r, ok := s.svc.Correct(context.Background(), s.ravi, s.shown, d); ok && strings.Contains(r.Text, "already says") {
			t.Errorf("%q read as said again: %s", change, r.Text)
		}
	}
}
