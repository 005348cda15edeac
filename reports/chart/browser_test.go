package chart

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/munshi/munshi/internal/browsertest"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/media/assets"
)

// TestChartPageInChromium opens each kind of chart page in a real
// headless Chromium, served with the assets handler from 127.0.0.1: the
// canvas is drawn in the series' colour, the tooltip gives exact figures
// with hostile names shown as text, the console stays clean, and no
// request goes anywhere but the test server.
func TestChartPageInChromium(t *testing.T) {
	browser := browsertest.Start(t)

	var mu sync.Mutex
	pages := map[string][]byte{}
	mux := http.NewServeMux()
	mux.Handle(assets.Prefix, assets.Handler())
	mux.HandleFunc("GET /chart/{name}", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		page, ok := pages[r.PathValue("name")]
		mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	server, _ := url.Parse(srv.URL)

	hostile := `<img src=x onerror="window.pwned=1">Rajesh</script>__f__%MY_ECHARTS%`
	cases := []struct {
		name  string
		chart Chart
		// exact is a figure the tooltip of the first category shows.
		exact, category string
	}{
		{"outstanding", Chart{
			Title: "Outstanding by customer · 30 Nov 2026", Kind: HorizontalBar,
			Categories: []Category{{Text: hostile, Fallback: "C01"}, {Text: "राजेश किराना", Fallback: "C02"}, {Text: "Mehta Traders"}},
			Series: []Series{
				MoneySeries("Outstanding", []domain.Paise{123456789, 3500000, 900000}),
				MoneySeries("Credit limit", []domain.Paise{100000000, 5000000, 2000000}).AsMarker(),
			},
		}, "₹12,34,567.89", hostile},
		{"sales", Chart{
			Title: "Sales by day · 1–7 Nov 2026", Caption: "Before GST", Kind: Line,
			Categories: []Category{{Text: "1 Nov"}, {Text: "2 Nov"}, {Text: "3 Nov"}, {Text: "4 Nov"}, {Text: "5 Nov"}, {Text: "6 Nov"}, {Text: "7 Nov"}},
			Series:     []Series{MoneySeries("Sales", []domain.Paise{4550000, 6200050, 3900000, 8100000, 7000000, 2500000, 9900000})},
		}, "₹45,500", "1 Nov"},
		{"weeks", Chart{
			Title: "Sales by week · Nov 2026", Kind: Bar,
			Categories: []Category{{Text: "3 Nov"}, {Text: "10 Nov"}, {Text: "17 Nov"}},
			Series:     []Series{MoneySeries("Sales", []domain.Paise{45000000, 52000000, 38000000})},
		}, "₹4,50,000", "3 Nov"},
		{"stock", Chart{
			Title: "Stock by product · 30 Nov 2026", Kind: Stacked,
			Categories: []Category{{Text: "Glass Cleaner 500ml", Fallback: "GC500"}, {Text: "Phenyl 1L", Fallback: "PH1L"}},
			Series: []Series{
				QuantitySeries("Ready", "bottle", []int64{240000, 1200}),
				QuantitySeries("Committed", "bottle", []int64{600, 900}),
				QuantitySeries("In production", "bottle", []int64{480, 0}),
			},
		}, "2,40,000 bottles", "Glass Cleaner 500ml"},
	}
	for _, tc := range cases {
		page, err := RenderHTML(tc.chart, srv.URL+assets.Prefix)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		mu.Lock()
		pages[tc.name] = page
		mu.Unlock()
	}

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx, report := browsertest.Tab(t, browser)

			if err := chromedp.Do(ctx,
				chromedp.Navigate(srv.URL+"/chart/"+tc.name),
				chromedp.WaitVisible(chromedp.CSS("#"+chartID+" canvas")),
			); err != nil {
				t.Fatalf("open page: %v", err)
			}
			// The first series' bars or line, in its colour, once the
			// opening animation has drawn them.
			ink := cssColor(inks(tc.chart.Series)[0])
			drawn, err := chromedp.Run(ctx, chromedp.Poll[int](inkPixels(ink)+` > 400 && `+inkPixels(ink),
				chromedp.WithPollingTimeout(30*time.Second)))
			if err != nil {
				t.Fatalf("canvas never showed the series in %s: %v", ink, err)
			}
			t.Logf("%d pixels in %s", drawn, ink)

			tip := `echarts.getInstanceByDom(document.getElementById('` + chartID + `')).dispatchAction({type: 'showTip', seriesIndex: 0, dataIndex: 0})`
			if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](tip)); err != nil {
				t.Fatalf("show tooltip: %v", err)
			}
			text, err := chromedp.Run(ctx, chromedp.Poll[string](`(function () { var s = document.getElementById('`+chartID+`').textContent; return s.indexOf('₹') >= 0 || s.indexOf('bottles') >= 0 ? s : ''; })()`,
				chromedp.WithPollingTimeout(15*time.Second)))
			if err != nil {
				t.Fatalf("tooltip: %v", err)
			}
			for _, want := range []string{tc.exact, tc.category} {
				if !strings.Contains(text, want) {
					t.Errorf("tooltip %q does not show %q", text, want)
				}
			}
			pwned, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.pwned === 1`))
			if err != nil || pwned {
				t.Errorf("a category name ran as code (err %v)", err)
			}

			report.Check(t, server.Host)
		})
	}
}

// inkPixels is a script that counts the canvas pixels within a small
// distance of the colour hex ("#rrggbb").
func inkPixels(hex string) string {
	return `(function () {
		var c = document.querySelector('#` + chartID + ` canvas');
		if (!c) { return 0; }
		var d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
		var r = parseInt('` + hex[1:3] + `', 16), g = parseInt('` + hex[3:5] + `', 16), b = parseInt('` + hex[5:7] + `', 16);
		var n = 0;
		for (var i = 0; i < d.length; i += 4) {
			if (d[i + 3] > 200 && Math.abs(d[i] - r) < 12 && Math.abs(d[i + 1] - g) < 12 && Math.abs(d[i + 2] - b) < 12) { n++; }
		}
		return n;
	})()`
}
