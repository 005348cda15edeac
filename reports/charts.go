package reports

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports/chart"
)

// weeklyAfter is the longest period drawn day by day; a longer one is
// drawn by week, so that a year is 53 points, not 365.
const weeklyAfter = 92 * 24 * time.Hour

// chartFor turns a call asked as a chart into the call whose rows the
// chart draws: sales with no grouping asked for are a trend by day, and
// so are payments unless asked by customer or by mode.
func chartFor(call Call) Call {
	by, _ := call.Args["by"].(string)
	switch call.Tool {
	case ToolSalesSummary:
		if by != "" {
			return call
		}
	case ToolPaymentsReceived:
		if by == string(PaymentsByCustomer) || by == string(PaymentsByMode) {
			return call
		}
	default:
		return call
	}
	args := cloneArgs(call.Args)
	args["by"] = string(ByDay)
	call.Args = args
	return call
}

// chart draws a result as a PNG for WhatsApp and an interactive page, from
// the same tool's rows as its text: the first rows of the same order
// (top rows when asked for, else the rows the text shows), or every day of
// a sales trend.
func (t *Tools) chart(ctx context.Context, user domain.User, res Result, top int) (made, error) {
	rows := t.pageRows()
	if top > 0 {
		rows = top
	}
	rows = min(rows, chart.MaxRows)
	var c chart.Chart
	var stem, note string
	var period *Period
	var tab Table
	var err error
	switch r := res.Report.(type) {
	case *Sales:
		period, stem = &r.Period, salesStem(r, true)
		if r.Totals.Groups == 0 {
			return made{nothing: true, caption: fmt.Sprintf("No sales %s, so there is nothing to chart.", r.Period.Label())}, nil
		}
		if r.By == ByDay {
			if tab, err = t.tableOf(ctx, user, res, chart.MaxPoints); err != nil {
				return made{}, err
			}
			c = trendChart(tab, r.Period, res.at.loc, "Before GST", "amount_before_gst")
			break
		}
		if tab, err = t.tableOf(ctx, user, res, rows); err != nil {
			return made{}, err
		}
		c = barChart(tab, "Before GST", "amount_before_gst")
	case *PaymentsReceived:
		period, stem = &r.Period, paymentsStem(r, true)
		if r.Totals.Payments == 0 {
			return made{nothing: true, caption: fmt.Sprintf("No payments received %s, so there is nothing to chart.", r.Period.Label())}, nil
		}
		if r.By == PaymentsByDay {
			if tab, err = t.tableOf(ctx, user, res, chart.MaxPoints); err != nil {
				return made{}, err
			}
			c = trendChart(tab, r.Period, res.at.loc, "Received", "amount")
			break
		}
		if tab, err = t.tableOf(ctx, user, res, rows); err != nil {
			return made{}, err
		}
		c = barChart(tab, "Received", "amount")
		c.Title += " · by " + string(r.By)
	case *Dues:
		stem = "outstanding"
		if r.Totals.Customers == 0 {
			return made{nothing: true, caption: "Nobody owes us anything right now, so there is nothing to chart."}, nil
		}
		if tab, err = t.tableOf(ctx, user, res, rows); err != nil {
			return made{}, err
		}
		c = barChart(tab, "Outstanding", "outstanding")
		c.Series = append(c.Series, chart.MoneySeries("Credit limit", moneyColumn(tab, "credit_limit")).AsMarker())
		c.Title += " · " + res.at.now.In(res.at.loc).Format("2 Jan 2006")
	case *StockCheck, *CatalogStock, *OutOfStock:
		stem = "stock"
		if _, out := r.(*OutOfStock); out {
			stem = "out-of-stock"
		}
		if res.Report.Rows() == 0 {
			return made{nothing: true, caption: "There are no products to chart."}, nil
		}
		if tab, err = t.stockNeeds(ctx, res, rows); err != nil {
			return made{}, err
		}
		c = stockChart(tab)
		c.Title += " · " + res.at.now.In(res.at.loc).Format("2 Jan 2006")
		note = c.Caption // which products are drawn, and how many are not
	default:
		return made{nothing: true, caption: "I can send that as an Excel file (say \"excel\"), not as a chart. Here it is:\n\n" + res.Text}, nil
	}
	png, err := chart.RenderPNG(c)
	if err != nil {
		return made{}, err
	}
	page, err := chart.RenderHTML(c, t.AssetsHost)
	if err != nil {
		return made{}, err
	}
	return made{
		caption: strings.Join(slices.DeleteFunc([]string{"📈 *" + c.Title + "*", note, totalsText(tab)}, func(s string) bool { return s == "" }), "\n"),
		files:   []madeFile{{fileName(stem, period, ".png", res.at), png.Data}, {fileName(stem, period, ".html", res.at), page}},
		rows:    len(tab.Rows), period: period,
	}, nil
}

// tableOf is the result's table with up to limit rows, read page by page.
func (t *Tools) tableOf(ctx context.Context, user domain.User, res Result, limit int) (Table, error) {
	tab := res.Table()
	tab.Rows = nil
	for rep, err := range t.allPages(ctx, user, res) {
		if err != nil {
			return Table{}, err
		}
		page := rep.Table(res.at.now, res.at.loc)
		tab.Rows = append(tab.Rows, page.Rows...)
		if len(tab.Rows) >= limit {
			tab.Rows = tab.Rows[:limit]
			break
		}
	}
	return tab, nil
}

// trendChart draws a money column by day (or by week, for a long period)
// as a line, or as bars when there are only a few: every day of the
// period, those without any at zero.
func trendChart(tab Table, p Period, loc *time.Location, series, key string) chart.Chart {
	amount := tab.Column(key)
	byDay := map[string]domain.Paise{}
	for _, row := range tab.Rows {
		if !row[0].Empty {
			byDay[row[0].Date.In(loc).Format(time.DateOnly)] += row[amount].Money
		}
	}
	weekly := p.To.Sub(p.From) > weeklyAfter
	var cats []chart.Category
	var values []domain.Paise
	for d := p.From.In(loc); d.Before(p.To); d = d.AddDate(0, 0, 1) {
		v := byDay[d.Format(time.DateOnly)]
		if weekly && d.Weekday() != time.Monday && len(values) > 0 {
			values[len(values)-1] += v
			continue
		}
		label := d.Format("2 Jan")
		cats = append(cats, chart.Category{Text: label, Fallback: label})
		values = append(values, v)
	}
	kind, by := chart.Line, "by day"
	if weekly {
		by = "by week"
	}
	if len(cats) <= 14 {
		kind = chart.Bar
	}
	return chart.Chart{Title: tab.Title + " · " + by, Caption: series, Kind: kind, Categories: cats,
		Series: []chart.Series{chart.MoneySeries(series, values)}}
}

// barChart draws one money column of a table's rows as horizontal bars,
// named as the text names them; a name the PNG's font cannot draw falls
// back to the first column (the SKU or customer id).
func barChart(tab Table, series, key string) chart.Chart {
	c := chart.Chart{Title: tab.Title, Kind: chart.HorizontalBar, Categories: categories(tab),
		Series: []chart.Series{chart.MoneySeries(series, moneyColumn(tab, key))}}
	if tab.Count > len(tab.Rows) {
		c.Caption = fmt.Sprintf("Top %s of %s", count(len(tab.Rows)), count(tab.Count))
	}
	return c
}

// stockChart draws each product's ready stock as what is available and
// what is committed to open orders, with what is in production beside it.
func stockChart(tab Table) chart.Chart {
	ready, committed, wip := tab.Column("ready"), tab.Column("committed"), tab.Column("in_production")
	n := len(tab.Rows)
	avail, held, prod := make([]int64, n), make([]int64, n), make([]int64, n)
	unit := ""
	for i, row := range tab.Rows {
		r := max(row[ready].N, 0)
		held[i] = min(max(row[committed].N, 0), r)
		avail[i], prod[i] = r-held[i], max(row[wip].N, 0)
		if i == 0 {
			unit = row[ready].Unit
		} else if unit != row[ready].Unit {
			unit = "unit" // products counted in different units
		}
	}
	c := chart.Chart{Title: tab.Title, Kind: chart.Stacked, Categories: categories(tab), Series: []chart.Series{
		chart.QuantitySeries("Available", unit, avail), chart.QuantitySeries("Committed", unit, held),
		chart.QuantitySeries("In production", unit, prod),
	}}
	if tab.Count > n {
		c.Caption = fmt.Sprintf("%s of %s products (%s left out): out of stock first, then the fewest days of sales left. Ask for a product by name for the rest.",
			count(n), count(tab.Count), count(tab.Count-n))
	}
	return c
}

// RunningLowRows is how many products a "running low" answer lists.
const RunningLowRows = 10

// runningLow is the products that run out first: those with nothing
// available, then those with the fewest days of cover at the last
// CoverDays days' sales.
func (t *Tools) runningLow(ctx context.Context, c clock) (Report, error) {
	q, err := coverQuery(c, RunningLowRows)
	if err != nil {
		return nil, err
	}
	lines, err := t.Books.StockNeeds(ctx, q)
	return &RunningLow{Lines: lines}, err
}

// coverQuery asks the books for up to limit products ranked by their
// cover at the last CoverDays days' sales, to c's now.
func coverQuery(c clock, limit int) (StockNeedsQuery, error) {
	p, err := MakePeriod(fmt.Sprintf("last_%d_days", CoverDays), c.now, c.loc)
	if err != nil {
		return StockNeedsQuery{}, err
	}
	return StockNeedsQuery{From: p.From, To: p.To, Limit: limit}, nil
}

// CoverDays is the stretch of sales a product's cover is reckoned from:
// its available stock over what it sold a day in the last CoverDays days.
const CoverDays = 28

// stockNeeds is the stock table with up to limit products, those that
// matter first: out of stock (the better-selling first), then the fewest
// days of sales the available stock covers, then the products that did not
// sell, by name. The books rank them in one query, over the same products
// as the answer: the ones named, those out of stock, or the whole catalog.
// Count stays every product of the answer, so that the caption can say how
// many are left out.
func (t *Tools) stockNeeds(ctx context.Context, res Result, limit int) (Table, error) {
	q, err := coverQuery(res.at, limit)
	if err != nil {
		return Table{}, err
	}
	switch r := res.Report.(type) {
	case *StockCheck:
		for _, l := range r.Lines {
			q.SKUs = append(q.SKUs, l.SKU)
		}
	case *OutOfStock:
		q.OutOnly = true
	}
	lines, err := t.Books.StockNeeds(ctx, q)
	if err != nil {
		return Table{}, err
	}
	tab := res.Table()
	tab.Rows = stockCells(lines)
	return tab, nil
}

// categories are the names of a table's rows (its second column), with the
// first column (SKU, customer id) as their fallback.
func categories(tab Table) []chart.Category {
	out := make([]chart.Category, len(tab.Rows))
	for i, row := range tab.Rows {
		out[i] = chart.Category{Text: row[1].Text, Fallback: row[0].Text}
	}
	return out
}

func moneyColumn(tab Table, key string) []domain.Paise {
	k := tab.Column(key)
	out := make([]domain.Paise, len(tab.Rows))
	for i, row := range tab.Rows {
		out[i] = row[k].Money
	}
	return out
}

// totalsText writes a table's totals a line each, as the caption of a
// chart or a file: the figures of the whole answer.
func totalsText(tab Table) string {
	var lines []string
	for _, tot := range tab.Totals {
		v := tot.Value
		switch tot.Kind {
		case ColMoney:
			lines = append(lines, tot.Title+": "+v.Money.String())
		case ColCount:
			lines = append(lines, tot.Title+": "+count(v.N))
		case ColQuantity:
			lines = append(lines, tot.Title+": "+Quantity(v.N, v.Unit, v.Packs))
		}
	}
	return strings.Join(lines, "\n")
}
