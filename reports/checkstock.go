package reports

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

func (t *Tools) checkStock(ctx context.Context, args map[string]any, page Page, understood map[string]any) (Report, map[string]any, error) {
	qty, err := intArg(args, "quantity")
	if err != nil {
		return nil, understood, err
	}
	unit, _ := args["unit"].(string)
	products, err := t.resolve(ctx, productKind, args["product"], understood)
	if err != nil {
		return nil, understood, err
	}
	if len(products) == 0 {
		if qty > 0 {
			return nil, understood, domain.Errorf(domain.EINVALID, "Which product is the quantity for?")
		}
		tot, lines, err := t.Books.StockCatalog(ctx, page)
		return &CatalogStock{Totals: tot, Lines: lines, Offset: page.Offset}, understood, err
	}
	if qty > 0 && len(products) > 1 {
		return nil, understood, domain.Errorf(domain.EINVALID, "Which one do you mean: %s?", orList(products))
	}
	lines, err := t.Books.StockOf(ctx, ids(products))
	if err != nil {
		return nil, understood, err
	}
	if len(lines) == 0 {
		return nil, understood, domain.Errorf(domain.ENOTFOUND, "I couldn't find %s in the catalog.", orList(products))
	}
	check := &StockCheck{Lines: lines}
	if qty > 0 {
		units, err := baseUnits(qty, unit, lines[0])
		if err != nil {
			return nil, understood, err
		}
		check.Asked = units
		understood["quantity"] = units
	}
	return check, understood, nil
}

// baseUnits converts a quantity said in a unit of the product (its base
// unit or one of its packs) to base units.
func baseUnits(qty int64, unit string, l StockLine) (int64, error) {
	u := strings.ToLower(strings.TrimSpace(unit))
	if u == "" || u == l.Unit || u == domain.Plural(l.Unit, 2) || u == "unit" || u == "units" {
		return qty, nil
	}
	for _, p := range l.Packs {
		if u == strings.ToLower(p.Name) || u == domain.Plural(strings.ToLower(p.Name), 2) {
			if qty > math.MaxInt64/max(p.Units, 1) {
				return 0, domain.Errorf(domain.EINVALID, "That quantity is too large.")
			}
			return qty * p.Units, nil
		}
	}
	ways := []string{domain.Plural(l.Unit, 2)}
	for _, p := range l.Packs {
		ways = append(ways, fmt.Sprintf("%s of %d", domain.Plural(p.Name, 2), p.Units))
	}
	list := ways[0]
	if n := len(ways); n > 1 {
		list = strings.Join(ways[:n-1], ", ") + " or " + ways[n-1]
	}
	return 0, domain.Errorf(domain.EINVALID, "%s comes in %s, not %s.", l.Name, list, unit)
}
