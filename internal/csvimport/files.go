package csvimport

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/intake"
)

// Columns of each file, as the contract fixes them.
var (
	CatalogColumns        = []string{"sku", "name", "aliases", "unit", "pack_sizes", "price", "gst_percent", "stock_ready", "stock_wip"}
	CustomerColumns       = []string{"id", "name", "aliases", "phone", "segment", "credit_limit", "outstanding", "payment_modes"}
	UserColumns           = []string{"phone", "name", "role"}
	skuPattern            = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_./-]{0,31}$`)
	packNamePattern       = regexp.MustCompile(`^\pL[\pL\pM ]{0,23}$`)
	defaultGST            = domain.GSTRate(1800)
	maxStock        int64 = 1_000_000_000
	// maxPackUnits keeps pack × quantity far from overflowing.
	maxPackUnits int64 = 100_000
	// maxPrice (₹1 crore a base unit) keeps price × the largest quantity of
	// a line far from overflowing; maxBalance (₹1,000 crore) does the same
	// for credit limits and dues added up over every customer.
	maxPrice   domain.Paise = 1_00_00_000_00
	maxBalance              = intake.MaxBalance
)

// ReadCatalog reads a catalog file. Any bad row makes it return an *Error
// listing every problem, and no products.
func ReadCatalog(in io.Reader) ([]domain.Product, error) {
	rd := &reader{file: "catalog", columns: CatalogColumns}
	return readCatalog(rd, func(each func(row)) error { return rd.rows(in, each) })
}

// ReadCatalogTable reads a catalog from a table with the file's columns
// (a Google Sheet's tab), all or nothing as ReadCatalog, each problem
// reported by the row's number in the table.
func ReadCatalogTable(t Table) ([]domain.Product, error) {
	rd := &reader{file: "catalog", columns: CatalogColumns, table: &t}
	return readCatalog(rd, func(each func(row)) error { return rd.tableRows(t, each) })
}

func readCatalog(rd *reader, rows func(each func(row)) error) ([]domain.Product, error) {
	seen := keys{}
	var out []domain.Product
	err := rows(func(r row) {
		p, problems := parseProduct(r)
		for _, pr := range problems {
			rd.fail(r.line, "%s", pr)
		}
		if len(problems) == 0 && !seen.seen(rd, r.line, "sku", p.SKU) {
			out = append(out, p)
		}
	})
	if err == nil {
		err = rd.err()
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

func parseProduct(r row) (domain.Product, []string) {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	p := domain.Product{SKU: r.get("sku"), Name: r.get("name"), Aliases: list(r.get("aliases")), Unit: strings.ToLower(r.get("unit"))}
	if !skuPattern.MatchString(p.SKU) {
		bad("sku %q must be 1–32 letters, digits or _ . / -", p.SKU)
	}
	if p.Name == "" {
		bad("name is empty")
	}
	checkNames("sku", []string{p.SKU}, bad)
	checkNames("name", []string{p.Name}, bad)
	checkNames("alias", p.Aliases, bad)
	if p.Unit == "" {
		bad("unit is empty (the base unit, such as bottle or piece)")
	}
	packs := map[string]bool{}
	for _, part := range list(r.get("pack_sizes")) {
		name, n, ok := strings.Cut(part, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		units, err := wholeNumber(strings.TrimSpace(n), 1)
		switch {
		case !ok || !packNamePattern.MatchString(name):
			bad("pack size %q must look like carton=24", part)
		case err != nil:
			bad("pack size %q: %v", part, err)
		case units > maxPackUnits:
			bad("pack size %q is larger than %d base units", part, maxPackUnits)
		case packs[name]:
			bad("pack size %q is given twice", name)
		default:
			packs[name] = true
			p.PackSizes = append(p.PackSizes, domain.PackSize{Name: name, Units: units})
		}
	}
	// A price of zero is allowed on purpose: free samples and display
	// material are ordered too, and the minimum order value still applies.
	p.Price = money(r, "price", false, maxPrice, bad)
	p.GSTPercent = defaultGST
	if g := r.get("gst_percent"); g != "" {
		rate, err := domain.ParseRupees(strings.TrimSuffix(g, "%")) // same two-decimal reading
		if err != nil || rate < 0 || rate > 10000 {
			bad("gst_percent %q must be a percentage from 0 to 100", g)
		}
		p.GSTPercent = domain.GSTRate(rate)
	}
	p.StockReady = stock(r.get("stock_ready"), "stock_ready", bad)
	p.StockWIP = stock(r.get("stock_wip"), "stock_wip", bad)
	return p, problems
}

func stock(s, col string, bad func(string, ...any)) int64 {
	if s == "" {
		return 0
	}
	n, err := wholeNumber(s, 0)
	if err != nil || n > maxStock {
		bad("%s %q must be a whole number of base units from 0", col, s)
		return 0
	}
	return n
}

// ReadCustomers reads a customers file, all or nothing.
func ReadCustomers(in io.Reader) ([]domain.Customer, error) {
	rd := &reader{file: "customers", columns: CustomerColumns}
	return readCustomers(rd, func(each func(row)) error { return rd.rows(in, each) })
}

// ReadCustomersTable reads customers from a table with the file's
// columns, as ReadCatalogTable reads a catalog.
func ReadCustomersTable(t Table) ([]domain.Customer, error) {
	rd := &reader{file: "customers", columns: CustomerColumns, table: &t}
	return readCustomers(rd, func(each func(row)) error { return rd.tableRows(t, each) })
}

func readCustomers(rd *reader, rows func(each func(row)) error) ([]domain.Customer, error) {
	seen := keys{}
	var out []domain.Customer
	err := rows(func(r row) {
		c, problems := parseCustomer(r)
		for _, pr := range problems {
			rd.fail(r.line, "%s", pr)
		}
		if len(problems) == 0 && !seen.seen(rd, r.line, "id", c.ID) {
			out = append(out, c)
		}
	})
	if err == nil {
		err = rd.err()
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

func parseCustomer(r row) (domain.Customer, []string) {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	c := domain.Customer{ID: r.get("id"), Name: r.get("name"), Aliases: list(r.get("aliases")), Segment: r.get("segment")}
	if !skuPattern.MatchString(c.ID) {
		bad("id %q must be 1–32 letters, digits or _ . / -", c.ID)
	}
	if c.Name == "" {
		bad("name is empty")
	}
	checkNames("name", []string{c.Name}, bad)
	checkNames("alias", c.Aliases, bad)
	if ph := r.get("phone"); ph != "" {
		phone, err := domain.ParsePhone(ph)
		if err != nil {
			bad("%v", err)
		}
		c.Phone = phone
	}
	// Outstanding below zero would add to the credit room the limit
	// leaves (limit − outstanding): an advance paid is outstanding 0.
	c.CreditLimit = money(r, "credit_limit", true, maxBalance, bad)
	c.Outstanding = money(r, "outstanding", true, maxBalance, bad)
	modes := list(r.get("payment_modes"))
	if len(modes) == 0 {
		bad("payment_modes is empty (use cod|credit|upi|cheque|bank_transfer)")
	}
	for _, m := range modes {
		mode, err := domain.ParsePaymentMode(m)
		if err != nil {
			bad("payment mode %q is not one of cod, credit, upi, cheque, bank_transfer", m)
			continue
		}
		c.PaymentModes = append(c.PaymentModes, mode)
	}
	return c, problems
}

// Hints that end the reason a money column is refused.
var (
	negativeHints = map[string]string{"outstanding": " (enter 0 for a customer who has paid in advance)"}
	tooLargeHints = map[string]string{"price": " (the price is for one base unit)"}
)

// money reads a column of rupees into paise: never negative, at most max,
// and 0 when empty if the column may be.
func money(r row, col string, mayBeEmpty bool, max domain.Paise, bad func(string, ...any)) domain.Paise {
	s := r.get(col)
	if s == "" && mayBeEmpty {
		return 0
	}
	p, err := domain.ParseRupees(s)
	switch {
	case err != nil:
		bad("%s %q is not an amount in rupees", col, s)
	case p < 0:
		bad("%s %q can't be negative%s", col, s, negativeHints[col])
	case p > max:
		bad("%s %q is more than %s%s", col, s, max, tooLargeHints[col])
	default:
		return p
	}
	return 0
}

// ReadUsers reads a users file, all or nothing.
func ReadUsers(in io.Reader) ([]domain.User, error) {
	rd := &reader{file: "users", columns: UserColumns}
	seen := keys{}
	var out []domain.User
	err := rd.rows(in, func(r row) {
		var problems []string
		phone, err := domain.ParsePhone(r.get("phone"))
		if err != nil {
			problems = append(problems, err.Error())
		}
		name := r.get("name")
		if name == "" {
			problems = append(problems, "name is empty")
		}
		role, err := domain.ParseRole(r.get("role"))
		if err != nil {
			problems = append(problems, fmt.Sprintf("role %q must be sales, owner or accounts", r.get("role")))
		}
		for _, pr := range problems {
			rd.fail(r.line, "%s", pr)
		}
		if len(problems) == 0 && !seen.seen(rd, r.line, "phone", phone) {
			out = append(out, domain.User{Phone: phone, Name: name, Role: role})
		}
	})
	if err == nil {
		err = rd.err()
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}
