package chart

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/media/assets"
)

// chromiumUnavailable fails in CI, where the browser must run, and skips
// elsewhere.
func chromiumUnavailable(t *testing.T, why string) {
	t.Helper()
	msg := "Chromium cannot run (" + why + "); install it with: apt-get install -y chromium"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// startChromium starts a headless Chromium for the test with flags fit for
// root on a closed network, and returns its context.
func startChromium(t *testing.T) context.Context {
	t.Helper()
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		chromiumUnavailable(t, "not on PATH")
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// The first action starts the browser; it must not carry a timeout.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(ctx) }()
	select {
	case err := <-started:
		if err != nil {
			chromiumUnavailable(t, err.Error())
		}
	case <-time.After(60 * time.Second):
		chromiumUnavailable(t, "it did not start within a minute")
	}
	return ctx
}

// pageReport is what a tab saw while showing a page.
type pageReport struct {
	mu       sync.Mutex
	requests []string
	problems []string
}

func (r *pageReport) listen(ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		r.requests = append(r.requests, ev.Request.URL)
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				args = append(args, string(a.Value)+a.Description)
			}
			r.problems = append(r.problems, "console."+string(ev.Type)+": "+strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		r.problems = append(r.problems, "exception: "+msg)
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError {
			r.problems = append(r.problems, "log "+string(ev.Entry.Level)+": "+ev.Entry.Text+" "+ev.Entry.URL)
		}
	case *network.EventLoadingFailed:
		r.problems = append(r.problems, "loading failed: "+ev.ErrorText)
	}
}

// TestChartPageInChromium opens each kind of chart page in a real
// headless Chromium, served with the assets handler from 127.0.0.1: the
// canvas is drawn in the series' colour, the tooltip gives exact figures
// with hostile names shown as text, the console stays clean, and no
// request goes anywhere but the test server.
func TestChartPageInChromium(t *testing.T) {
	browser := startChromium(t)

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
			tab, closeTab := chromedp.NewContext(browser)
			defer closeTab()
			report := &pageReport{}
			if err := chromedp.Listen(tab, report.listen); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(tab, 45*time.Second)
			defer cancel()

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

			report.mu.Lock()
			defer report.mu.Unlock()
			for _, p := range report.problems {
				t.Errorf("page reported %s", p)
			}
			if len(report.requests) == 0 {
				t.Fatal("saw no requests at all; the listener is not working")
			}
			for _, r := range report.requests {
				u, err := url.Parse(r)
				if err != nil || u.Host != server.Host || u.Hostname() != "127.0.0.1" {
					t.Errorf("request left the test server: %s", r)
				}
			}
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
