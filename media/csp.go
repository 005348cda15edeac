package media

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// maxScriptHashes bounds the CSP header of one page. Munshi's chart pages
// have one or two inline scripts; a page with more gets none allowed
// (it stays blank rather than send a header proxies refuse).
const maxScriptHashes = 32

// pagePolicy is the Content-Security-Policy of an HTML page: nothing but
// what a chart page needs. Scripts come from Munshi's own /assets/ route
// ('self') and from the page's inline scripts by their SHA-256 hash — the
// chart's options as go-echarts writes them — rather than 'unsafe-inline',
// so that an inline event handler or a javascript: URL that slipped into a
// label would not run. Inline styles stay allowed (go-echarts sizes the
// chart in a style attribute, which no hash can cover; styles cannot run
// code). No fetches, forms, frames, fonts or images but data: URLs (the
// chart's "save as image").
func pagePolicy(page []byte) string {
	script := "script-src 'self'"
	if hashes := inlineScriptHashes(page); len(hashes) <= maxScriptHashes {
		for _, h := range hashes {
			script += " 'sha256-" + h + "'"
		}
	}
	return strings.Join([]string{
		"default-src 'none'", script, "style-src 'self' 'unsafe-inline'", "img-src data:",
		"connect-src 'none'", "font-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
	}, "; ")
}

// inlineScriptHashes returns the base64 SHA-256 of the text of every
// <script> element without a src, as a browser hashes it for CSP (after
// HTML's newline normalisation), each once.
func inlineScriptHashes(page []byte) []string {
	var hashes []string
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return hashes
		case html.StartTagToken:
			name, hasAttr := z.TagName()
			if string(name) != "script" || hasSrc(z, hasAttr) {
				continue
			}
			var text []byte
			for z.Next() == html.TextToken {
				text = append(text, z.Text()...)
			}
			sum := sha256.Sum256(text)
			if h := base64.StdEncoding.EncodeToString(sum[:]); !slices.Contains(hashes, h) {
				hashes = append(hashes, h)
			}
		}
	}
}

func hasSrc(z *html.Tokenizer, more bool) bool {
	for more {
		var key []byte
		key, _, more = z.TagAttr()
		if string(key) == "src" {
			return true
		}
	}
	return false
}
