package chart

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/media/assets"
)

const testAssets = "https://munshi.example.com/assets/"

// pageParts are what a page holds, read the way a browser tokenises it.
type pageParts struct {
	tags    []string          // every start tag, in order
	urls    []string          // every src and href
	scripts []string          // the text of each inline script
	texts   map[string]string // title → its text
}

func parsePage(t *testing.T, page []byte) pageParts {
	t.Helper()
	p := pageParts{texts: map[string]string{}}
	z := html.NewTokenizer(bytes.NewReader(page))
	var open string
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				t.Fatal(z.Err())
			}
			return p
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			p.tags = append(p.tags, tok.Data)
			open = tok.Data
			for _, a := range tok.Attr {
				if a.Key == "src" || a.Key == "href" {
					p.urls = append(p.urls, a.Val)
				}
			}
		case html.TextToken:
			switch open {
			case "script":
				p.scripts = append(p.scripts, string(z.Text()))
			case "title":
				p.texts["title"] += string(z.Text())
			}
		case html.EndTagToken:
			open = ""
		}
	}
}

// TestPageRefersToNoOtherHost renders every kind and checks that the only
// address in the page is the assets host's script (and an empty icon).
func TestPageRefersToNoOtherHost(t *testing.T) {
	anyURL := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9\[][^\s"'<>()\\]*`)
	for _, k := range Kinds {
		page, err := RenderHTML(sample(k), testAssets)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		for _, u := range anyURL.FindAllString(string(page), -1) {
			if !strings.HasPrefix(u, testAssets) {
				t.Errorf("%s: the page refers to %s", k, u)
			}
		}
		if strings.Contains(string(page), "go-echarts.github.io") || strings.Contains(strings.ToLower(string(page)), "@import") {
			t.Errorf("%s: the page names go-echarts' host or imports CSS", k)
		}
		parts := parsePage(t, page)
		want := []string{testAssets + assets.EChartsJS, "data:,"}
		if strings.Join(parts.urls, " ") != strings.Join(want, " ") {
			t.Errorf("%s: src/href %v, want %v", k, parts.urls, want)
		}
	}
}

func TestAssetsHostMustBeAnHTTPURL(t *testing.T) {
	for _, bad := range []string{
		"", "/assets/", "assets/", "ftp://munshi.example.com/assets/", "http://", "javascript:alert(1)//",
		"https://munshi.example.com/assets/?v=1", "https://munshi.example.com/assets/#x",
		`https://munshi.example.com/a"onload="alert(1)/`, "https://user:pass@munshi.example.com/assets/",
		"https://munshi.example.com/as sets/", "http://[::1", "\x00",
	} {
		if page, err := RenderHTML(sample(Bar), bad); err == nil || page != nil {
			t.Errorf("assets host %q accepted", bad)
		}
	}
	page, err := RenderHTML(sample(Bar), "http://127.0.0.1:8080/assets")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte(`src="http://127.0.0.1:8080/assets/`+assets.EChartsJS+`"`)) {
		t.Fatal("a host without its final slash did not get one")
	}
}

// table reads the formatter table back out of the page's script.
func table(t *testing.T, page []byte) formatterTable {
	t.Helper()
	parts := parsePage(t, page)
	var script string
	for _, s := range parts.scripts {
		if strings.Contains(s, "goecharts_"+chartID) {
			script = s
		}
	}
	_, raw, ok := strings.Cut(script, "})(goecharts_"+chartID+", ")
	if !ok {
		t.Fatalf("no formatter table in %q", script)
	}
	raw = strings.TrimSpace(raw)
	raw = strings.TrimSuffix(raw, ");")
	var tab formatterTable
	if err := json.Unmarshal([]byte(raw), &tab); err != nil {
		t.Fatalf("formatter table is not JSON: %v\n%s", err, raw)
	}
	return tab
}

// options reads go-echarts' option object back out of the page's script.
func options(t *testing.T, page []byte) map[string]any {
	t.Helper()
	re := regexp.MustCompile(`let option_` + chartID + ` = (.*)\n`)
	m := re.FindSubmatch(page)
	if m == nil {
		t.Fatal("no options in the page")
	}
	var o map[string]any
	if err := json.Unmarshal(m[1], &o); err != nil {
		t.Fatalf("options are not JSON: %v\n%s", err, m[1])
	}
	return o
}

func TestTooltipTableHasExactFigures(t *testing.T) {
	page, err := RenderHTML(sample(HorizontalBar), testAssets)
	if err != nil {
		t.Fatal(err)
	}
	tab := table(t, page)
	if tab.Exact[0][0] != "₹3,50,000" || tab.Exact[1][2] != "₹2,00,000" || tab.Series[1] != "Credit limit" || !tab.Horizontal {
		t.Fatalf("table %+v", tab)
	}
	// The axis is in rupees with the PNG's ticks.
	if tab.Min != 0 || tab.Max != 400000 || tab.Step != 100000 || tab.Ticks["200000"] != "₹2L" || len(tab.Ticks) != 5 {
		t.Fatalf("axis %v..%v step %v ticks %v", tab.Min, tab.Max, tab.Step, tab.Ticks)
	}

	c := sample(Stacked)
	c.Series[0].Values[0] = 123456
	page, err = RenderHTML(c, testAssets)
	if err != nil {
		t.Fatal(err)
	}
	tab = table(t, page)
	if tab.Exact[0][0] != "1,23,456 bottles" || tab.Totals[0] != "1,24,536 bottles" || tab.Categories[0] != "Glass Cleaner 500ml" {
		t.Fatalf("stacked table %+v", tab)
	}

	c = sample(Line)
	c.Series[0].Values[0] = 123456789
	page, err = RenderHTML(c, testAssets)
	if err != nil {
		t.Fatal(err)
	}
	if got := table(t, page).Exact[0][0]; got != "₹12,34,567.89" {
		t.Fatalf("tooltip figure %q", got)
	}
}

// TestHostileNamesStayData renders names that try to end the script, open
// a comment, smuggle go-echarts' function marker or its instance
// placeholder, or break JSON: the page keeps its shape, the options and
// the table still parse, and the table holds each name exactly.
func TestHostileNamesStayData(t *testing.T) {
	hostile := []string{
		`</script><script>alert(1)</script>`,
		`<!--<script>`,
		`x"__f__);alert(1);("__f__`,
		`___f___`,
		`%MY_ECHARTS%.dispose()`,
		`back\slash "quote' ` + "\u2028line\u2029",
		`<img src=x onerror=alert(1)>`,
		"tab\there\nnew line \x00 \xff",
	}
	c := Chart{Title: hostile[0] + " · 30 Nov 2026", Caption: hostile[1], Kind: HorizontalBar}
	for i, h := range hostile {
		c.Categories = append(c.Categories, Category{Text: h, Fallback: "C0" + ShortCount(int64(i))})
	}
	values := make([]domain.Paise, len(hostile))
	c.Series = []Series{MoneySeries(hostile[2], values), MoneySeries(hostile[4], values).AsMarker()}
	page, err := RenderHTML(c, testAssets)
	if err != nil {
		t.Fatal(err)
	}
	parts := parsePage(t, page)
	want := "html head meta title script meta link body div div script style"
	if got := strings.Join(parts.tags, " "); got != want {
		t.Fatalf("the page's tags are %q, want %q", got, want)
	}
	if len(parts.scripts) != 1 {
		t.Fatalf("%d inline scripts", len(parts.scripts))
	}
	if bytes.Contains(page, []byte("__f__")) {
		t.Fatal("the function marker survived into the page")
	}
	o := options(t, page)
	names := o["yAxis"].([]any)[0].(map[string]any)["data"].([]any)
	for i, h := range hostile {
		if got := strings.ReplaceAll(names[i].(string), "\u200b", ""); strings.Contains(got, "<") != strings.Contains(h, "<") {
			t.Errorf("axis name %d = %q", i, got)
		}
	}
	tab := table(t, page)
	for i, h := range hostile {
		if want := strings.TrimSpace(strings.ToValidUTF8(h, "\uFFFD")); tab.Categories[i] != want {
			t.Errorf("table name %d = %q, want %q", i, tab.Categories[i], want)
		}
	}
	if tab.Series[0] != hostile[2] || tab.Series[1] != hostile[4] {
		t.Errorf("series names %q", tab.Series)
	}
	if !strings.Contains(strings.ReplaceAll(parts.texts["title"], "\u200b", ""), "</script>") {
		t.Errorf("title text %q", parts.texts["title"])
	}
}

func TestSafeText(t *testing.T) {
	for in, want := range map[string]string{
		"Rajesh":       "Rajesh",
		"a</script>":   "a<\u200b/script>",
		"__f__":        "_f_",
		"___f___":      "_f_",
		"____f____":    "_f_",
		"x__f____f__y": "x_f__f_y",
		"\xff":         "\uFFFD",
		"राजेश":        "राजेश",
	} {
		got := safeText(in)
		if strings.Contains(got, "__f__") || strings.Contains(strings.ReplaceAll(got, "<\u200b", ""), "<") {
			t.Errorf("safeText(%q) = %q is not safe", in, got)
		}
		if got != want {
			t.Errorf("safeText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHTMLRendersEveryKindWithItsSeries(t *testing.T) {
	wantTypes := map[Kind][]string{
		Line:          {"line"},
		Bar:           {"bar", "bar"},
		HorizontalBar: {"bar", "scatter"},
		Stacked:       {"bar", "bar", "bar"},
	}
	for _, k := range Kinds {
		page, err := RenderHTML(sample(k), testAssets)
		if err != nil {
			t.Fatal(err)
		}
		o := options(t, page)
		var types []string
		for _, s := range o["series"].([]any) {
			m := s.(map[string]any)
			types = append(types, m["type"].(string))
			if k == Stacked && m["stack"] != "total" {
				t.Errorf("stacked series %v not stacked", m["name"])
			}
		}
		if strings.Join(types, " ") != strings.Join(wantTypes[k], " ") {
			t.Errorf("%s: series types %v", k, types)
		}
		if tab := table(t, page); tab.Horizontal != k.horizontal() || len(tab.Exact) != len(sample(k).Series) {
			t.Errorf("%s: table %+v", k, tab)
		}
	}
}

func TestHTMLRefusesWhatPNGRefuses(t *testing.T) {
	_, err := RenderHTML(Chart{Title: "Sales", Kind: Bar}, testAssets)
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("%v", err)
	}
}
