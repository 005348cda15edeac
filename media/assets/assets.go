package assets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	// EChartsVersion is the pinned ECharts release, the 5.x line that
	// go-echarts v2 writes its options for.
	EChartsVersion = "5.4.3"
	// EChartsJS is the file name under Prefix that chart pages load.
	EChartsJS = "echarts-" + EChartsVersion + ".min.js"
	// Prefix is the URL path the handler serves; Munshi's chart pages use
	// {MUNSHI_PUBLIC_URL}/assets/ as their assets host.
	Prefix = "/assets/"
)

//go:embed files
var files embed.FS

// asset is one embedded file with what its responses need, computed once.
type asset struct {
	contentType string
	body        []byte
	etag        string
	gzipped     []byte // nil when compression does not pay
	gzipETag    string
}

var (
	loadOnce sync.Once
	table    map[string]*asset
	loadErr  error
)

// load reads and compresses the embedded files once per process.
func load() (map[string]*asset, error) {
	loadOnce.Do(func() {
		entries, err := files.ReadDir("files")
		if err != nil {
			loadErr = fmt.Errorf("assets: read embedded files: %w", err)
			return
		}
		t := make(map[string]*asset, len(entries))
		for _, e := range entries {
			body, err := files.ReadFile("files/" + e.Name())
			if err != nil {
				loadErr = fmt.Errorf("assets: read %s: %w", e.Name(), err)
				return
			}
			a := &asset{contentType: contentType(e.Name()), body: body, etag: etag(body)}
			if gz, err := compress(body); err == nil && len(gz) < len(body)*9/10 {
				a.gzipped, a.gzipETag = gz, etag(gz)
			}
			t[e.Name()] = a
		}
		table = t
	})
	return table, loadErr
}

// Names lists the files the handler serves, sorted.
func Names() []string {
	t, err := load()
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(t))
	for n := range t {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Handler serves the embedded files at GET|HEAD /assets/{file}. Mount it
// at Prefix without stripping it, e.g. mux.Handle("/assets/", Handler()),
// or at the pattern "/assets/{file}".
func Handler() http.Handler {
	return http.HandlerFunc(serve)
}

func serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	t, err := load()
	if err != nil {
		http.Error(w, "assets unavailable", http.StatusInternalServerError)
		return
	}
	a, ok := t[fileName(r)]
	if !ok {
		http.NotFound(w, r)
		return
	}
	body, tag := a.body, a.etag
	if a.gzipped != nil {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Values("Accept-Encoding")) {
			body, tag = a.gzipped, a.gzipETag
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("Content-Type", a.contentType)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", tag)
	// ServeContent answers If-None-Match, Range and HEAD from the ETag and
	// the bytes; the zero time leaves Last-Modified out.
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// fileName is the {file} of the request: the path value when the handler
// is mounted on a pattern, else the path after Prefix. Anything with a
// further slash names no file.
func fileName(r *http.Request) string {
	if v := r.PathValue("file"); v != "" {
		return v
	}
	name, ok := strings.CutPrefix(r.URL.Path, Prefix)
	if !ok || strings.Contains(name, "/") {
		return ""
	}
	return name
}

// acceptsGzip reads Accept-Encoding: gzip (or x-gzip, or *) with a
// non-zero quality.
func acceptsGzip(values []string) bool {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			name = strings.ToLower(strings.TrimSpace(name))
			if name != "gzip" && name != "x-gzip" && name != "*" {
				continue
			}
			if q, ok := quality(params); ok && q > 0 {
				return true
			}
		}
	}
	return false
}

// quality reads "q=0.5" from a coding's parameters; no q means 1.
func quality(params string) (float64, bool) {
	for _, p := range strings.Split(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || q < 0 || q > 1 {
			return 0, false
		}
		return q, true
	}
	return 1, true
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	}
	return "text/plain; charset=utf-8"
}

func etag(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

func compress(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, fmt.Errorf("assets: gzip: %w", err)
	}
	if _, err := zw.Write(b); err != nil {
		return nil, fmt.Errorf("assets: gzip: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("assets: gzip: %w", err)
	}
	return buf.Bytes(), nil
}
