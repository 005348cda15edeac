package orders_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

// owed is what Rajesh (C01) owes in the shop's books.
func owed(t *testing.T, s *shop) domain.Paise {
	t.Helper()
	_, dues, err := s.books.Dues(context.Background(), reports.DuesQuery{CustomerIDs: []string{"C01"}})
	if err != nil || len(dues) != 1 {
		t.Fatalf("dues: %v %+v", err, dues)
	}
	return dues[0].Outstanding
}

// TestAPaymentShownTakesACorrection: the amount or the way of paying of a
// payment shown for its ok is corrected ("nahi 12000 tha", "10000 nahi
// 12000", "cheque se tha", "cheque no 445566": a cheque's number is no
// amount), shown again with what changed, and the ok
// records the corrected payment. Another payment, a message naming a
// customer or goods, or a payment shown before the last reply, is no
// correction of it.
func TestAPaymentShownTakesACorrection(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		fix, change string
		amount      domain.Paise
	}{
		{"nahi 12000 tha", "amount ₹10,000 → ₹12,000", 1200000},
		{"10000 nahi 12000", "amount ₹10,000 → ₹12,000", 1200000},
		{"amount 12,000 hai", "amount ₹10,000 → ₹12,000", 1200000},
		{"cash nahi, upi se tha", "by cash on delivery → UPI", 1000000},
		{"sorry 12k upi", "amount ₹10,000 → ₹12,000; by cash on delivery → UPI", 1200000},
		{"cheque no 445566", "by cash on delivery → cheque; reference 445566", 1000000},
	} {
		s := newShop(t, nil)
		s.ravi = domain.User{Phone: demo.AccountsPhone, Name: "Priya", Role: domain.RoleAccounts}
		shown := s.svc.RecordPayment(ctx, s.ravi, "Rajesh se 10000 cash aaya")
		if shown.About == "" {
			t.Fatalf("no summary: %s", shown.Text)
		}
		r, ok := s.svc.CorrectPayment(ctx, s.ravi, time.Time{}, s.router.Route(ctx, c.fix))
		if !ok || !strings.Contains(r.Text, "✏️ Changed: "+c.change) || !strings.Contains(r.Text, "Reply *ok*") {
			t.Fatalf("%q: %v %s", c.fix, ok, r.Text)
		}
		before := owed(t, s)
		done := s.svc.Confirm(ctx, s.ravi, "")
		if paid := before - owed(t, s); paid != c.amount {
			t.Fatalf("%q: the ok recorded %s: %s", c.fix, paid, done.Text)
		}
	}
	for _, text := range []string{"5000 aur aaya", "Mehta se 12000 tha", "12000 ka GC", "ok", "cancel", "kitna hua total"} {
		s := newShop(t, nil)
		s.ravi = domain.User{Phone: demo.AccountsPhone, Name: "Priya", Role: domain.RoleAccounts}
		s.svc.RecordPayment(ctx, s.ravi, "Rajesh se 10000 cash aaya")
		if r, ok := s.svc.CorrectPayment(ctx, s.ravi, time.Time{}, s.router.Route(ctx, text)); ok {
			t.Errorf("%q was read as a correction: %s", text, r.Text)
		}
	}
	// Shown by cheque, "no" and six digits are its number, not an amount.
	s0 := newShop(t, nil)
	s0.ravi = domain.User{Phone: demo.AccountsPhone, Name: "Priya", Role: domain.RoleAccounts}
	s0.svc.RecordPayment(ctx, s0.ravi, "Rajesh se 10000 ka cheque aaya")
	if r, ok := s0.svc.CorrectPayment(ctx, s0.ravi, time.Time{}, s0.router.Route(ctx, "no 123987")); !ok ||
		!strings.Contains(r.Text, "✏️ Changed: reference 123987") || !strings.Contains(r.Text, "₹10,000") {
		t.Errorf("the cheque's number: %v %s", ok, r.Text)
	}
	// Shown before the last reply: too old to correct.
	s := newShop(t, nil)
	s.ravi = domain.User{Phone: demo.AccountsPhone, Name: "Priya", Role: domain.RoleAccounts}
	s.svc.RecordPayment(ctx, s.ravi, "Rajesh se 10000 cash aaya")
	if r, ok := s.svc.CorrectPayment(ctx, s.ravi, time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), s.router.Route(ctx, "nahi 12000 tha")); ok {
		t.Errorf("a payment shown before the last reply was corrected: %s", r.Text)
	}
}
