package chart

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"

	"github.com/munshi/munshi/media/assets"
)

// chartID names the page's one chart; the template builds the script's
// variable names from it.
const chartID = "munshi_chart"

// RenderHTML writes c as an interactive page: ECharts with a tooltip that
// gives every value in full (₹12,34,567.89, "2,400 bottles"). The page
// loads its only script from assetsHost, the URL at which Munshi serves
// media/assets (MUNSHI_PUBLIC_URL + "/assets/"), and refers to no other
// host. Category names are shown as given: the browser shapes Devanagari
// and draws emoji.
func RenderHTML(c Chart, assetsHost string) (page []byte, err error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	host, err := checkAssetsHost(assetsHost)
	if err != nil {
		return nil, err
	}
	defer recovered("html", &err)
	init := opts.Initialization{
		PageTitle:  safeText(c.Title),
		AssetsHost: host,
		ChartID:    chartID,
		Width:      "100%",
		Height:     htmlHeight(c),
	}
	script, err := formatters(c)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if c.Kind == Line {
		line := charts.NewLine()
		line.SetGlobalOptions(globalOptions(c, init)...)
		line.SetXAxis(categoryNames(c))
		line.MultiSeries = htmlSeries(c)
		pinScript(&line.Assets)
		line.AddJSFuncStrs(script)
		err = line.Render(&buf)
	} else {
		bar := charts.NewBar()
		bar.SetGlobalOptions(globalOptions(c, init)...)
		bar.SetXAxis(categoryNames(c))
		if c.Kind.horizontal() {
			bar.XYReversal()
		}
		bar.MultiSeries = htmlSeries(c)
		pinScript(&bar.Assets)
		bar.AddJSFuncStrs(script)
		err = bar.Render(&buf)
	}
	if err != nil {
		return nil, fmt.Errorf("chart: render html: %w", err)
	}
	return buf.Bytes(), nil
}

// checkAssetsHost accepts an absolute http(s) URL with no query or
// fragment, and ends it with a slash for go-echarts to append file names.
func checkAssetsHost(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.RawQuery != "" || u.Fragment != "" || u.User != nil || strings.ContainsAny(s, "\"'<> \\") {
		return "", fmt.Errorf("chart: assets host %q must be an http(s) URL such as https://munshi.example.com/assets/", s)
	}
	if !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s, nil
}

// pinScript makes the page load the pinned, versioned ECharts build that
// media/assets serves, and nothing else.
func pinScript(a *opts.Assets) {
	a.ClearPresetAssets()
	a.JSAssets.Add(assets.EChartsJS)
	a.AddCustomizedHeaders(
		`<meta name="viewport" content="width=device-width, initial-scale=1">`,
		// An empty icon: the browser asks the server for nothing else.
		`<link rel="icon" href="data:,">`,
	)
	a.CustomizedJSAssets.Init()
}

// htmlHeight gives rows of names room to breathe on a phone.
func htmlHeight(c Chart) string {
	if c.Kind.horizontal() {
		return strconv.Itoa(max(420, 180+44*len(c.Categories))) + "px"
	}
	return "480px"
}

// safeText makes a text safe for go-echarts, which writes its options into
// the page's script without escaping HTML and afterwards deletes every
// "__f__" (its marker around JavaScript functions): a name holding
// "</script>" or that marker could otherwise end the script or turn data
// into code. A zero-width space after each "<" keeps the text as it looks;
// the marker, which no real name holds, is taken apart.
func safeText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	for strings.Contains(s, "__f__") {
		s = strings.ReplaceAll(s, "__f__", "_f_")
	}
	return strings.ReplaceAll(s, "<", "<\u200b")
}

func categoryNames(c Chart) []string {
	names := make([]string, len(c.Categories))
	for i, cat := range c.Categories {
		names[i] = safeText(strings.TrimSpace(cat.Text))
		if names[i] == "" {
			names[i] = safeText(strings.TrimSpace(cat.Fallback))
		}
	}
	return names
}

func globalOptions(c Chart, init opts.Initialization) []charts.GlobalOpts {
	seriesNames := make([]string, len(c.Series))
	for i, s := range c.Series {
		seriesNames[i] = safeText(s.Name)
	}
	category := &opts.AxisLabel{Show: opts.Bool(true), Interval: "auto", FontSize: 13}
	valueLabel := &opts.AxisLabel{Show: opts.Bool(true), FontSize: 13}
	xAxis := opts.XAxis{Type: "category", AxisLabel: category}
	yAxis := opts.YAxis{Type: "value", AxisLabel: valueLabel}
	if c.Kind.horizontal() {
		xAxis = opts.XAxis{Type: "value", AxisLabel: valueLabel}
		yAxis = opts.YAxis{Type: "category", Inverse: opts.Bool(true), AxisLabel: category}
	}
	legendTop := "52"
	if c.Caption == "" {
		legendTop = "34"
	}
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(init),
		charts.WithTitleOpts(opts.Title{Title: safeText(c.Title), Subtitle: safeText(c.Caption), Left: "8"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(len(c.Series) > 1), Data: seriesNames, Top: legendTop, Left: "8"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis",
			AxisPointer: &opts.AxisPointer{Type: "shadow"}}),
		charts.WithGridOpts(opts.Grid{Left: "8", Right: "24", Top: gridTop(c), Bottom: "16", ContainLabel: opts.Bool(true)}),
		charts.WithXAxisOpts(xAxis),
		charts.WithYAxisOpts(yAxis),
		charts.WithAnimation(true),
	}
}

func gridTop(c Chart) string {
	top := 48
	if c.Caption != "" {
		top += 18
	}
	if len(c.Series) > 1 {
		top += 30
	}
	return strconv.Itoa(top)
}

// htmlValue is a value in the unit the page's axis counts in: rupees for
// money, so that a tick at 50000 reads ₹50K.
func htmlValue(m Measure, v int64) float64 {
	if m.IsMoney() {
		return float64(v) / 100
	}
	return float64(v)
}

func cssColor(c color.Color) string {
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8)
}

// htmlSeries are the series as ECharts draws them: bars or lines in the
// PNG's colours, markers as thin bars across each category.
func htmlSeries(c Chart) []charts.SingleSeries {
	inks := inks(c.Series)
	out := make([]charts.SingleSeries, len(c.Series))
	for i, s := range c.Series {
		color := cssColor(inks[i])
		ss := charts.SingleSeries{Name: safeText(s.Name), Color: color}
		values := make([]float64, len(s.Values))
		for j, v := range s.Values {
			values[j] = htmlValue(s.Measure, v)
		}
		switch {
		case c.Kind == Line:
			ss.Type, ss.Data, ss.ShowSymbol = types.ChartLine, values, opts.Bool(len(values) <= 45)
			width := float32(3)
			ss.LineStyle = &opts.LineStyle{Color: color, Width: width}
			if s.Marker {
				ss.LineStyle.Type = "dashed"
			}
		case s.Marker:
			// A marker is a scatter of thin bars placed by category index.
			size := []int{36, 5}
			points := make([][2]float64, len(values))
			for j, v := range values {
				points[j] = [2]float64{float64(j), v}
				if c.Kind.horizontal() {
					points[j] = [2]float64{v, float64(j)}
				}
			}
			if c.Kind.horizontal() {
				size = []int{5, 36}
			}
			ss.Type, ss.Data, ss.Symbol, ss.SymbolSize = types.ChartScatter, points, "rect", size
			ss.ItemStyle = &opts.ItemStyle{Color: color, Opacity: opts.Float(1)}
		default:
			ss.Type, ss.Data = types.ChartBar, values
			ss.ItemStyle = &opts.ItemStyle{Color: color}
			if c.Kind == Stacked {
				ss.Stack = "total"
			}
		}
		out[i] = ss
	}
	return out
}

// formatterTable is everything the page's formatters print, computed
// here so that a person reads the same figures as in the PNG and on
// WhatsApp.
type formatterTable struct {
	Categories []string          `json:"c"`
	Series     []string          `json:"s"`
	Exact      [][]string        `json:"v"` // [series][category]
	Totals     []string          `json:"t,omitempty"`
	Ticks      map[string]string `json:"k"` // axis value → label
	Min        float64           `json:"min"`
	Max        float64           `json:"max"`
	Step       float64           `json:"step"`
	Horizontal bool              `json:"h"`
}

// formatScript sets the value axis to the PNG's ticks and labels and the
// tooltip to the exact figures, from a table of strings made here; it
// escapes every text for the tooltip's HTML. The script is written
// without newlines, comments or double quotes: go-echarts joins it into
// one line.
const formatScript = `(function (chart, t) {` +
	`var esc = function (s) { return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'); };` +
	`var axis = {min: t.min, max: t.max, interval: t.step, axisLabel: {formatter: function (v) { var k = t.k[String(v)]; return k === undefined ? '' : k; }}};` +
	`var tip = function (ps) {` +
	`if (!ps || !ps.length) { return ''; }` +
	`var i = ps[0].dataIndex;` +
	`var h = '<b>' + esc(t.c[i]) + '</b>';` +
	`ps.forEach(function (p) { h += '<br>' + p.marker + esc(t.s[p.seriesIndex]) + ': <b>' + esc(t.v[p.seriesIndex][i]) + '</b>'; });` +
	`if (t.t) { h += '<br>Total: <b>' + esc(t.t[i]) + '</b>'; }` +
	`return h; };` +
	`var o = {tooltip: {confine: true, formatter: tip}};` +
	`if (t.h) { o.xAxis = axis; } else { o.yAxis = axis; }` +
	`chart.setOption(o);` +
	`var names = function () { if (t.h) { chart.setOption({yAxis: {axisLabel: {width: Math.round(chart.getWidth() * 0.35), overflow: 'truncate'}}}); } };` +
	`names();` +
	`window.addEventListener('resize', function () { chart.resize(); names(); });` +
	`})(%MY_ECHARTS%, `

// formatters is formatScript applied to c's table.
func formatters(c Chart) (types.FuncStr, error) {
	m := c.Series[0].Measure
	sc := newScale(c)
	t := formatterTable{
		Ticks: map[string]string{}, Horizontal: c.Kind.horizontal(),
		Min: htmlValue(m, int64(sc.lo)), Max: htmlValue(m, int64(sc.hi)), Step: htmlValue(m, int64(sc.step)),
	}
	for _, v := range sc.ticks() {
		t.Ticks[strconv.FormatFloat(htmlValue(m, int64(v)), 'f', -1, 64)] = m.short(int64(v))
	}
	for _, cat := range c.Categories {
		name := strings.TrimSpace(cat.Text)
		if name == "" {
			name = strings.TrimSpace(cat.Fallback)
		}
		t.Categories = append(t.Categories, name)
	}
	totals := make([]int64, len(c.Categories))
	for _, s := range c.Series {
		t.Series = append(t.Series, s.Name)
		exact := make([]string, len(s.Values))
		for j, v := range s.Values {
			exact[j] = m.exact(v)
			if !s.Marker {
				totals[j] += v
			}
		}
		t.Exact = append(t.Exact, exact)
	}
	if c.Kind == Stacked {
		for _, v := range totals {
			t.Totals = append(t.Totals, m.exact(v))
		}
	}
	table, err := json.Marshal(t)
	if err != nil {
		return "", fmt.Errorf("chart: formatter table: %w", err)
	}
	// json.Marshal already writes <, > and & as \u escapes, so no text can
	// end the script; "_" and "%" are escaped too so that go-echarts'
	// "__f__" deletion and "%MY_ECHARTS%" substitution cannot touch data.
	escaped := strings.NewReplacer("_", `\u005f`, "%", `\u0025`).Replace(string(table))
	return types.FuncStr(formatScript + escaped + ");"), nil
}
