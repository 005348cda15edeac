package reports_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/media"
	"github.com/munshi/munshi/media/mediatest"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/chart"
)

const shelfBase = "https://munshi.example.com"

// shelf keeps files in a real in-process media store, linked as Munshi
// links them.
type shelf struct{ store *media.InProcess }

func (s shelf) Keep(ctx context.Context, name string, body []byte) (string, error) {
	id, err := s.store.Put(ctx, media.File{Name: name, Body: body})
	if err != nil {
		return "", err
	}
	return media.URL(shelfBase, id, name), nil
}

// fetch reads back the file a link names.
func (s shelf) fetch(t *testing.T, link string) media.File {
	t.Helper()
	rest, ok := strings.CutPrefix(link, shelfBase+"/media/")
	if !ok {
		t.Fatalf("link %q is not under %s/media/", link, shelfBase)
	}
	id, _, _ := strings.Cut(rest, "/")
	f, err := s.store.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("%s: %v", link, err)
	}
	return f
}

func withShelf(t *testing.T, b *books) shelf {
	s := shelf{media.NewInProcess(media.Options{})}
	b.tools.Files, b.tools.AssetsHost = s, shelfBase+"/assets/"
	return s
}

// askFor routes text and answers it as Munshi does, file and all.
func (b *books) askFor(t *testing.T, user domain.User, text string) domain.Reply {
	t.Helper()
	d := b.router.Route(context.Background(), text)
	call, ok := b.tools.Plan(d)
	if !ok {
		t.Fatalf("%q: no plan (%s)", text, d.Intent)
	}
	reply, _ := b.tools.ReplyKeys(context.Background(), user, call)
	return reply
}

func TestSalesChart(t *testing.T) {
	b := knownBooks(t)
	s := withShelf(t, b)
	reply := b.askFor(t, owner, "last 30 days sales ka chart bhejo")
	if len(reply.MediaURLs) != 1 || !strings.HasSuffix(reply.MediaURLs[0], "/sales-2026-02-13-to-2026-03-14.png") {
		t.Fatalf("media = %q\n%s", reply.MediaURLs, reply.Text)
	}
	// The caption carries the same totals as the text answer.
	text := b.ask(t, owner, "last 30 days sales by day")
	wantContains(t, text, "₹44,040")
	wantContains(t, reply.Text, "Sales last 30 days", "by day", "Amount before GST: ₹44,040", "Orders: 4", "GST: ₹7,351.20",
		"Open the interactive chart: "+shelfBase+"/media/")
	f := s.fetch(t, reply.MediaURLs[0])
	img, err := png.Decode(bytes.NewReader(f.Body))
	if err != nil {
		t.Fatal(err)
	}
	if w, h := chart.Size(chart.Line); img.Bounds().Dx() != w || img.Bounds().Dy() != h {
		t.Fatalf("chart is %v, want %d×%d", img.Bounds(), w, h)
	}
	if mediatest.Colours(img) < 3 {
		t.Fatal("the chart is blank")
	}
	// The page links to the chart page, which loads ECharts from Munshi.
	link := reply.Text[strings.LastIndex(reply.Text, shelfBase+"/media/"):]
	page := s.fetch(t, strings.TrimSpace(link))
	if page.ContentType != media.TypeHTML || !bytes.Contains(page.Body, []byte(shelfBase+"/assets/")) {
		t.Fatalf("page %s:\n%.300s", page.ContentType, page.Body)
	}
	// Audited: who, what, period, size.
	files := b.audits(t, reports.KindFile)
	if len(files) != 1 {
		t.Fatalf("%d file audit entries", len(files))
	}
	d := files[0].Detail
	if files[0].Actor != owner.Phone || d["format"] != "chart" || d["period"] != "last_30_days" || d["from"] != "2026-02-13" ||
		d["to"] != "2026-03-14" || !strings.Contains(d["files"].(string), ".png") || d["bytes"].(float64) < float64(len(f.Body)) {
		t.Fatalf("audit = %+v", files[0])
	}
}

func TestChartsOfEachKind(t *testing.T) {
	b := knownBooks(t)
	s := withShelf(t, b)
	for _, tt := range []struct {
		text, caption string
		kind          chart.Kind
	}{
		{"top 10 customers chart last 30 days", "Top customers last 30 days", chart.HorizontalBar},
		{"last 30 days sales by product graph", "Sales last 30 days", chart.HorizontalBar},
		{"outstanding by customer chart", "Who owes us", chart.HorizontalBar},
		{"stock chart", "Stock", chart.Stacked},
		{"pichle hafte ki sales ka graf", "Sales last week", chart.Bar},
	} {
		reply := b.askFor(t, owner, tt.text)
		if len(reply.MediaURLs) != 1 {
			t.Errorf("%q: no chart:\n%s", tt.text, reply.Text)
			continue
		}
		wantContains(t, reply.Text, tt.caption)
		img, err := png.DecodeConfig(bytes.NewReader(s.fetch(t, reply.MediaURLs[0]).Body))
		if w, h := chart.Size(tt.kind); err != nil || img.Width != w || img.Height != h {
			t.Errorf("%q: %d×%d (%v), want a %s chart of %d×%d", tt.text, img.Width, img.Height, err, tt.kind, w, h)
		}
	}
}

// A period with no sales is a sentence, never an empty chart or file.
func TestNoSalesIsASentence(t *testing.T) {
	b := knownBooks(t)
	withShelf(t, b)
	for _, format := range []string{"chart", "excel"} {
		reply := b.askFor(t, owner, "Mehta ki sales "+format)
		if len(reply.MediaURLs) != 0 || !strings.HasPrefix(reply.Text, "No sales this month") {
			t.Errorf("%s of no sales: %q %q", format, reply.Text, reply.MediaURLs)
		}
	}
	if n := len(b.audits(t, reports.KindFile)); n != 0 {
		t.Fatalf("%d files audited for no file", n)
	}
}

// openXLSX reopens a file with excelize.
func openXLSX(t *testing.T, body []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// paiseAt reads a money cell as paise.
func paiseAt(t *testing.T, f *excelize.File, sheet, cell string) domain.Paise {
	t.Helper()
	v, err := f.GetCellValue(sheet, cell, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t.Fatalf("%s!%s = %q, not a number", sheet, cell, v)
	}
	return domain.Paise(x*100 + 0.5)
}

func TestOutstandingExcel(t *testing.T) {
	b := knownBooks(t)
	s := withShelf(t, b)
	// A hostile name: a customer who owes, named like a formula.
	if err := b.store.UpsertCustomers(context.Background(), []domain.Customer{{ID: "C09", Name: "=HYPERLINK(\"http://x.example\",\"pay\")",
		CreditLimit: 1000000, Outstanding: 500050, PaymentModes: []domain.PaymentMode{domain.PayCredit}}}); err != nil {
		t.Fatal(err)
	}
	reply := b.askFor(t, owner, "outstanding excel mein bhejo")
	if len(reply.MediaURLs) != 1 || !strings.HasSuffix(reply.MediaURLs[0], "/outstanding-2026-03-14.xlsx") {
		t.Fatalf("media = %q\n%s", reply.MediaURLs, reply.Text)
	}
	res := b.call(t, owner, reports.ToolOutstanding, nil)
	due := res.Report.(*reports.Dues)
	wantContains(t, reply.Text, "Outstanding: "+due.Totals.Outstanding.String(), "Customers: 3", "3 rows")
	file := s.fetch(t, reply.MediaURLs[0])
	if file.ContentType != media.TypeXLSX {
		t.Fatalf("content type %q", file.ContentType)
	}
	f := openXLSX(t, file.Body)
	rows, err := f.GetRows("Outstanding")
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+len(due.Customers)+1 {
		t.Fatalf("%d rows, want header, %d customers and totals: %q", len(rows), len(due.Customers), rows)
	}
	// Every customer's figures are the tool's, in its order.
	for i, d := range due.Customers {
		r := strconv.Itoa(i + 2)
		if rows[i+1][0] != d.Name || rows[i+1][1] != d.CustomerID {
			t.Errorf("row %s = %q, want %s %s", r, rows[i+1], d.Name, d.CustomerID)
		}
		if got := paiseAt(t, f, "Outstanding", "C"+r); got != d.Outstanding {
			t.Errorf("%s outstanding %v, want %v", d.CustomerID, got, d.Outstanding)
		}
		if got := paiseAt(t, f, "Outstanding", "D"+r); got != d.CreditLimit {
			t.Errorf("%s limit %v, want %v", d.CustomerID, got, d.CreditLimit)
		}
	}
	total := strconv.Itoa(len(due.Customers) + 2)
	if formula, _ := f.GetCellFormula("Outstanding", "C"+total); !strings.HasPrefix(formula, "SUM(") {
		t.Errorf("totals formula %q", formula)
	}
	if got := paiseAt(t, f, "Outstanding", "C"+total); got != due.Totals.Outstanding {
		t.Errorf("total %v, want %v", got, due.Totals.Outstanding)
	}
	style, _ := f.GetCellStyle("Outstanding", "C2")
	if st, err := f.GetStyle(style); err != nil || st.CustomNumFmt == nil || !strings.Contains(*st.CustomNumFmt, "₹") {
		t.Errorf("money format of C2: %+v, %v", st, err)
	}
	// The hostile name is text, not a formula.
	for i, d := range due.Customers {
		if d.CustomerID != "C09" {
			continue
		}
		cell := "A" + strconv.Itoa(i+2)
		if formula, _ := f.GetCellFormula("Outstanding", cell); formula != "" {
			t.Errorf("%s is a formula: %q", cell, formula)
		}
		if v, _ := f.GetCellValue("Outstanding", cell); v != d.Name {
			t.Errorf("%s = %q, want the name as text", cell, v)
		}
	}
}

func TestSalesExcelMatchesTheSummary(t *testing.T) {
	b := knownBooks(t)
	s := withShelf(t, b)
	reply := b.askFor(t, accounts, "last 30 days sales excel")
	if len(reply.MediaURLs) != 1 {
		t.Fatalf("no file:\n%s", reply.Text)
	}
	f := openXLSX(t, s.fetch(t, reply.MediaURLs[0]).Body)
	if got := strings.Join(f.GetSheetList(), "|"); got != "Sales lines|By product|By customer|About" {
		t.Fatalf("sheets %q", got)
	}
	rows, _ := f.GetRows("Sales lines")
	if len(rows) != 1+5+1 { // header, the 5 order lines of reportstest.Known, totals
		t.Fatalf("sales lines: %q", rows)
	}
	// The lines add up to the tool's answer, to the paisa.
	if got := paiseAt(t, f, "Sales lines", "I7"); got != 4404000 {
		t.Errorf("amount total %v, want ₹44,040", got)
	}
	if got := paiseAt(t, f, "Sales lines", "K7"); got != 735120 {
		t.Errorf("GST total %v, want ₹7,351.20", got)
	}
	products, _ := f.GetRows("By product")
	if len(products) != 1+3+1 || products[1][0] != "PH1L" {
		t.Fatalf("by product: %q", products)
	}
	wantContains(t, reply.Text, "Amount before GST: ₹44,040", "5 rows")
}

// A salesperson asking for the dues file is refused like the text
// question, and the refusal is audited.
func TestSalespersonRefusedOutstandingExcel(t *testing.T) {
	b := knownBooks(t)
	withShelf(t, b)
	reply := b.askFor(t, sales, "outstanding excel mein bhejo")
	if len(reply.MediaURLs) != 0 || reply.Text != reports.Refusal(sales, reports.ToolOutstanding) {
		t.Fatalf("reply %q %q", reply.Text, reply.MediaURLs)
	}
	refusals := b.audits(t, reports.KindRefusal)
	if len(refusals) != 1 || refusals[0].Subject != reports.ToolOutstanding || refusals[0].Actor != sales.Phone {
		t.Fatalf("refusals = %+v", refusals)
	}
	if n := len(b.audits(t, reports.KindFile)); n != 0 {
		t.Fatalf("%d files audited", n)
	}
	// Their own pending orders they may have as a file: only theirs.
	reply = b.askFor(t, sales, "pending orders ki sheet")
	if len(reply.MediaURLs) != 1 {
		t.Fatalf("pending orders sheet: %q", reply.Text)
	}
	wantContains(t, reply.Text, "Your pending orders", "2 rows")
}

// Without a shelf every question is answered in text.
func TestNoShelfAnswersInText(t *testing.T) {
	b := knownBooks(t)
	d := b.router.Route(context.Background(), "outstanding excel mein bhejo")
	call, _ := b.tools.Plan(d)
	reply, _ := b.tools.ReplyKeys(context.Background(), owner, call)
	if len(reply.MediaURLs) != 0 || !strings.Contains(reply.Text, "Who owes us") {
		t.Fatalf("reply %q", reply.Text)
	}
}

// TestStockChartShowsWhatMatters: the catalog's stock chart shows the
// products that need attention, not the first ten by name: the one out of
// stock first, then the fewest days of the last 28 days' sales; the caption
// says how many are left out. The order is worked out here from the demo's
// own history.
func TestStockChartShowsWhatMatters(t *testing.T) {
	now := time.Date(2026, 12, 1, 4, 30, 0, 0, time.UTC) // 10:00 in Kolkata, on the 1st
	b := demoBooksAt(t, now)
	s := withShelf(t, b)
	products, customers, users, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	history, _ := demo.History(products, customers, users, now)
	loc := domain.DefaultLocation()
	from := time.Date(2026, 11, 4, 0, 0, 0, 0, loc) // 28 days to today
	held, sold := map[string]int64{}, map[string]int64{}
	for _, o := range history {
		for _, l := range o.Lines {
			if o.Status == domain.OrderCommitted {
				held[l.SKU] += l.Qty
			}
			if (o.Status == domain.OrderCommitted || o.Status == domain.OrderDelivered) && !o.CreatedAt.Before(from) {
				sold[l.SKU] += l.Qty
			}
		}
	}
	// Days of cover: what is available over a day's sales; out of stock
	// is below every cover, a product that did not sell above.
	cover := func(p domain.Product) float64 {
		switch a := p.StockReady - held[p.SKU]; {
		case a <= 0:
			return -1 / (1 + float64(sold[p.SKU]))
		case sold[p.SKU] == 0:
			return math.Inf(1)
		default:
			return float64(a) / (float64(sold[p.SKU]) / reports.CoverDays)
		}
	}
	slices.SortStableFunc(products, func(x, y domain.Product) int { return cmp.Compare(cover(x), cover(y)) })
	if cover(products[0]) >= 0 || products[0].SKU != "NB100" {
		t.Fatalf("the demo should have Naphthalene Balls out of stock: %s first", products[0].SKU)
	}

	reply := b.askFor(t, owner, "stock chart")
	wantContains(t, reply.Text, "📈 *Stock · 1 Dec 2026*")
	want := fmt.Sprintf("10 of %d products (%d left out): out of stock first, then the fewest days of sales left. Ask for a product by name for the rest.",
		len(products), len(products)-10)
	if len(reply.MediaURLs) != 1 || !strings.Contains(reply.Text, want) {
		t.Fatalf("reply %q %v, want the caption %q", reply.Text, reply.MediaURLs, want)
	}
	page := s.fetch(t, pageLink.FindString(reply.Text))
	shown := chartCategories(t, page.Body)
	var names []string
	for _, p := range products[:10] {
		names = append(names, p.Name)
	}
	if !slices.Equal(shown, names) {
		t.Fatalf("the chart shows %q, want %q", shown, names)
	}
}

var pageLink = regexp.MustCompile(`https?://\S+/media/\S+\.html`)

// chartCategories reads a chart page's categories, in the order drawn.
func chartCategories(t *testing.T, page []byte) []string {
	t.Helper()
	m := regexp.MustCompile(`"c":(\[[^\]]*\])`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("no categories in the page:\n%.400s", page)
	}
	var out []string
	if err := json.Unmarshal(m[1], &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAdvanceIsNotADue: a customer who paid more than they owed (a
// negative outstanding in the books) reads as an advance, in the answer
// and in the Excel file, never as a due with a minus sign.
func TestAdvanceIsNotADue(t *testing.T) {
	b := knownBooks(t)
	s := withShelf(t, b)
	if err := b.store.UpsertCustomers(context.Background(), []domain.Customer{{ID: "C10", Name: "Anand Stores",
		CreditLimit: 5000000, Outstanding: -8000000, PaymentModes: []domain.PaymentMode{domain.PayCredit}}}); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"customer": "C10"}
	text := b.call(t, accounts, reports.ToolOutstanding, args).Text
	wantText(t, text, "*Anand Stores* (C10)\nAdvance: ₹80,000, paid ahead of the next bills.\nCredit limit: ₹50,000")
	reply, _ := b.tools.ReplyKeys(context.Background(), accounts, reports.Call{Tool: reports.ToolOutstanding, Args: args, Format: intent.FormatExcel})
	if len(reply.MediaURLs) != 1 || !strings.HasSuffix(reply.MediaURLs[0], "/outstanding-2026-03-14.xlsx") {
		t.Fatalf("media = %q\n%s", reply.MediaURLs, reply.Text)
	}
	f := openXLSX(t, s.fetch(t, reply.MediaURLs[0]).Body)
	if note, _ := f.GetCellValue("Outstanding", "I2"); note != "Paid ₹80,000 in advance (shown as a negative outstanding)." {
		t.Errorf("the note of an advance is %q", note)
	}
}
