package dialogs

import (
	"errors"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

func TestSeed(t *testing.T) {
	s := Seed{
		Users: []domain.User{{Phone: "+919900000003", Role: domain.RoleSales}, {Phone: "+919900000004", Role: domain.RoleSales},
			{Phone: "+919900000001", Role: domain.RoleOwner}},
		Customers: []string{"C01", "C09"}, SKUs: []string{"GC500"}, Orders: []string{"ORD-950"},
	}
	for as, want := range map[string]string{"sales": "+919900000003", "owner": "+919900000001", "+919812345678": "+919812345678"} {
		if got, err := s.Phone(as); err != nil || got != want {
			t.Errorf("%s: %s %v", as, got, err)
		}
	}
	if _, err := s.Phone("accounts"); err == nil || !strings.HasPrefix(err.Error(), "dialogs: ") {
		t.Fatalf("no accounts user: %v", err)
	}
	fits := []Dialog{
		{ID: "a", As: "sales", Line: 1, Expect: Expect{Order: &OrderExpect{Customer: "c09", Payment: domain.PayCOD, Items: []Item{{SKU: "gc500", Qty: 1}}}}},
		{ID: "b", As: "+919812345678", Line: 2, Expect: Expect{Delivery: &DeliveryExpect{Order: "ord-950"}}},
		{ID: "c", As: "owner", Line: 3, Expect: Expect{Payment: &PaymentExpect{Customer: "C01", Amount: 1, Mode: domain.PayUPI}}},
	}
	if err := s.Check(fits); err != nil {
		t.Fatal(err)
	}
	err := s.Check([]Dialog{
		{ID: "x", As: "accounts", Line: 4, Expect: Expect{Nothing: true}},
		{ID: "y", As: "sales", Line: 5, Expect: Expect{Order: &OrderExpect{Customer: "C99", Payment: domain.PayCOD, Items: []Item{{SKU: "XX1", Qty: 1}}}}},
		{ID: "z", As: "sales", Line: 6, Expect: Expect{Delivery: &DeliveryExpect{Order: "T-1"}}},
		{ID: "w", As: "sales", Line: 7, Expect: Expect{Payment: &PaymentExpect{Customer: "C77", Amount: 1, Mode: domain.PayUPI}}},
	})
	var le *LineError
	if !errors.As(err, &le) || le.Line != 4 {
		t.Fatalf("%v", err)
	}
	for _, want := range []string{`line 4: dialog "x": no user has the role accounts`, "line 5: dialog \"y\": expect.order: customer C99", "SKU XX1 is not in catalog.csv",
		"line 6: dialog \"z\": expect.delivery: order T-1 is not in orders.csv", "line 7: dialog \"w\": expect.payment: customer C77"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("lacks %q: %v", want, err)
		}
	}
}
