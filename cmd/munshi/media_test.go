package main

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/xuri/excelize/v2"

	"github.com/munshi/munshi/internal/browsertest"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/loadtest"
	"github.com/munshi/munshi/internal/redis/redistest"
	"github.com/munshi/munshi/media"
	"github.com/munshi/munshi/media/mediatest"
	"github.com/munshi/munshi/reports"
	"github.com/munshi/munshi/reports/chart"
)

// twimlReply is a TwiML answer: each message's body and media.
type twimlReply struct {
	Bodies []string
	Media  []string
}

// ask posts a signed webhook to m, as Twilio does for a message from
// phone, and reads the TwiML reply.
func ask(t *testing.T, m *Main, sid, from, body string) twimlReply {
	t.Helper()
	d := loadtest.Post(context.Background(), http.DefaultClient, time.Minute, hook(m), messageForm(sid, from, body))
	if !d.OK() {
		t.Fatalf("%q: %v", body, d.Err)
	}
	return twimlReply{Bodies: d.Replies, Media: d.Media}
}

// fetch asks m's own HTTP server for a public link, as Twilio would ask the
// host MUNSHI_PUBLIC_URL names.
func fetch(t *testing.T, m *Main, method, link string) (*http.Response, []byte) {
	t.Helper()
	path, ok := strings.CutPrefix(link, m.Config.PublicURL)
	if !ok {
		t.Fatalf("%s is not under MUNSHI_PUBLIC_URL %s", link, m.Config.PublicURL)
	}
	req, _ := http.NewRequest(method, "http://"+m.Addr()+path, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

var pageLink = regexp.MustCompile(`https?://\S+/media/\S+\.html`)

// TestChartThroughTheWebhook: an owner's chart request is answered with
// TwiML whose <Media> is a link under MUNSHI_PUBLIC_URL; GET and HEAD give
// a PNG of the promised size that is not blank; the caption links the
// interactive page; after MUNSHI_MEDIA_TTL both are 404.
func TestChartThroughTheWebhook(t *testing.T) {
	clk := &testClock{}
	m := startMain(t, newFakeTwilio(t).URL, map[string]string{"MUNSHI_MEDIA_TTL": "20m"}, onClock(clk))
	r := ask(t, m, "SMchart1", demo.OwnerPhone, "last 30 days sales ka chart bhejo")
	if len(r.Media) != 1 || !strings.HasPrefix(r.Media[0], publicURL+"/media/") || !strings.HasSuffix(r.Media[0], ".png") {
		t.Fatalf("reply %+v", r)
	}
	caption := strings.Join(r.Bodies, "\n")
	if !strings.Contains(caption, "Sales last 30 days") || !strings.Contains(caption, "Amount before GST: ₹") {
		t.Fatalf("caption %q", caption)
	}
	resp, body := fetch(t, m, "GET", r.Media[0])
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("GET %d %v", resp.StatusCode, resp.Header)
	}
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if w, h := chart.Size(chart.Line); img.Bounds().Dx() != w || img.Bounds().Dy() != h {
		t.Fatalf("chart %v, want %d×%d", img.Bounds(), w, h)
	}
	if n := mediatest.Colours(img); n < 3 {
		t.Fatalf("the chart is blank (%d colours)", n)
	}
	page := pageLink.FindString(caption)
	if page == "" {
		t.Fatalf("no chart page in %q", caption)
	}
	// The PNG draws the series in the colour its page gives it, which no
	// title or axis is drawn in.
	_, html := fetch(t, m, "GET", page)
	ink := seriesInk.FindSubmatch(html)
	if ink == nil || !saturated(t, string(ink[1])) {
		t.Fatalf("the page gives the series no colour of its own: %q", ink)
	}
	if n := pixelsNear(img, string(ink[1])); n < 500 {
		t.Fatalf("the PNG has %d pixels in the series' %s: no line drawn", n, ink[1])
	}
	head, headBody := fetch(t, m, "HEAD", r.Media[0])
	if head.StatusCode != 200 || head.Header.Get("Content-Type") != "image/png" ||
		head.Header.Get("Content-Length") != strconv.Itoa(len(body)) || len(headBody) != 0 {
		t.Fatalf("HEAD %d %v, %d bytes", head.StatusCode, head.Header, len(headBody))
	}
	if resp, _ := fetch(t, m, "GET", page); resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("page: %d %v", resp.StatusCode, resp.Header)
	}
	// The file made is audited (who, what, period, size).
	entries, err := m.Store.AuditEntries(context.Background(), reports.KindFile)
	if err != nil || len(entries) != 1 || entries[0].Actor != demo.OwnerPhone || entries[0].Detail["period"] != "last_30_days" {
		t.Fatalf("file audit %+v, %v", entries, err)
	}
	clk.Advance(21 * time.Minute)
	for _, link := range []string{r.Media[0], page} {
		if resp, _ := fetch(t, m, "GET", link); resp.StatusCode != 404 {
			t.Fatalf("after the TTL: %d", resp.StatusCode)
		}
	}
}

// TestExcelThroughTheWebhook: the file reopened with excelize holds the
// figures of the tool's answer, with money formats and totals; a
// salesperson asking for it is refused like the text question.
func TestExcelThroughTheWebhook(t *testing.T) {
	m := startMain(t, newFakeTwilio(t).URL, nil)
	ctx := context.Background()
	// Hostile names are written as text.
	hostile := []domain.Customer{
		{ID: "C90", Name: "=cmd|' /C calc'!A0", CreditLimit: 1000000, Outstanding: 1234567, PaymentModes: []domain.PaymentMode{domain.PayCredit}},
		{ID: "C91", Name: "+91 Traders", CreditLimit: 1000000, Outstanding: 99, PaymentModes: []domain.PaymentMode{domain.PayCredit}},
		{ID: "C92", Name: "-Minus Mart", CreditLimit: 1000000, Outstanding: 100, PaymentModes: []domain.PaymentMode{domain.PayCredit}},
		{ID: "C93", Name: "@SUM(A1)", CreditLimit: 1000000, Outstanding: 101, PaymentModes: []domain.PaymentMode{domain.PayCredit}},
	}
	if err := m.Store.UpsertCustomers(ctx, hostile); err != nil {
		t.Fatal(err)
	}
	refused := ask(t, m, "SMxl0", demo.SalesPhone, "outstanding excel mein bhejo")
	if len(refused.Media) != 0 || !strings.Contains(strings.Join(refused.Bodies, ""), "only shared with the owners and the accounts team") {
		t.Fatalf("salesperson: %+v", refused)
	}
	if es, _ := m.Store.AuditEntries(ctx, reports.KindRefusal); len(es) == 0 || es[len(es)-1].Subject != reports.ToolOutstanding {
		t.Fatalf("refusal not audited: %+v", es)
	}

	r := ask(t, m, "SMxl1", demo.OwnerPhone, "outstanding excel mein bhejo")
	if len(r.Media) != 1 || !strings.HasSuffix(r.Media[0], ".xlsx") {
		t.Fatalf("reply %+v", r)
	}
	resp, body := fetch(t, m, "GET", r.Media[0])
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != media.TypeXLSX ||
		!strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("GET %d %v", resp.StatusCode, resp.Header)
	}
	f, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	owner, err := m.Store.UserByPhone(ctx, demo.OwnerPhone)
	if err != nil {
		t.Fatal(err)
	}
	m.Reports.PageRows = reports.MaxRows
	res, err := m.Reports.Call(ctx, owner, reports.ToolOutstanding, nil)
	if err != nil {
		t.Fatal(err)
	}
	dues := res.Report.(*reports.Dues)
	rows, _ := f.GetRows("Outstanding")
	if len(rows) != len(dues.Customers)+2 {
		t.Fatalf("%d rows for %d customers", len(rows), len(dues.Customers))
	}
	money := func(cell string) domain.Paise {
		v, _ := f.GetCellValue("Outstanding", cell, excelize.Options{RawCellValue: true})
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("%s = %q", cell, v)
		}
		return domain.Paise(x*100 + 0.5)
	}
	for i, d := range dues.Customers {
		row := strconv.Itoa(i + 2)
		if got, _ := f.GetCellValue("Outstanding", "A"+row); got != d.Name {
			t.Errorf("A%s = %q, want %q", row, got, d.Name)
		}
		if formula, _ := f.GetCellFormula("Outstanding", "A"+row); formula != "" {
			t.Errorf("A%s is a formula %q", row, formula)
		}
		if got := money("C" + row); got != d.Outstanding {
			t.Errorf("%s owes %v in the file, %v in the answer", d.CustomerID, got, d.Outstanding)
		}
	}
	total := strconv.Itoa(len(dues.Customers) + 2)
	if formula, _ := f.GetCellFormula("Outstanding", "C"+total); !strings.HasPrefix(formula, "SUM(") || money("C"+total) != dues.Totals.Outstanding {
		t.Errorf("total %q = %v, want %v", formula, money("C"+total), dues.Totals.Outstanding)
	}
	style, _ := f.GetCellStyle("Outstanding", "C2")
	if st, err := f.GetStyle(style); err != nil || st.CustomNumFmt == nil || !strings.Contains(*st.CustomNumFmt, "₹") {
		t.Errorf("money format: %+v %v", st, err)
	}
	if !strings.Contains(strings.Join(r.Bodies, ""), "Outstanding: "+dues.Totals.Outstanding.String()) {
		t.Errorf("caption %q lacks the total %s", r.Bodies, dues.Totals.Outstanding)
	}
}

// TestMediaSharedByTwoInstances: a chart made on one instance is served
// by another on the same Redis.
func TestMediaSharedByTwoInstances(t *testing.T) {
	raw := redistest.Need(t)
	env := map[string]string{"REDIS_URL": redistest.URL(), "MUNSHI_REDIS_PREFIX": redistest.Prefix(t, raw)}
	tw := newFakeTwilio(t)
	a, b := startMain(t, tw.URL, env), startMain(t, tw.URL, env)
	r := ask(t, a, "SMshared1", demo.OwnerPhone, "top 5 customers chart last 30 days")
	if len(r.Media) != 1 {
		t.Fatalf("reply %+v", r)
	}
	for _, method := range []string{"GET", "HEAD"} {
		resp, body := fetch(t, b, method, r.Media[0])
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("%s from the other instance: %d %v", method, resp.StatusCode, resp.Header)
		}
		if method == "GET" {
			if _, err := png.Decode(bytes.NewReader(body)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestChartPageInChromium opens the chart page that the real server made
// and serves in a real headless Chromium: the canvas is drawn, the console
// shows no error, and no request leaves the server.
func TestChartPageInChromium(t *testing.T) {
	browser := browsertest.Start(t)
	// The page loads ECharts from MUNSHI_PUBLIC_URL, so the server's own
	// address must be the public one.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	m := startMain(t, newFakeTwilio(t).URL, map[string]string{"MUNSHI_ADDR": addr, "MUNSHI_PUBLIC_URL": "http://" + addr})
	r := ask(t, m, "SMpage1", demo.OwnerPhone, "outstanding by customer chart")
	page := pageLink.FindString(strings.Join(r.Bodies, "\n"))
	if page == "" {
		t.Fatalf("no page link in %+v", r)
	}
	ctx, report := browsertest.Tab(t, browser)
	if err := chromedp.Do(ctx, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS("canvas"))); err != nil {
		t.Fatalf("open page: %v", err)
	}
	// Drawn: the canvas shows the first series' bars in their own colour,
	// which no title, axis or label is drawn in.
	series := `echarts.getInstanceByDom(document.getElementById('munshi_chart')).getOption().series[0]`
	ink, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(function () { var s = `+series+`; return s.type + ' ' + s.itemStyle.color; })()`))
	if err != nil {
		t.Fatalf("the page has no first series: %v", err)
	}
	kind, hex, _ := strings.Cut(ink, " ")
	if kind != "bar" || !saturated(t, hex) {
		t.Fatalf("the first series is %q in %q; want bars in a colour of their own", kind, hex)
	}
	count := `(function () { var c = document.querySelector('#munshi_chart canvas'); var d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
		var r = parseInt('` + hex[1:3] + `', 16), g = parseInt('` + hex[3:5] + `', 16), b = parseInt('` + hex[5:7] + `', 16), n = 0;
		for (var i = 0; i < d.length; i += 4) { if (d[i + 3] > 200 && Math.abs(d[i] - r) < 12 && Math.abs(d[i + 1] - g) < 12 && Math.abs(d[i + 2] - b) < 12) { n++; } } return n; })()`
	drawn, err := chromedp.Run(ctx, chromedp.Poll[int](count+` > 400 && `+count, chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		t.Fatalf("the canvas never showed the series in %s: %v", hex, err)
	}
	t.Logf("%d pixels in the series' %s", drawn, hex)
	report.Check(t, addr)
}

// TestLargeExportFollowsLate: a file that is not ready inside the webhook's
// budget is promised at once and follows through the outbox, with its
// media link.
func TestLargeExportFollowsLate(t *testing.T) {
	tw := newFakeTwilio(t)
	m := startMain(t, tw.URL, map[string]string{"MUNSHI_BUDGET": "1s"})
	slow := make(chan struct{})
	m.Reports.Files = slowShelf{m.Reports.Files, slow}
	r := ask(t, m, "SMlate1", demo.OwnerPhone, "last 30 days sales excel")
	if len(r.Media) != 0 || !strings.Contains(strings.Join(r.Bodies, ""), "Working on it") {
		t.Fatalf("in-budget reply %+v", r)
	}
	close(slow)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for _, f := range tw.Sent() {
			if f.Get("To") == "whatsapp:"+demo.OwnerPhone && strings.HasSuffix(f.Get("MediaUrl"), ".xlsx") {
				if resp, _ := fetch(t, m, "HEAD", f.Get("MediaUrl")); resp.StatusCode != 200 {
					t.Fatalf("late file: %d", resp.StatusCode)
				}
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the file never followed: %v", tw.Sent())
}

// seriesInk finds the first series' colour in a chart page's options.
var seriesInk = regexp.MustCompile(`"series":\[\{[^{}]*?"color":"(#[0-9a-f]{6})"`)

// pixelsNear counts the pixels of img within a small distance of the
// colour hex ("#rrggbb").
func pixelsNear(img image.Image, hex string) int {
	v, _ := strconv.ParseUint(hex[1:], 16, 32)
	want := [3]int{int(v >> 16), int(v >> 8 & 0xff), int(v & 0xff)}
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			got := [3]int{int(r >> 8), int(g >> 8), int(bl >> 8)}
			near := true
			for i := range got {
				near = near && got[i]-want[i] < 16 && want[i]-got[i] < 16
			}
			if near {
				n++
			}
		}
	}
	return n
}

// saturated reports whether hex ("#rrggbb") is a colour rather than a
// grey, black or white, which titles, axes and the background use.
func saturated(t *testing.T, hex string) bool {
	t.Helper()
	if len(hex) != 7 || hex[0] != '#' {
		t.Fatalf("colour %q", hex)
	}
	v, err := strconv.ParseUint(hex[1:], 16, 32)
	if err != nil {
		t.Fatalf("colour %q: %v", hex, err)
	}
	r, g, b := int(v>>16), int(v>>8&0xff), int(v&0xff)
	return max(r, g, b)-min(r, g, b) > 48
}

// slowShelf holds every file until release is closed: an export that
// takes longer than the budget.
type slowShelf struct {
	reports.Shelf
	release chan struct{}
}

func (s slowShelf) Keep(ctx context.Context, name string, body []byte) (string, error) {
	<-s.release
	return s.Shelf.Keep(ctx, name, body)
}
