package dialogs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// Seed is what the conversations run on, as far as a dialog file names
// it: the users (in the order of users.csv), customer ids, SKUs and the
// order ids of the history.
type Seed struct {
	Users     []domain.User
	Customers []string
	SKUs      []string
	Orders    []string
}

// Phone is who writes as "as": the phone itself, or the first user of
// that role.
func (s Seed) Phone(as string) (string, error) {
	if strings.HasPrefix(as, "+") {
		return as, nil
	}
	for _, u := range s.Users {
		if string(u.Role) == as {
			return u.Phone, nil
		}
	}
	return "", fmt.Errorf("dialogs: no user has the role %s in the seed's users", as)
}

// Check makes sure each dialog can succeed on this seed: its role has a
// user and what its expectation names (customers, SKUs, the order to
// deliver) is in the seed. A phone that is no user's is allowed: a
// stranger writing is worth a script. The error names each dialog by its
// line.
func (s Seed) Check(ds []Dialog) error {
	customers, skus, orders := folded(s.Customers), folded(s.SKUs), folded(s.Orders)
	var problems []error
	for _, d := range ds {
		bad := func(format string, args ...any) {
			if len(problems) < maxProblems {
				problems = append(problems, &LineError{Line: d.Line, Err: fmt.Errorf("dialog %q: %s", d.ID, fmt.Sprintf(format, args...))})
			}
		}
		if _, err := s.Phone(d.As); err != nil {
			bad("no user has the role %s in users.csv", d.As)
		}
		e := d.Expect
		switch {
		case e.Order != nil:
			if !customers[strings.ToLower(e.Order.Customer)] {
				bad("expect.order: customer %s is not in customers.csv", e.Order.Customer)
			}
			for _, it := range e.Order.Items {
				if !skus[strings.ToLower(it.SKU)] {
					bad("expect.order: SKU %s is not in catalog.csv", it.SKU)
				}
			}
		case e.Payment != nil:
			if !customers[strings.ToLower(e.Payment.Customer)] {
				bad("expect.payment: customer %s is not in customers.csv", e.Payment.Customer)
			}
		case e.Delivery != nil:
			if !orders[strings.ToLower(e.Delivery.Order)] {
				bad("expect.delivery: order %s is not in orders.csv", e.Delivery.Order)
			}
		}
	}
	return errors.Join(problems...)
}

func folded(keys []string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[strings.ToLower(k)] = true
	}
	return m
}
