// Package browsertest starts a real headless Chromium for tests of
// Munshi's chart pages and records what a tab saw: every request it made
// and every console error, exception or failed load. In CI (CI=true) a
// browser that cannot run fails the test; elsewhere it skips.
//
// It is for tests only and imports nothing from Munshi.
package browsertest

import (
	"context"
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
)

// unavailable fails in CI, where the browser must run, and skips
// elsewhere.
func unavailable(t *testing.T, why string) {
	t.Helper()
	msg := "Chromium cannot run (" + why + "); install it with: apt-get install -y chromium"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// Start starts a headless Chromium for the test with flags fit for root on
// a closed network and a fresh profile, and returns its context.
func Start(t *testing.T) context.Context {
	t.Helper()
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		unavailable(t, "not on PATH")
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
			unavailable(t, err.Error())
		}
	case <-time.After(60 * time.Second):
		unavailable(t, "it did not start within a minute")
	}
	return ctx
}

// Report is what a tab saw while showing a page. Listen to a tab with
// chromedp.Listen(tab, report.Listen).
type Report struct {
	mu       sync.Mutex
	requests []string
	problems []string
}

// Listen records one event of the tab.
func (r *Report) Listen(ev any) {
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

// Check fails the test for every problem the tab reported and for every
// request that went anywhere but host (host:port, on 127.0.0.1).
func (r *Report) Check(t *testing.T, host string) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range r.problems {
		t.Errorf("page reported %s", p)
	}
	if len(r.requests) == 0 {
		t.Fatal("saw no requests at all; the listener is not working")
	}
	for _, req := range r.requests {
		u, err := url.Parse(req)
		if err != nil || u.Host != host || u.Hostname() != "127.0.0.1" {
			t.Errorf("request left the test server: %s", req)
		}
	}
}

// Tab opens a tab of browser that reports what it sees, for at most 45
// seconds; it is closed when the test ends.
func Tab(t *testing.T, browser context.Context) (context.Context, *Report) {
	t.Helper()
	tab, closeTab := chromedp.NewContext(browser)
	report := &Report{}
	if err := chromedp.Listen(tab, report.Listen); err != nil {
		closeTab()
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(tab, 45*time.Second)
	t.Cleanup(func() { cancel(); closeTab() })
	return ctx, report
}
