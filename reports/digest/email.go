package digest

import (
	"context"
	"fmt"
	"html"
	"strings"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports/chart"
	"github.com/munshi/munshi/reports/excel"
)

// ChartID is the content ID of the 13-week chart in the owners' mail.
const ChartID = "digest-13-weeks"

// table is one table of the email, written both as HTML and as text.
type table struct {
	title   string
	columns []string
	right   []bool // right-aligned (figures)
	rows    [][]string
	empty   string // said instead of an empty table
}

func (t table) html(b *strings.Builder) {
	fmt.Fprintf(b, "<h3>%s</h3>\n", html.EscapeString(t.title))
	if len(t.rows) == 0 {
		fmt.Fprintf(b, "<p>%s</p>\n", html.EscapeString(t.empty))
		return
	}
	b.WriteString(`<table cellpadding="4" cellspacing="0" border="1" style="border-collapse:collapse">` + "\n<tr>")
	for _, c := range t.columns {
		fmt.Fprintf(b, "<th>%s</th>", html.EscapeString(c))
	}
	b.WriteString("</tr>\n")
	for _, r := range t.rows {
		b.WriteString("<tr>")
		for i, c := range r {
			align := ""
			if i < len(t.right) && t.right[i] {
				align = ` align="right"`
			}
			fmt.Fprintf(b, "<td%s>%s</td>", align, html.EscapeString(c))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</table>\n")
}

func (t table) text(b *strings.Builder) {
	fmt.Fprintf(b, "\n%s\n%s\n", t.title, strings.Repeat("-", len([]rune(t.title))))
	if len(t.rows) == 0 {
		b.WriteString(t.empty + "\n")
		return
	}
	b.WriteString(strings.Join(t.columns, " | ") + "\n")
	for _, r := range t.rows {
		b.WriteString(strings.Join(r, " | ") + "\n")
	}
}

func pctText(p *int) string {
	if p == nil {
		return "—"
	}
	if *p > 0 {
		return fmt.Sprintf("+%d%%", *p)
	}
	return fmt.Sprintf("%d%%", *p)
}

// salesTables are the day, its baseline and the week and month so far.
func salesTables(f Facts) []table {
	day := table{title: "The day", columns: []string{"Date", "Sales before GST", "GST", "Orders", "Customers"},
		right: []bool{false, true, true, true, true},
		rows: [][]string{{f.Date.Format("Mon 2 Jan 2006"), money(f.Sales.Amount), money(f.Sales.GST),
			domain.GroupIndian(int64(f.Sales.Orders)), domain.GroupIndian(int64(f.Sales.Customers))}}}
	base := table{title: fmt.Sprintf("%ss over %d weeks", f.Date.Weekday(), BaselineWeeks),
		columns: []string{"Date", "Sales before GST", "Orders"}, right: []bool{false, true, true}}
	for _, d := range f.Baseline.Days {
		base.rows = append(base.rows, []string{d.Date.Format("Mon 2 Jan 2006"), money(d.Amount), domain.GroupIndian(int64(d.Orders))})
	}
	base.rows = append(base.rows,
		[]string{"Usual (mean)", money(f.Baseline.Mean), ""},
		[]string{"Lowest – highest", money(f.Baseline.Lowest) + " – " + money(f.Baseline.Highest), ""},
		[]string{f.Date.Format("Mon 2 Jan 2006") + " against usual", pctText(f.Baseline.Change), ""})
	period := func(from, to string) string { return from + " – " + to }
	last := func(c Comparison) (string, string) {
		return period(c.From.Format("2 Jan"), c.To.AddDate(0, 0, -1).Format("2 Jan")),
			period(c.PriorFrom.Format("2 Jan"), c.PriorTo.AddDate(0, 0, -1).Format("2 Jan"))
	}
	wNow, wPrior := last(f.Week)
	mNow, mPrior := last(f.Month)
	todate := table{title: "Week and month so far", columns: []string{"", "Days", "Sales before GST", "Same days before", "Sales", "Change"},
		right: []bool{false, false, true, false, true, true},
		rows: [][]string{
			{"Week", wNow, money(f.Week.Amount), wPrior, money(f.Week.Prior), pctText(f.Week.Change)},
			{"Month", mNow, money(f.Month.Amount), mPrior, money(f.Month.Prior), pctText(f.Month.Change)},
		}}
	return []table{day, base, todate}
}

func customerTables(f Facts) []table {
	actions := table{title: "Customers to call or chase", columns: []string{"#", "Action", "At stake"}, right: []bool{true, false, true},
		empty: "No customer needs a call today."}
	for i, a := range Actions(f) {
		actions.rows = append(actions.rows, []string{fmt.Sprint(i + 1), actionText(a.Event, 80), money(a.Value)})
	}
	events := table{title: "Every customer event", columns: []string{"Event", "Customer", "What"}, empty: "None."}
	for _, e := range f.Events {
		what := ""
		switch e.Kind {
		case PaymentReceived:
			what = fmt.Sprintf("%s in %s", money(e.Amount), plural(e.Payments, "payment"))
		case Surge:
			what = fmt.Sprintf("%s order, usually %s", money(e.Amount), money(e.UsualSize))
		default:
			what = strings.TrimPrefix(actionText(e, 80), actionVerb(e)+" "+e.Customer+": ")
		}
		events.rows = append(events.rows, []string{strings.ReplaceAll(string(e.Kind), "_", " "), e.Customer, what})
	}
	return []table{actions, events}
}

func actionVerb(e Event) string {
	switch e.Kind {
	case CreditRisk:
		return "Chase"
	}
	return "Call"
}

func stockTable(f Facts) table {
	t := table{title: "Stock out or under " + plural(CoverDays, "day") + " of cover",
		columns: []string{"SKU", "Product", "Ready", "Committed", "Available", "In production", fmt.Sprintf("Sold in %d days", StockDays), "Cover"},
		right:   []bool{false, false, true, true, true, true, true, true}, empty: "Nothing is out of stock or running out."}
	for _, l := range f.Stock {
		lasts := "out"
		switch {
		case !l.Out && l.Cover >= 0:
			lasts = cover(l.Cover)
		case !l.Out:
			lasts = "—"
		}
		t.rows = append(t.rows, []string{l.SKU, l.Name, domain.Units(l.Ready, l.Unit), domain.GroupIndian(l.Committed),
			domain.GroupIndian(l.Available()), domain.GroupIndian(l.WIP), domain.GroupIndian(l.Sold), lasts})
	}
	return t
}

func waitingTables(f Facts) []table {
	list := func(title string, items []OpenItem, count int, value domain.Paise, empty string) table {
		t := table{title: fmt.Sprintf("%s: %d, %s", title, count, money(value)), columns: []string{"Order", "Customer", "Total with GST", "Since"},
			right: []bool{false, false, true, false}, empty: empty}
		for _, it := range items {
			t.rows = append(t.rows, []string{it.ID, it.Customer, money(it.Total), it.CreatedAt.In(f.Location).Format("2 Jan 15:04")})
		}
		if count > len(items) {
			t.rows = append(t.rows, []string{fmt.Sprintf("+%d more", count-len(items)), "", "", ""})
		}
		return t
	}
	return []table{
		list("Drafts waiting for an owner's approval", f.Waiting.Drafts, f.Waiting.DraftCount, f.Waiting.DraftValue, "No draft waits."),
		list("Committed orders undelivered after "+plural(LateDays, "day"), f.Waiting.Late, f.Waiting.LateCount, f.Waiting.LateValue, "None is late."),
	}
}

func duesTables(f Facts) []table {
	paid := table{title: fmt.Sprintf("Payments received: %s", money(f.Received)), columns: []string{"Customer", "Payments", "Amount"},
		right: []bool{false, true, true}, empty: "No payment was received."}
	for _, e := range f.Of(PaymentReceived) {
		paid.rows = append(paid.rows, []string{e.Customer, domain.GroupIndian(int64(e.Payments)), money(e.Amount)})
	}
	risk := table{title: fmt.Sprintf("Credit to follow up (due now %s from %s)", money(f.Due), plural(f.Owing, "customer")),
		columns: []string{"Customer", "Due", "Limit", "Of limit", "Oldest unpaid bill", "Age"},
		right:   []bool{false, true, true, true, false, true}, empty: "No customer is past 90% of the limit or has a bill older than 60 days."}
	for _, e := range f.Of(CreditRisk) {
		limit, used, age := "none", "—", "—"
		if e.Limit > 0 {
			limit, used = money(e.Limit), fmt.Sprintf("%d%%", e.LimitUsed)
		}
		if e.OldestBill != "" {
			age = plural(e.OldestDays, "day")
		}
		risk.rows = append(risk.rows, []string{e.Customer, money(e.Amount), limit, used, e.OldestBill, age})
	}
	return []table{paid, risk}
}

// mail writes the opening and the tables as text and HTML.
func mail(to []string, subject, opening, note string, tables []table, inlineChart bool) domain.Email {
	var text, h strings.Builder
	text.WriteString(opening + "\n")
	h.WriteString(`<!DOCTYPE html><html><body style="font-family:sans-serif">` + "\n")
	for _, p := range strings.Split(opening, "\n") {
		fmt.Fprintf(&h, "<p>%s</p>\n", html.EscapeString(p))
	}
	if inlineChart {
		fmt.Fprintf(&h, `<p><img src="cid:%s" alt="Sales of the same weekday over 13 weeks" width="600"></p>`+"\n", ChartID)
	}
	for _, t := range tables {
		t.text(&text)
		t.html(&h)
	}
	if note != "" {
		text.WriteString("\n" + note + "\n")
		fmt.Fprintf(&h, "<p><i>%s</i></p>\n", html.EscapeString(note))
	}
	h.WriteString("</body></html>\n")
	return domain.Email{To: to, Subject: subject, Text: text.String(), HTML: h.String()}
}

// Chart is the 13-week chart: the same weekday's sales as bars, D last,
// with the usual day marked across them.
func Chart(f Facts) chart.Chart {
	c := chart.Chart{
		Title:   fmt.Sprintf("%ss, last %d weeks · %s", f.Date.Weekday(), BaselineWeeks, f.Date.Format("2 Jan 2006")),
		Caption: "Sales before GST; the mark is the usual day (" + money(f.Baseline.Mean) + ")",
		Kind:    chart.Bar,
	}
	var sales, usual []domain.Paise
	for _, d := range append(append([]DaySales{}, f.Baseline.Days...), f.Sales) {
		c.Categories = append(c.Categories, chart.Category{Text: d.Date.Format("2 Jan")})
		sales = append(sales, d.Amount)
		usual = append(usual, f.Baseline.Mean)
	}
	c.Series = []chart.Series{chart.MoneySeries("Sales", sales), chart.MoneySeries("Usual", usual).AsMarker()}
	return c
}

// OwnerMail is the owners' email: the opening, every table, the 13-week
// chart inline and the day's sales file attached. A chart or file that
// cannot be made is left out and said so; the mail still goes.
func OwnerMail(ctx context.Context, f Facts, opening string, lines []SaleLine, to []string) domain.Email {
	subject := fmt.Sprintf("Munshi digest · %s · sales %s (%s against a usual %s)", f.Date.Format("Mon 2 Jan 2006"),
		money(f.Sales.Amount), pctText(f.Baseline.Change), f.Date.Weekday())
	tables := salesTables(f)
	tables = append(tables, customerTables(f)...)
	tables = append(tables, stockTable(f))
	tables = append(tables, waitingTables(f)...)
	tables = append(tables, duesTables(f)...)
	var notes []string
	var files []domain.Attachment
	png, err := chart.RenderPNG(Chart(f))
	drawn := err == nil
	if drawn {
		files = append(files, domain.Attachment{Name: "sales-13-weeks.png", ContentType: "image/png", ContentID: ChartID, Data: png.Data})
	} else {
		notes = append(notes, "The 13-week chart could not be drawn.")
	}
	wb := excel.Sales(excel.About{Title: "Sales of " + f.Date.Format("2 Jan 2006"), Period: excel.Period{From: f.Date, To: f.Date.AddDate(0, 0, 1)},
		MadeFor: "the owners (daily digest)"}, excel.Slice(lines))
	wb.Location = f.Location
	if data, err := excel.Bytes(ctx, wb); err == nil {
		files = append(files, domain.Attachment{Name: excel.FileName("sales", f.Date, f.Location), ContentType: excel.ContentType, Data: data})
	} else {
		notes = append(notes, "The day's sales file could not be made.")
	}
	e := mail(to, subject, opening, strings.Join(notes, " "), tables, drawn)
	e.Attachments = files
	return e
}

// AccountsMail is the dues part for the accounts team.
func AccountsMail(f Facts, to []string) domain.Email {
	subject := fmt.Sprintf("Munshi dues · %s · received %s, due %s", f.Date.Format("Mon 2 Jan 2006"), money(f.Received), money(f.Due))
	return mail(to, subject, AccountsText(f), "", duesTables(f), false)
}
