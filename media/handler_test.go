package media_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/media"
	"github.com/munshi/munshi/media/mediatest"
)

// site is a mux with the media routes over an in-process store on a fake
// clock, logging at debug level into a buffer.
type site struct {
	mux   *http.ServeMux
	store *media.InProcess
	clock *clocktest.Clock
	logs  *bytes.Buffer
}

func newSite(t testing.TB) *site {
	c := clocktest.At(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	s := &site{mux: http.NewServeMux(), store: media.NewInProcess(media.Options{Now: c.Now}), clock: c, logs: &bytes.Buffer{}}
	logger := slog.New(slog.NewTextHandler(s.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	(&media.Handler{Store: s.store, Logger: logger, Now: c.Now}).Register(s.mux)
	return s
}

func (s *site) do(method, target string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	s.mux.ServeHTTP(rec, httptest.NewRequest(method, target, nil))
	return rec
}

func TestHeadersOfEachKind(t *testing.T) {
	s := newSite(t)
	page := mediatest.Page()
	sum := sha256.Sum256([]byte(mediatest.Script))
	scriptHash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	cases := []struct {
		name, contentType, disposition string
		body                           []byte
	}{
		{"sales-trend.png", media.TypePNG, `inline; filename="sales-trend.png"`, mediatest.PNG(20, 10)},
		{"sales-trend.html", media.TypeHTML, `inline; filename="sales-trend.html"`, page},
		{"outstanding-2026-11-30.xlsx", media.TypeXLSX, `attachment; filename="outstanding-2026-11-30.xlsx"`, mediatest.XLSX(1000)},
	}
	for _, c := range cases {
		id := put(t, s.store, c.name, c.body)
		s.clock.Advance(20 * time.Minute) // 40 minutes left
		for _, target := range []string{"/media/" + id, "/media/" + id + "/" + c.name} {
			rec := s.do("GET", target)
			h := rec.Header()
			if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), c.body) {
				t.Fatalf("GET %s: %d, %d bytes", c.name, rec.Code, rec.Body.Len())
			}
			want := map[string]string{
				"Content-Type": c.contentType, "Content-Length": strconv.Itoa(len(c.body)), "X-Content-Type-Options": "nosniff",
				"Cache-Control": "private, max-age=2400", "Content-Disposition": c.disposition, "Referrer-Policy": "no-referrer",
			}
			for k, v := range want {
				if got := h.Get(k); got != v {
					t.Errorf("%s %s: %s = %q, want %q", c.name, target[len(target)-5:], k, got, v)
				}
			}
			csp := h.Get("Content-Security-Policy")
			if c.contentType != media.TypeHTML {
				if csp != "" {
					t.Errorf("%s has a CSP: %q", c.name, csp)
				}
				continue
			}
			for _, d := range []string{"default-src 'none'", "script-src 'self' " + scriptHash, "connect-src 'none'", "img-src data:",
				"base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'", "style-src 'self' 'unsafe-inline'"} {
				if !strings.Contains(csp, d) {
					t.Errorf("CSP %q lacks %q", csp, d)
				}
			}
			if script := directive(csp, "script-src"); script != "script-src 'self' "+scriptHash {
				t.Errorf("CSP's scripts: %q, want only Munshi's own and the page's inline script", script)
			}
		}
	}
}

// directive returns the directive of a CSP that starts with name.
func directive(csp, name string) string {
	for _, d := range strings.Split(csp, "; ") {
		if strings.HasPrefix(d, name+" ") {
			return d
		}
	}
	return ""
}

// TestHEADGivesHeadersWithoutBody compares HEAD with GET over real HTTP,
// where the server could drop a Content-Length no body follows.
func TestHEADGivesHeadersWithoutBody(t *testing.T) {
	s := newSite(t)
	srv := httptest.NewServer(s.mux)
	defer srv.Close()
	for _, name := range []string{"a.png", "b.html", "c.xlsx"} {
		body := map[string][]byte{"a.png": mediatest.PNG(30, 30), "b.html": mediatest.Page(), "c.xlsx": mediatest.XLSX(2000)}[name]
		link := media.URL(srv.URL, put(t, s.store, name, body), name)
		get, err := http.Get(link)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, get.Body)
		get.Body.Close()
		head, err := http.Head(link)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(head.Body)
		head.Body.Close()
		if head.StatusCode != 200 || len(got) != 0 || head.ContentLength != int64(len(body)) {
			t.Errorf("HEAD %s: %d, %d body bytes, Content-Length %d; want 200, 0, %d", name, head.StatusCode, len(got), head.ContentLength, len(body))
		}
		for _, k := range []string{"Content-Type", "Content-Length", "Cache-Control", "Content-Disposition", "Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"} {
			if head.Header.Get(k) != get.Header.Get(k) {
				t.Errorf("HEAD %s: %s = %q, GET gave %q", name, k, head.Header.Get(k), get.Header.Get(k))
			}
		}
	}
}

// notFound checks a 404 that says nothing but that.
func notFound(t *testing.T, rec *httptest.ResponseRecorder, what string) {
	t.Helper()
	if rec.Code != 404 || rec.Body.String() != "not found\n" && rec.Body.String() != "404 page not found\n" {
		t.Errorf("%s: %d %q, want a plain 404", what, rec.Code, rec.Body.String())
	}
}

func TestNotFound(t *testing.T) {
	s := newSite(t)
	id := put(t, s.store, "outstanding-2026-11-30.xlsx", mediatest.XLSX(100))
	notFound(t, s.do("GET", "/media/"+media.NewID()), "unknown id")
	notFound(t, s.do("HEAD", "/media/"+media.NewID()+"/outstanding-2026-11-30.xlsx"), "unknown id, HEAD")
	for _, name := range []string{"report.xlsx", "OUTSTANDING-2026-11-30.xlsx", "outstanding-2026-11-30.png", "outstanding-2026-11-30.xlsx.exe",
		"outstanding-2026-11-30.xlsx%00", "%2e%2e", "outstanding%2F2026-11-30.xlsx", "outstanding-2026-11-30.xlsx/more"} {
		notFound(t, s.do("GET", "/media/"+id+"/"+name), "renamed link "+name)
	}
	for _, bad := range []string{strings.ToLower(id), id[:25], id + "A", id[:25] + "1", id[:25] + "%2F", "%2e%2e", ""} {
		notFound(t, s.do("GET", "/media/"+bad), "malformed id "+bad)
	}
	// Escaping the id's characters names the same resource, and serves it.
	if rec := s.do("GET", "/media/"+escapeAll(id)); rec.Code != 200 {
		t.Errorf("escaped id: %d", rec.Code)
	}
	s.clock.Advance(time.Hour)
	notFound(t, s.do("GET", "/media/"+id), "expired file")
	for _, rec := range []*httptest.ResponseRecorder{s.do("GET", "/media/"+id), s.do("GET", "/media/x")} {
		if rec.Header().Get("Cache-Control") != "no-store" || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("404 headers %v", rec.Header())
		}
	}
}

// escapeAll percent-escapes every byte of s.
func escapeAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(s[i])+0x100, 16)[1:]))
	}
	return b.String()
}

func TestOtherMethodsAre405(t *testing.T) {
	s := newSite(t)
	id := put(t, s.store, "a.png", mediatest.PNG(4, 4))
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"} {
		for _, target := range []string{"/media/" + id, "/media/" + id + "/a.png", "/media/" + media.NewID()} {
			rec := s.do(m, target)
			if rec.Code != 405 || rec.Header().Get("Allow") != "GET, HEAD" || bytes.Contains(rec.Body.Bytes(), []byte("PNG")) {
				t.Errorf("%s %s: %d, Allow %q", m, target[:10], rec.Code, rec.Header().Get("Allow"))
			}
		}
	}
	if !present(s.store, id) {
		t.Fatal("a refused DELETE removed the file")
	}
}

// failing is a store that cannot be reached.
type failing struct{ err error }

func (f failing) Put(context.Context, media.File) (string, error) { return "", f.err }
func (f failing) Get(context.Context, string) (media.File, error) { return media.File{}, f.err }

// stale is a store that answers with a file whose time is up.
type stale media.File

func (f stale) Put(context.Context, media.File) (string, error) { return "", nil }
func (f stale) Get(context.Context, string) (media.File, error) { return media.File(f), nil }

func TestStoreFailureIs503WithoutDetail(t *testing.T) {
	var logs bytes.Buffer
	mux := http.NewServeMux()
	(&media.Handler{Store: failing{errors.New("redis: dial tcp 10.0.0.5:6379: i/o timeout")}, Logger: slog.New(slog.NewTextHandler(&logs, nil))}).Register(mux)
	id := media.NewID()
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/media/"+id+"/a.png", nil))
	if rec.Code != 503 || strings.Contains(rec.Body.String(), "10.0.0.5") || strings.Contains(rec.Body.String(), "redis") {
		t.Errorf("store failure: %d %q, want 503 without the store's error", rec.Code, rec.Body.String())
	}
	if !strings.Contains(logs.String(), "10.0.0.5") || strings.Contains(logs.String(), id) {
		t.Errorf("log %q: want the error, not the id", logs.String())
	}
}

func TestFileExpiredByServeTimeIs404(t *testing.T) {
	c := clocktest.At(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	mux := http.NewServeMux()
	f := media.File{Name: "a.png", ContentType: media.TypePNG, Body: mediatest.PNG(2, 2), Expires: c.Now()}
	(&media.Handler{Store: stale(f), Now: c.Now}).Register(mux)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest("GET", "/media/"+media.NewID(), nil))
	notFound(t, rec, "a file whose time was up when served")
}

// TestCacheControlNeverOutlivesTheFile walks the clock to the end of a
// file's life: max-age is never more than what is left.
func TestCacheControlNeverOutlivesTheFile(t *testing.T) {
	s := newSite(t)
	id := put(t, s.store, "a.png", mediatest.PNG(2, 2))
	steps := []struct {
		advance time.Duration
		maxAge  string
	}{{0, "3600"}, {1500 * time.Millisecond, "3598"}, {59 * time.Minute, "58"}, {58 * time.Second, "0"}}
	for _, st := range steps {
		s.clock.Advance(st.advance)
		rec := s.do("GET", "/media/"+id)
		if got := rec.Header().Get("Cache-Control"); got != "private, max-age="+st.maxAge {
			t.Errorf("after %v more: Cache-Control %q, want max-age=%s", st.advance, got, st.maxAge)
		}
	}
	s.clock.Advance(time.Second)
	notFound(t, s.do("GET", "/media/"+id), "after the last second")
}

// TestLogsNeverHoldTheID: at debug level, served, missing and renamed
// requests log at most the id's first characters.
func TestLogsNeverHoldTheID(t *testing.T) {
	s := newSite(t)
	id := put(t, s.store, "a.png", mediatest.PNG(2, 2))
	other := media.NewID()
	for _, target := range []string{"/media/" + id, "/media/" + id + "/b.png", "/media/" + other, "/media/" + id[:20]} {
		s.do("GET", target)
	}
	logs := s.logs.String()
	if !strings.Contains(logs, id[:4]+"…") {
		t.Errorf("logs %q lack the id's prefix", logs)
	}
	for _, secret := range []string{id, other, id[:8], other[:8], id[:20]} {
		if strings.Contains(logs, secret) {
			t.Errorf("logs hold %q: %s", secret, logs)
		}
	}
}

// TestInlineScriptHashes checks the page policy against scripts written
// the ways HTML allows: upper case, CRLF, external, empty, repeated.
func TestInlineScriptHashes(t *testing.T) {
	s := newSite(t)
	hash := func(js string) string {
		sum := sha256.Sum256([]byte(js))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	page := "<!doctype html><SCRIPT SRC='/assets/echarts.min.js'>ignored()</SCRIPT><script>a()\r\nb()</script>" +
		"<Script type=text/javascript>a()\nb()</Script><script></script><div onclick=\"steal()\">x</div><p>&lt;script&gt;no()&lt;/script&gt;</p>"
	id := put(t, s.store, "p.html", []byte(page))
	got := directive(s.do("GET", "/media/"+id).Header().Get("Content-Security-Policy"), "script-src")
	if want := "script-src 'self' " + hash("a()\nb()") + " " + hash(""); got != want {
		t.Errorf("script-src = %q\nwant        %q", got, want)
	}
	var many strings.Builder
	for i := range 40 {
		many.WriteString("<script>n(" + strconv.Itoa(i) + ")</script>")
	}
	id = put(t, s.store, "many.html", []byte(many.String()))
	if got := directive(s.do("GET", "/media/"+id).Header().Get("Content-Security-Policy"), "script-src"); got != "script-src 'self'" {
		t.Errorf("a page of 40 inline scripts: %q, want none of them allowed", got)
	}
}
