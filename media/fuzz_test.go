package media_test

import (
	"bytes"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/munshi/munshi/media"
	"github.com/munshi/munshi/media/mediatest"
)

// FuzzMediaPath sends arbitrary request paths at the media routes. In the
// path, "{id}" and "{other}" stand for the ids of two stored files, so the
// fuzzer explores around real links: traversal, encoded slashes and dots,
// NUL, very long and unicode segments. Never a panic, never a 5xx, and a
// file is served only at its own id (with its own name, or none).
func FuzzMediaPath(f *testing.F) {
	s := newSite(f)
	files := []struct {
		name string
		body []byte
	}{{"chart.png", mediatest.PNG(3, 3)}, {"outstanding-2026-11-30.xlsx", mediatest.XLSX(50)}}
	ids := make([]string, len(files))
	for i, file := range files {
		id, err := s.store.Put(f.Context(), media.File{Name: file.name, Body: file.body})
		if err != nil {
			f.Fatal(err)
		}
		ids[i] = id
	}
	f.Fuzz(func(t *testing.T, path string) {
		path = strings.NewReplacer("{id}", ids[0], "{other}", ids[1]).Replace(path)
		u, err := url.ParseRequestURI(path)
		if err != nil {
			u = &url.URL{Path: path} // what a lenient proxy might pass on
		}
		for _, method := range []string{"GET", "HEAD"} {
			req := httptest.NewRequest(method, "/", nil)
			req.URL, req.RequestURI = u, path
			rec := httptest.NewRecorder()
			s.mux.ServeHTTP(rec, req)
			if rec.Code >= 500 {
				t.Fatalf("%s %q: %d", method, path, rec.Code)
			}
			if rec.Code != 200 {
				continue
			}
			served := -1
			for i, file := range files {
				if u.Path == "/media/"+ids[i] || u.Path == "/media/"+ids[i]+"/"+file.name {
					served = i
				}
			}
			if served < 0 {
				t.Fatalf("%s %q (path %q) served a file", method, path, u.Path)
			}
			want := files[served].body
			if method == "HEAD" {
				want = nil
			}
			if !bytes.Equal(rec.Body.Bytes(), want) || rec.Header().Get("Content-Length") != strconv.Itoa(len(files[served].body)) {
				t.Fatalf("%s %q served %d bytes, not file %d's", method, path, rec.Body.Len(), served)
			}
		}
	})
}
