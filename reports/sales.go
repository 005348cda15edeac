package reports

import (
	"context"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

func (t *Tools) sales(ctx context.Context, name string, args map[string]any, page Page, understood map[string]any, c clock) (Report, map[string]any, error) {
	periodArg, _ := args["period"].(string)
	pname := DefaultPeriod(c.now, c.loc)
	if strings.TrimSpace(periodArg) != "" {
		if pname = canonicalPeriod(periodArg); pname == "" {
			return nil, understood, domain.Errorf(domain.EINVALID, "I don't know the period %q. Try today, yesterday, this week, last week, this month, last month or last 30 days.", clip(periodArg, 40))
		}
	}
	period, err := MakePeriod(pname, c.now, c.loc)
	if err != nil {
		return nil, understood, err
	}
	understood["period"] = pname
	s := &Sales{Period: period, By: ByCustomer, Top: name == ToolTopCustomers, Offset: page.Offset}
	q := SalesQuery{From: period.From, To: period.To, By: ByCustomer, UTCOffset: utcOffset(period.From), Page: page}
	if name == ToolSalesSummary {
		products, err := t.resolve(ctx, productKind, args["product"], understood)
		if err != nil {
			return nil, understood, err
		}
		if len(products) > 1 {
			return nil, understood, domain.Errorf(domain.EINVALID, "Which one do you mean: %s?", orList(products))
		}
		customers, err := t.resolve(ctx, customerKind, args["customer"], understood)
		if err != nil {
			return nil, understood, err
		}
		by, _ := args["by"].(string)
		switch b := SalesBy(strings.ToLower(strings.TrimSpace(by))); b {
		case ByProduct, ByCustomer, ByDay:
			q.By = b
		case "":
			q.By = ByProduct
			if len(products) == 1 {
				q.By = ByCustomer // "who bought glass cleaner last week?"
			}
		default:
			return nil, understood, domain.Errorf(domain.EINVALID, "Sales can be shown by product, customer or day, not %q.", clip(by, 20))
		}
		understood["by"] = string(q.By)
		if len(products) == 1 {
			s.Product = &products[0]
			q.SKUs = ids(products)
		}
		s.Customers, q.CustomerIDs = customers, ids(customers)
		s.By = q.By
	}
	tot, lines, err := t.Books.SalesSummary(ctx, q)
	s.Totals, s.Lines = tot, lines
	return s, understood, err
}

func utcOffset(t time.Time) int {
	_, off := t.Zone()
	return off
}
