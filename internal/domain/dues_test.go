package domain

import "testing"

func TestDuesSaysAdvanceNotMinus(t *testing.T) {
	for p, want := range map[Paise]string{
		8000000:  "₹80,000",
		0:        "₹0",
		-8000000: "₹0, advance ₹80,000",
		-50:      "₹0, advance ₹0.50",
	} {
		if got := Dues(p); got != want {
			t.Errorf("Dues(%d) = %q, want %q", p, got, want)
		}
	}
}
