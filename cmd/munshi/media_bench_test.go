package main

import (
	"bytes"
	"database/sql"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/media"
	"github.com/munshi/munshi/reports/chart"
	"github.com/munshi/munshi/reports/reportstest"
)

// largeMain runs the whole program over a copy of the generated books of
// 10,000 SKUs and 500,000 order lines (reportstest.Large), with the books
// and the tools at reportstest.Now so that periods hold sales.
func largeMain(b *testing.B) *Main {
	path := reportstest.PrivateCopy(b, reportstest.Large)
	at := func() time.Time { return reportstest.Now }
	return startMain(b, newFakeTwilio(b).URL, map[string]string{"MUNSHI_DB": path}, func(m *Main) {
		m.Now, m.Reports.Now = at, at
	})
}

// BenchmarkChartRoundTripLarge is an owner's "send me the sales trend"
// through the webhook at the 10,000-SKU / 500,000-line scale: routing,
// the sales tool's SQL, the PNG and the HTML page drawn and stored, the
// audit entries and the TwiML with its <Media>. Target: under 300 ms.
func BenchmarkChartRoundTripLarge(b *testing.B) {
	benchMessages(b, largeMain(b), demo.OwnerPhone, "last 30 days sales ka chart bhejo",
		want{has: []string{"📈 *Sales last 30 days", "by day", "Open the interactive chart"}, file: pngChart(chart.Line)})
}

// BenchmarkTopCustomersChartLarge: "top 10 customers chart" at the same
// scale, bars of 2,000 customers' sales this month.
func BenchmarkTopCustomersChartLarge(b *testing.B) {
	benchMessages(b, largeMain(b), demo.OwnerPhone, "top 10 customers chart",
		want{has: []string{"📈 *Top customers this month", "Open the interactive chart"}, file: pngChart(chart.HorizontalBar)})
}

// BenchmarkOutstandingExcelLarge: "outstanding excel" at the same scale,
// every customer who owes, paged from the books into the file. Each file
// must list exactly the customers the books' own SQL says owe.
func BenchmarkOutstandingExcelLarge(b *testing.B) {
	m := largeMain(b)
	owing := owingCustomers(b, m)
	benchMessages(b, m, demo.OwnerPhone, "outstanding excel mein bhejo",
		want{has: []string{"📎 *Who owes us*", "The Excel file is attached"}, file: &wantFile{
			ext: ".xlsx", contentType: media.TypeXLSX, check: func(body []byte) error {
				listed, err := xlsxColumn(body, 1)
				if err != nil {
					return err
				}
				if fmt.Sprint(listed) != fmt.Sprint(owing) {
					return fmt.Errorf("the file lists %d customer IDs, the books have %d customers who owe", len(listed), len(owing))
				}
				return nil
			}}})
}

// owingCustomers reads, with SQL of its own, the IDs of the customers who
// owe, as a set.
func owingCustomers(b *testing.B, m *Main) map[string]int {
	db, err := sql.Open("sqlite3", "file:"+m.Config.DB+"?mode=ro")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT id FROM customers WHERE outstanding_paise > 0`)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	ids := map[string]int{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			b.Fatal(err)
		}
		ids[id]++
	}
	if err := rows.Err(); err != nil || len(ids) == 0 {
		b.Fatalf("%d customers owe: %v", len(ids), err)
	}
	return ids
}

// wantFile is what a reply's one <Media> link must serve: a name ending,
// the exact content type, and bytes that check reads as that kind of file.
type wantFile struct {
	ext, contentType string
	check            func(body []byte) error
}

// pngChart is a PNG of the size charts of kind k are drawn at.
func pngChart(k chart.Kind) *wantFile {
	return &wantFile{ext: ".png", contentType: media.TypePNG, check: func(body []byte) error {
		cfg, err := png.DecodeConfig(bytes.NewReader(body))
		if err != nil {
			return err
		}
		if w, h := chart.Size(k); cfg.Width != w || cfg.Height != h {
			return fmt.Errorf("a %d×%d PNG, want %d×%d", cfg.Width, cfg.Height, w, h)
		}
		return nil
	}}
}

// xlsxColumn reads column col (from 0) of an xlsx file's first sheet,
// streaming, and counts each value in it but the header's and the totals
// row's.
func xlsxColumn(body []byte, col int) (map[string]int, error) {
	f, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := f.Rows(f.GetSheetName(0))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	seen := map[string]int{}
	for rows.Next() {
		cells, err := rows.Columns()
		if err != nil {
			return nil, err
		}
		if len(cells) > col && cells[col] != "" && cells[col] != "Customer ID" && !strings.HasPrefix(cells[col], "Total") {
			seen[cells[col]]++
		}
	}
	return seen, rows.Error()
}

// checkMedia fetches the reply's file from Munshi's /media endpoint, as
// Twilio does, and checks it is the file w wants; a reply that wants no
// file must carry none.
func (w want) checkMedia(b *testing.B, client *http.Client, m *Main, text string, links []string) {
	if w.file == nil {
		if len(links) != 0 {
			b.Fatalf("%q: the reply carries %v", text, links)
		}
		return
	}
	if len(links) != 1 || !strings.HasSuffix(links[0], w.file.ext) {
		b.Fatalf("%q: media %v, want one %s", text, links, w.file.ext)
	}
	path, ok := strings.CutPrefix(links[0], publicURL)
	if !ok {
		b.Fatalf("%q: %s is not under MUNSHI_PUBLIC_URL", text, links[0])
	}
	resp, err := client.Get("http://" + m.Addr() + path)
	if err != nil {
		b.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != w.file.contentType {
		b.Fatalf("%q: GET %s: %d %q, %v", text, links[0], resp.StatusCode, resp.Header.Get("Content-Type"), err)
	}
	if err := w.file.check(body); err != nil {
		b.Fatalf("%q: %s is not the file promised: %v", text, links[0], err)
	}
}

// BenchmarkStockChartLarge: "stock chart" over 10,000 SKUs: every
// product's stock and four weeks of sales by product read to rank them,
// the ten that need attention drawn.
func BenchmarkStockChartLarge(b *testing.B) {
	benchMessages(b, largeMain(b), demo.OwnerPhone, "stock chart",
		want{has: []string{"📈 *Stock · 14 Mar 2026", "10 of 10,000 products (9,990 left out)", "Open the interactive chart"}, file: pngChart(chart.Stacked)})
}
