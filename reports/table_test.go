package reports_test

import (
	"strings"
	"testing"

	"github.com/munshi/munshi/reports"
)

// cellText is a cell as the WhatsApp text writes it, for finding it there.
func cellText(c reports.Cell, kind reports.ColumnKind) string {
	switch kind {
	case reports.ColText:
		return c.Text
	case reports.ColMoney:
		return c.Money.String()
	}
	return ""
}

// TestTableIsWhatTheTextShows: for every tool, the report's Table has a
// typed cell for each column of each row, as many rows as the text shows,
// the whole answer's count, and the names and money of each row appear in
// the text's line for that row, so a chart or a spreadsheet shows the same
// figures as the reply.
func TestTableIsWhatTheTextShows(t *testing.T) {
	b := knownBooks(t)
	for _, tc := range []struct {
		name  string
		tool  string
		args  map[string]any
		names []string // columns whose text and money the reply's line shows
	}{
		{"stock of two", reports.ToolCheckStock, map[string]any{"product": []string{"GC500", "PH1L"}}, []string{"name", "sku"}},
		{"catalog stock", reports.ToolCheckStock, nil, []string{"name"}},
		{"out of stock", reports.ToolOutOfStock, nil, []string{"name", "sku"}},
		{"who owes", reports.ToolOutstanding, nil, []string{"name", "outstanding"}},
		{"pending orders", reports.ToolPendingOrders, nil, []string{"order", "customer", "total_with_gst"}},
		{"sales by product", reports.ToolSalesSummary, map[string]any{"period": "last_30_days"}, []string{"name", "amount_before_gst"}},
		{"sales by customer", reports.ToolSalesSummary, map[string]any{"period": "last_30_days", "by": "customer"}, []string{"name", "amount_before_gst"}},
		{"who bought GC", reports.ToolSalesSummary, map[string]any{"period": "last_30_days", "product": "GC500"}, []string{"name", "amount_before_gst"}},
		{"sales by day", reports.ToolSalesSummary, map[string]any{"period": "last_7_days", "by": "day"}, []string{"amount_before_gst"}},
		{"top customers", reports.ToolTopCustomers, map[string]any{"period": "this_month"}, []string{"name", "amount_before_gst"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := b.call(t, owner, tc.tool, tc.args)
			tbl := res.Table()
			if tbl.Title == "" || len(tbl.Columns) == 0 || len(tbl.Totals) == 0 && tc.tool != reports.ToolCheckStock {
				t.Fatalf("table %+v", tbl)
			}
			if len(tbl.Rows) == 0 || res.Shown == 0 {
				t.Fatalf("no rows to compare:\n%s", res.Text)
			}
			if len(tbl.Rows) != res.Report.Rows() || len(tbl.Rows) < res.Shown {
				t.Fatalf("%d table rows, the report has %d and the text shows %d", len(tbl.Rows), res.Report.Rows(), res.Shown)
			}
			if tbl.Count < len(tbl.Rows)+tbl.Offset {
				t.Fatalf("count %d of %d rows at %d", tbl.Count, len(tbl.Rows), tbl.Offset)
			}
			lines := strings.Split(res.Text, "\n")
			for i, row := range tbl.Rows[:res.Shown] {
				if len(row) != len(tbl.Columns) {
					t.Fatalf("row %d has %d cells for %d columns", i, len(row), len(tbl.Columns))
				}
				line := ""
				for _, l := range lines {
					if strings.Contains(l, cellText(row[tbl.Column(tc.names[0])], tbl.Columns[tbl.Column(tc.names[0])].Kind)) {
						line = l
						break
					}
				}
				for _, key := range tc.names {
					col := tbl.Column(key)
					if col < 0 {
						t.Fatalf("no column %q in %+v", key, tbl.Columns)
					}
					if want := cellText(row[col], tbl.Columns[col].Kind); !strings.Contains(line, want) {
						t.Errorf("row %d: %s %q is not on its line %q", i, key, want, line)
					}
				}
				for j, c := range tbl.Columns {
					if c.Kind == reports.ColDate && !row[j].Empty && row[j].Date.IsZero() {
						t.Errorf("row %d: date %s has no date", i, c.Key)
					}
					if c.Kind == reports.ColQuantity && !row[j].Empty && row[j].Unit == "" {
						t.Errorf("row %d: quantity %s has no unit", i, c.Key)
					}
				}
			}
		})
	}
}

// TestTableTotalsAndPeriod: a sales table carries its period and the
// totals of the whole answer, the text's figures; a stock question with a
// quantity carries what was asked and how short the stock is.
func TestTableTotalsAndPeriod(t *testing.T) {
	b := knownBooks(t)
	res := b.call(t, owner, reports.ToolSalesSummary, map[string]any{"period": "last_30_days", "by": "customer"})
	tbl := res.Table()
	if tbl.Period == nil || tbl.Period.Name != "last_30_days" {
		t.Fatalf("period %+v", tbl.Period)
	}
	before, _ := tbl.Total("amount_before_gst")
	gst, _ := tbl.Total("gst")
	with, _ := tbl.Total("amount_with_gst")
	if before.Money <= 0 || with.Money != before.Money+gst.Money {
		t.Fatalf("totals %v + %v = %v", before.Money, gst.Money, with.Money)
	}
	if !strings.Contains(res.Text, before.Money.String()+" before GST (+"+gst.Money.String()+" GST)") {
		t.Errorf("the text's total is not the table's %s:\n%s", before.Money, res.Text)
	}
	var sum int64
	for _, row := range tbl.Rows {
		sum += int64(row[tbl.Column("amount_before_gst")].Money)
	}
	if tbl.Count == len(tbl.Rows) && sum != int64(before.Money) {
		t.Errorf("rows add up to %d paise, the total is %d", sum, before.Money)
	}

	res = b.call(t, owner, reports.ToolCheckStock, map[string]any{"product": "PH1L", "quantity": 100000})
	tbl = res.Table()
	asked, ok := tbl.Total("asked")
	short, shortOK := tbl.Total("short_by")
	if !ok || asked.N != 100000 || !shortOK || short.N <= 0 || short.Unit == "" {
		t.Fatalf("asked %+v, short by %+v in %+v", asked, short, tbl.Totals)
	}
	if !strings.Contains(res.Text, reports.Units(short.N, short.Unit)) {
		t.Errorf("the text does not say it is short by %s:\n%s", reports.Units(short.N, short.Unit), res.Text)
	}
	if _, ok := (reports.Result{}).Table().Total("asked"); ok {
		t.Error("a failed call has a table")
	}
}
