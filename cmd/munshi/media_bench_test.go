package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"path/filepath"
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
	cached, err := reportstest.Cached(context.Background(), reportstest.Large)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "munshi.db")
	if err := reportstest.CopyTo(cached, path); err != nil {
		b.Fatal(err)
	}
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
// every customer who owes, paged from the books into the file.
func BenchmarkOutstandingExcelLarge(b *testing.B) {
	benchMessages(b, largeMain(b), demo.OwnerPhone, "outstanding excel mein bhejo",
		want{has: []string{"📎 *Who owes us*", "The Excel file is attached"}, file: &wantFile{
			ext: ".xlsx", contentType: media.TypeXLSX, check: func(body []byte) error {
				rows, err := xlsxRows(body)
				if err == nil && rows < 2 {
					err = fmt.Errorf("%d rows", rows)
				}
				return err
			}}})
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

// xlsxRows counts the rows of an xlsx file's first sheet, streaming.
func xlsxRows(body []byte) (int, error) {
	f, err := excelize.OpenReader(bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	rows, err := f.Rows(f.GetSheetName(0))
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	return n, rows.Error()
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
