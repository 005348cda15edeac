package domain

import (
	"fmt"
	"strings"
)

// Role decides which questions a person may ask and what Munshi tells them.
type Role string

const (
	RoleSales    Role = "sales"
	RoleOwner    Role = "owner"
	RoleAccounts Role = "accounts"
)

// ParseRole accepts the roles of the users CSV, case-insensitively.
func ParseRole(s string) (Role, error) {
	switch r := Role(strings.ToLower(strings.TrimSpace(s))); r {
	case RoleSales, RoleOwner, RoleAccounts:
		return r, nil
	}
	return "", fmt.Errorf("domain: unknown role %q (want sales, owner or accounts)", s)
}

// User is a person allowed to talk to Munshi, identified by their WhatsApp
// phone number in E.164 form.
type User struct {
	Phone string
	Name  string
	Role  Role
}

// PaymentMode is how a customer pays for an order.
type PaymentMode string

const (
	PayCOD          PaymentMode = "cod"
	PayCredit       PaymentMode = "credit"
	PayUPI          PaymentMode = "upi"
	PayCheque       PaymentMode = "cheque"
	PayBankTransfer PaymentMode = "bank_transfer"
)

// PaymentModes lists every mode in a stable order.
var PaymentModes = []PaymentMode{PayCOD, PayCredit, PayUPI, PayCheque, PayBankTransfer}

// ParsePaymentMode accepts the CSV spelling of a payment mode.
func ParsePaymentMode(s string) (PaymentMode, error) {
	m := PaymentMode(strings.ToLower(strings.TrimSpace(s)))
	for _, known := range PaymentModes {
		if m == known {
			return m, nil
		}
	}
	return "", fmt.Errorf("domain: unknown payment mode %q (want cod, credit, upi, cheque or bank_transfer)", s)
}

// PackSize is a named pack of a product: a carton of 24 bottles.
type PackSize struct {
	Name  string // carton, box, pack, bag, dozen…
	Units int64  // base units in one pack
}

// Product is one SKU of the catalog. Price is per base unit; stock is in base
// units.
type Product struct {
	SKU        string
	Name       string
	Aliases    []string
	Unit       string // the base unit: bottle, bar, piece…
	PackSizes  []PackSize
	Price      Paise
	GSTPercent GSTRate
	StockReady int64
	StockWIP   int64
	// Inactive: the ERP no longer lists it. It takes no new orders and is
	// left out of stock answers; history keeps its name.
	Inactive bool
}

// Pack returns the pack size with that name, if the product has one.
func (p Product) Pack(name string) (PackSize, bool) {
	for _, ps := range p.PackSizes {
		if strings.EqualFold(ps.Name, name) {
			return ps, true
		}
	}
	return PackSize{}, false
}

// GSTRate is a GST rate in hundredths of a percent (1800 = 18%), so that
// rates like 2.5% stay exact.
type GSTRate int64

// String renders the rate as a percentage: "18%", "2.5%".
func (g GSTRate) String() string {
	if g%100 == 0 {
		return fmt.Sprintf("%d%%", g/100)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%d.%02d", g/100, g%100), "0"), ".") + "%"
}

// Customer is a business Munshi sells to.
type Customer struct {
	ID           string
	Name         string
	Aliases      []string
	Phone        string
	Segment      string
	CreditLimit  Paise
	Outstanding  Paise
	PaymentModes []PaymentMode
	// Inactive: the ERP no longer lists them. They place no new orders;
	// what they owe is still shown.
	Inactive bool
}

// Accepts reports whether the customer may pay with mode m.
func (c Customer) Accepts(m PaymentMode) bool {
	for _, x := range c.PaymentModes {
		if x == m {
			return true
		}
	}
	return false
}

// ParsePhone returns a phone number in E.164 form ("+919810000001"),
// allowing spaces, dashes and brackets between the digits.
func ParsePhone(s string) (string, error) {
	var b strings.Builder
	for i, c := range strings.TrimSpace(s) {
		switch {
		case c == '+' && i == 0:
			b.WriteRune(c)
		case c >= '0' && c <= '9':
			b.WriteRune(c)
		case c == ' ' || c == '-' || c == '(' || c == ')':
		default:
			return "", fmt.Errorf("phone %q must be in E.164 form, such as +919810000001", s)
		}
	}
	p := b.String()
	if !strings.HasPrefix(p, "+") || len(p) < 9 || len(p) > 16 || p[1] == '0' {
		return "", fmt.Errorf("phone %q must be in E.164 form, such as +919810000001", s)
	}
	return p, nil
}
