package catalogtest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
)

// Message is an ordinary message that names generated products by their
// full names, and perhaps a customer.
type Message struct {
	Text string
	// SKUs are the products it names, in order.
	SKUs []string
	// CustomerID is the customer it names, or "" (a customer is named only
	// by a name no other customer has).
	CustomerID string
	// Order is set when the message places an order.
	Order bool
}

// Messages returns n messages of the kinds sales staff and owners send
// (orders in English and Hinglish, stock and dues questions), naming
// products drawn evenly from the whole catalog, so that the last products
// are named as often as the first.
func (b Books) Messages(n int, seed uint64) []Message {
	rng := rand.New(rand.NewPCG(seed, 0x6d7367))
	named := uniquelyNamed(b)
	out := make([]Message, 0, n)
	for len(out) < n {
		k := len(out)
		p, p2 := rng.IntN(len(b.Products)), rng.IntN(len(b.Products))
		name, name2 := b.Products[p].Name, b.Products[p2].Name
		sku, sku2 := b.Products[p].SKU, b.Products[p2].SKU
		q, q2 := 1+rng.IntN(20), 1+rng.IntN(50)
		pk := b.packOf(p)
		c, cust := "", ""
		if len(named) > 0 {
			x := named[rng.IntN(len(named))]
			c, cust = x.ID, x.Name
		}
		var m Message
		switch k % 7 {
		case 0:
			m = orderFor(c, cust, q, pk, b.Products[p])
		case 1:
			m = Message{Text: fmt.Sprintf("%d %s %s for %s, COD", q, pk, name, cust), SKUs: []string{sku}, CustomerID: c, Order: true}
		case 2:
			m = Message{Text: fmt.Sprintf("%s ka stock kitna hai?", name), SKUs: []string{sku}}
		case 3:
			if p2 == p {
				continue
			}
			m = Message{Text: fmt.Sprintf("%s: %d %s %s aur %d %s %s, udhaar", cust, q, pk, name, q2, b.Products[p2].Unit, name2),
				SKUs: []string{sku, sku2}, CustomerID: c, Order: true}
		case 4:
			m = Message{Text: fmt.Sprintf("kya %d %s %s de sakte hain?", q*10, pk, name), SKUs: []string{sku}}
		case 5:
			m = Message{Text: fmt.Sprintf("%s ka outstanding kitna hai", cust), CustomerID: c}
		default:
			m = Message{Text: fmt.Sprintf("%s ki sales is mahine", name), SKUs: []string{sku}}
		}
		out = append(out, m)
	}
	return out
}

// Order is a complete order for product i in its base unit, for a
// customer no other customer shares a name with, paid in a way the
// customer may pay.
func (b Books) Order(i int) Message {
	named := uniquelyNamed(b)
	c := named[i%len(named)]
	p := b.Products[i]
	m := orderFor(c.ID, c.Name, 3, p.Unit, p)
	m.Text += ", " + paidBy[c.PaymentModes[0]]
	return m
}

// paidBy is how sales staff write each payment mode.
var paidBy = map[domain.PaymentMode]string{domain.PayCOD: "cash", domain.PayCredit: "udhaar", domain.PayUPI: "upi",
	domain.PayCheque: "cheque", domain.PayBankTransfer: "neft"}

func orderFor(id, name string, q int, unit string, p domain.Product) Message {
	return Message{Text: fmt.Sprintf("%s ke liye %d %s %s bhej do", name, q, unit, p.Name), SKUs: []string{p.SKU}, CustomerID: id, Order: true}
}

// Typo drops one letter inside the longest letters-only word of a name
// ("Surya Phenl Lemon 1L"), or returns "" when no word is long enough to
// be matched with a typo.
func Typo(name string) string {
	words := strings.Fields(name)
	best := -1
	for i, w := range words {
		if utf8.RuneCountInString(w) >= 6 && lettersOnly(w) && (best < 0 || utf8.RuneCountInString(w) > utf8.RuneCountInString(words[best])) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	r := []rune(words[best])
	words[best] = string(append(r[:len(r)/2:len(r)/2], r[len(r)/2+1:]...))
	return strings.Join(words, " ")
}

func lettersOnly(w string) bool {
	for _, r := range w {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return false
		}
	}
	return true
}

// uniquelyNamed lists the customers whose name no other customer has.
func uniquelyNamed(b Books) []domain.Customer {
	count := map[string]int{}
	for _, c := range b.Customers {
		count[strings.ToLower(c.Name)]++
	}
	var out []domain.Customer
	for _, c := range b.Customers {
		if count[strings.ToLower(c.Name)] == 1 && !strings.Contains(c.Name, ",") {
			out = append(out, c)
		}
	}
	return out
}

// packOf is the product's first pack, or its base unit.
func (b Books) packOf(i int) string {
	p := b.Products[i]
	if len(p.PackSizes) > 0 {
		return p.PackSizes[0].Name
	}
	return p.Unit
}
