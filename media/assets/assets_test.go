package assets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
)

// get sends one request through the handler mounted the way cmd/munshi
// mounts it.
func get(t *testing.T, method, target string, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(Prefix, Handler())
	r := httptest.NewRequest(method, target, nil)
	for k, vs := range header {
		r.Header[k] = vs
	}
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, r)
	return w
}

func embedded(t *testing.T, name string) []byte {
	t.Helper()
	b, err := files.ReadFile("files/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestServesEChartsWithImmutableCache(t *testing.T) {
	w := get(t, http.MethodGet, Prefix+EChartsJS, nil)
	if w.Code != http.StatusOK {
		t.Fatalf("status %d, want 200", w.Code)
	}
	h := w.Result().Header
	for k, want := range map[string]string{
		"Content-Type":           "text/javascript; charset=utf-8",
		"Cache-Control":          "public, max-age=31536000, immutable",
		"X-Content-Type-Options": "nosniff",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if h.Get("Content-Encoding") != "" {
		t.Errorf("Content-Encoding %q without Accept-Encoding", h.Get("Content-Encoding"))
	}
	if !bytes.Equal(w.Body.Bytes(), embedded(t, EChartsJS)) {
		t.Fatal("body differs from the embedded script")
	}
	if !strings.Contains(w.Body.String(), "echarts") {
		t.Fatal("body does not look like ECharts")
	}
	if h.Get("ETag") == "" {
		t.Fatal("no ETag")
	}
}

func TestLicenceAndNoticeAreServedAsText(t *testing.T) {
	for _, name := range []string{"echarts-" + EChartsVersion + "-LICENSE.txt", "echarts-" + EChartsVersion + "-NOTICE.txt"} {
		w := get(t, http.MethodGet, Prefix+name, nil)
		if w.Code != http.StatusOK || w.Result().Header.Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Fatalf("%s: status %d, type %q", name, w.Code, w.Result().Header.Get("Content-Type"))
		}
		if !strings.Contains(w.Body.String(), "Apache") {
			t.Fatalf("%s does not mention Apache", name)
		}
	}
}

func TestHeadSendsHeadersWithoutBody(t *testing.T) {
	w := get(t, http.MethodHead, Prefix+EChartsJS, nil)
	if w.Code != http.StatusOK {
		t.Fatalf("status %d", w.Code)
	}
	if w.Body.Len() != 0 {
		t.Fatalf("HEAD sent %d bytes of body", w.Body.Len())
	}
	if got, want := w.Result().Header.Get("Content-Length"), len(embedded(t, EChartsJS)); got != strconv.Itoa(want) {
		t.Fatalf("Content-Length %s, want %d", got, want)
	}
}

func TestGzipForClientsThatAcceptIt(t *testing.T) {
	w := get(t, http.MethodGet, Prefix+EChartsJS, http.Header{"Accept-Encoding": {"br;q=1.0, gzip;q=0.8"}})
	h := w.Result().Header
	if h.Get("Content-Encoding") != "gzip" || h.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("Content-Encoding %q, Vary %q", h.Get("Content-Encoding"), h.Get("Vary"))
	}
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(plain, embedded(t, EChartsJS)) {
		t.Fatal("gzip body does not decompress to the script")
	}
	if w.Body.Len() != 0 {
		t.Fatal("reader left bytes")
	}
	plainTag := get(t, http.MethodGet, Prefix+EChartsJS, nil).Result().Header.Get("ETag")
	if h.Get("ETag") == plainTag {
		t.Fatal("gzip and plain bodies share an ETag")
	}
}

func TestAcceptEncoding(t *testing.T) {
	for in, want := range map[string]bool{
		"gzip":                     true,
		"GZIP":                     true,
		"deflate, gzip;q=0.5":      true,
		"x-gzip":                   true,
		"*":                        true,
		"gzip;q=0":                 false,
		"gzip;q=0.000":             false,
		"gzip;q=abc":               false,
		"gzip;q=7":                 false,
		"identity":                 false,
		"br, deflate":              false,
		"":                         false,
		";;;,,,==":                 false,
		"gzip ; q = 1":             true,
		strings.Repeat("x,", 5000): false,
	} {
		if got := acceptsGzip([]string{in}); got != want {
			t.Errorf("acceptsGzip(%.40q) = %v, want %v", in, got, want)
		}
	}
}

func TestRevalidationAnswersNotModified(t *testing.T) {
	first := get(t, http.MethodGet, Prefix+EChartsJS, nil)
	tag := first.Result().Header.Get("ETag")
	w := get(t, http.MethodGet, Prefix+EChartsJS, http.Header{"If-None-Match": {tag}})
	if w.Code != http.StatusNotModified || w.Body.Len() != 0 {
		t.Fatalf("status %d with %d bytes, want 304 and none", w.Code, w.Body.Len())
	}
}

func TestRangeRequest(t *testing.T) {
	w := get(t, http.MethodGet, Prefix+EChartsJS, http.Header{"Range": {"bytes=0-1"}})
	if w.Code != http.StatusPartialContent || w.Body.String() != string(embedded(t, EChartsJS)[:2]) {
		t.Fatalf("status %d body %q", w.Code, w.Body.String())
	}
}

func TestUnknownAndHostilePathsAre404(t *testing.T) {
	for _, p := range []string{
		Prefix,
		Prefix + "echarts.min.js",
		Prefix + "files/" + EChartsJS,
		Prefix + "../assets.go",
		Prefix + "%2e%2e/assets.go",
		Prefix + "..%2fassets.go",
		Prefix + EChartsJS + "/x",
		Prefix + "README.md",
		Prefix + "रिपोर्ट.js",
		Prefix + "%00",
		Prefix + strings.Repeat("a", 8000) + ".js",
	} {
		w := get(t, http.MethodGet, p, nil)
		// The mux may redirect a path with dot segments to its clean form;
		// either way nothing is served.
		switch w.Code {
		case http.StatusNotFound, http.StatusMovedPermanently, http.StatusTemporaryRedirect:
		default:
			t.Errorf("%.60s: status %d, want 404", p, w.Code)
		}
		if w.Code == http.StatusNotFound && w.Result().Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%.60s: no nosniff", p)
		}
		if w.Code == http.StatusOK || strings.Contains(w.Body.String(), "package assets") {
			t.Errorf("%.60s served something", p)
		}
	}
}

func TestOtherMethodsAreRefused(t *testing.T) {
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, "PATCH", "BREW"} {
		w := get(t, m, Prefix+EChartsJS, nil)
		if w.Code != http.StatusMethodNotAllowed || w.Result().Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: status %d, Allow %q", m, w.Code, w.Result().Header.Get("Allow"))
		}
	}
}

func TestMountedOnAPattern(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("GET /assets/{file}", Handler())
	srv := httptest.NewServer(mux)
	defer srv.Close()
	res, err := http.Get(srv.URL + Prefix + EChartsJS)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	// The client asked for gzip on its own and undid it.
	if res.StatusCode != http.StatusOK || !bytes.Equal(body, embedded(t, EChartsJS)) {
		t.Fatalf("status %d, %d bytes", res.StatusCode, len(body))
	}
}

// TestReadmeRecordsEveryFile keeps README.md's version and hashes true.
func TestReadmeRecordsEveryFile(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	names := Names()
	if len(names) != 3 {
		t.Fatalf("serving %v, want the script, its licence and notice", names)
	}
	for _, name := range names {
		sum := sha256.Sum256(embedded(t, name))
		line := "| `" + name + "` |"
		i := bytes.Index(readme, []byte(line))
		if i < 0 {
			t.Errorf("README.md has no row for %s", name)
			continue
		}
		row, _, _ := bytes.Cut(readme[i:], []byte("\n"))
		if !bytes.Contains(row, []byte(hex.EncodeToString(sum[:]))) {
			t.Errorf("README.md row for %s does not carry its sha256 %x", name, sum)
		}
	}
	if !bytes.Contains(readme, []byte("**"+EChartsVersion+"**")) {
		t.Errorf("README.md does not name version %s", EChartsVersion)
	}
}
