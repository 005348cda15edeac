package chart

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/munshi/munshi/internal/domain"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// PNG is a chart drawn for WhatsApp.
type PNG struct {
	Data          []byte
	Width, Height int
	// Fallbacks lists the texts drawn otherwise than given (see Fallback).
	Fallbacks []Fallback
}

// Picture sizes: wide for trends over days and weeks, square for rows of
// names, which then get the height of a phone screen's width.
const (
	wideWidth, wideHeight     = 1200, 675
	squareWidth, squareHeight = 1080, 1080
)

// Size is the picture RenderPNG draws for a kind, in pixels.
func Size(k Kind) (width, height int) {
	if k.horizontal() {
		return squareWidth, squareHeight
	}
	return wideWidth, wideHeight
}

// Type sizes in pixels, chosen to read on a phone once WhatsApp scales
// the picture to the screen's width.
const (
	titleSize   = 44
	captionSize = 28
	labelSize   = 28 // category names and the legend
	valueSize   = 26 // axis ticks and bar ends
	margin      = 40
)

var (
	ink      = color.RGBA{0x1f, 0x1f, 0x1f, 0xff}
	softInk  = color.RGBA{0x55, 0x55, 0x55, 0xff}
	gridInk  = color.RGBA{0xe2, 0xe2, 0xe2, 0xff}
	axisInk  = color.RGBA{0x9e, 0x9e, 0x9e, 0xff}
	barInks  = []color.Color{hex(0x0072B2), hex(0xE69F00), hex(0x009E73), hex(0xCC79A7), hex(0x56B4E9), hex(0xD55E00), hex(0x7F7F7F), hex(0x332288)}
	markInks = []color.Color{hex(0xC0392B), hex(0x222222), hex(0x8E44AD), hex(0x16A085), hex(0xD35400), hex(0x2C3E50), hex(0x7D6608), hex(0x641E16)}
)

// hex is an opaque colour from 0xRRGGBB; the palette is Okabe–Ito's,
// told apart by people who do not see red and green.
func hex(v uint32) color.Color {
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}

// RenderPNG draws c as a PNG. It returns an error wrapping ErrInvalid for
// a chart that cannot be drawn (empty, mismatched series), never an empty
// picture.
func RenderPNG(c Chart) (_ *PNG, err error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	defer recovered("png", &err)
	t, err := loadFonts()
	if err != nil {
		return nil, err
	}
	w, h := Size(c.Kind)
	canvas := vgimg.NewWith(vgimg.UseWH(vg.Length(w), vg.Length(h)), vgimg.UseDPI(72),
		vgimg.UseBackgroundColor(color.White))
	d := &painting{t: t, c: c, w: float64(w), h: float64(h), inks: inks(c.Series)}
	dc := draw.New(canvas)
	top := d.header(dc)
	p := d.plot()
	right := -margin
	if c.Kind.horizontal() {
		right -= 24 // room for half of the last value label under the axis
	}
	p.Draw(draw.Crop(dc, margin, vg.Length(right), 24, -vg.Length(top)))

	img, ok := canvas.Image().(*image.RGBA)
	if !ok {
		return nil, fmt.Errorf("chart: canvas is a %T, not RGBA", canvas.Image())
	}
	var buf bytes.Buffer
	if err := encodePNG(&buf, img); err != nil {
		return nil, err
	}
	return &PNG{Data: buf.Bytes(), Width: w, Height: h, Fallbacks: d.fallbacks}, nil
}

// inks gives each series its colour: bars and lines from one palette,
// markers from another so a limit never looks like data.
func inks(series []Series) []color.Color {
	out := make([]color.Color, len(series))
	b, m := 0, 0
	for i, s := range series {
		if s.Marker {
			out[i], m = markInks[m%len(markInks)], m+1
		} else {
			out[i], b = barInks[b%len(barInks)], b+1
		}
	}
	return out
}

// painting is one render in progress.
type painting struct {
	t         *typefaces
	c         Chart
	w, h      float64
	inks      []color.Color
	fallbacks []Fallback
}

func (d *painting) plain(s string, st text.Style, maxWidth float64) string {
	drawn, changed := d.t.plain(s, st, maxWidth)
	if changed {
		d.fallbacks = append(d.fallbacks, Fallback{Text: s, Drawn: drawn})
	}
	return drawn
}

// lineHeight is the height of one line of st.
func (d *painting) lineHeight(st text.Style) float64 {
	return float64(d.t.handler.Extents(st.Font).Height)
}

// header draws the title, the caption and the legend from the top and
// returns how much height they took.
func (d *painting) header(dc draw.Canvas) float64 {
	y := 28.0 // from the top
	width := d.w - 2*margin
	put := func(st text.Style, x float64, s string) {
		st.YAlign = text.YTop
		dc.FillText(st, vg.Point{X: vg.Length(x), Y: vg.Length(d.h - y)}, s)
	}
	title := d.t.style(titleSize, true, ink)
	put(title, margin, d.plain(d.c.Title, title, width))
	y += d.lineHeight(title) + 2
	if d.c.Caption != "" {
		caption := d.t.style(captionSize, false, softInk)
		if s := d.plain(d.c.Caption, caption, width); s != "" {
			put(caption, margin, s)
			y += d.lineHeight(caption)
		}
	}
	if len(d.c.Series) > 1 {
		y += 12
		legend := d.t.style(labelSize, false, ink)
		row := d.lineHeight(legend)
		x := float64(margin)
		for i, s := range d.c.Series {
			name := d.plain(s.Name, legend, width/2)
			item := swatchWidth + 12 + d.t.width(legend, name)
			if x > margin && x+item > d.w-margin {
				x, y = margin, y+row+6
			}
			d.swatch(dc, i, x, d.h-y-row*0.55)
			put(legend, x+swatchWidth+12, name)
			x += item + 36
		}
		y += row
	}
	return y + 32
}

const swatchWidth = 32

// swatch draws series i's key in the legend, centred on height cy.
func (d *painting) swatch(dc draw.Canvas, i int, x, cy float64) {
	s, ink := d.c.Series[i], d.inks[i]
	switch {
	case d.c.Kind == Line:
		st := lineStyle(s, ink)
		dc.StrokeLine2(st, vg.Length(x), vg.Length(cy), vg.Length(x+swatchWidth), vg.Length(cy))
	case s.Marker && d.c.Kind.horizontal():
		mid := x + swatchWidth/2
		dc.StrokeLine2(markStyle(ink), vg.Length(mid), vg.Length(cy-14), vg.Length(mid), vg.Length(cy+14))
	case s.Marker:
		dc.StrokeLine2(markStyle(ink), vg.Length(x), vg.Length(cy), vg.Length(x+swatchWidth), vg.Length(cy))
	default:
		fillRect(dc, ink, x, cy-12, x+swatchWidth, cy+12)
	}
}

func lineStyle(s Series, ink color.Color) draw.LineStyle {
	st := draw.LineStyle{Color: ink, Width: 5}
	if s.Marker {
		st.Width, st.Dashes = 4, []vg.Length{14, 9}
	}
	return st
}

func markStyle(ink color.Color) draw.LineStyle { return draw.LineStyle{Color: ink, Width: 6} }

func fillRect(c draw.Canvas, ink color.Color, x0, y0, x1, y1 float64) {
	c.FillPolygon(ink, []vg.Point{
		{X: vg.Length(x0), Y: vg.Length(y0)}, {X: vg.Length(x1), Y: vg.Length(y0)},
		{X: vg.Length(x1), Y: vg.Length(y1)}, {X: vg.Length(x0), Y: vg.Length(y1)},
	})
}

// plot sets up the axes and the data for gonum/plot.
func (d *painting) plot() *plot.Plot {
	p := plot.New()
	p.BackgroundColor = nil
	valueAxis, categoryAxis := &p.Y, &p.X
	if d.c.Kind.horizontal() {
		valueAxis, categoryAxis = &p.X, &p.Y
	}
	measure := d.c.Series[0].Measure
	sc := newScale(d.c)
	var ticks []plot.Tick
	valueLabel := d.t.style(valueSize, false, softInk)
	for _, v := range sc.ticks() {
		ticks = append(ticks, plot.Tick{Value: v, Label: measure.short(int64(v))})
	}
	configureAxis(valueAxis, valueLabel, plot.ConstantTicks(ticks))
	valueAxis.Min, valueAxis.Max = sc.lo, sc.hi
	valueAxis.LineStyle.Width = 0
	if !measure.IsMoney() && measure.Unit != "" {
		valueAxis.Label.Text = d.plain(domain.Plural(measure.Unit, 2), valueLabel, d.w/2)
	}

	categoryLabel := d.t.style(labelSize, false, ink)
	configureAxis(categoryAxis, categoryLabel, plot.ConstantTicks(d.categoryTicks(categoryLabel, valueLabel, ticks)))
	categoryAxis.Min, categoryAxis.Max = -0.5, float64(len(d.c.Categories))-0.5
	categoryAxis.LineStyle = draw.LineStyle{Color: axisInk, Width: 2}

	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = gridInk, gridInk
	grid.Vertical.Width, grid.Horizontal.Width = 1.5, 1.5
	if d.c.Kind.horizontal() {
		grid.Horizontal.Width = 0
	} else {
		grid.Vertical.Width = 0
	}
	p.Add(grid, &data{painting: d, sc: sc, valueStyle: d.t.style(valueSize, false, ink)})
	// Add widens the axes to the data; the scale already covers it.
	valueAxis.Min, valueAxis.Max = sc.lo, sc.hi
	categoryAxis.Min, categoryAxis.Max = -0.5, float64(len(d.c.Categories))-0.5
	return p
}

// configureAxis keeps gonum's alignment of the axis' labels (beside a
// vertical axis, under a horizontal one) and sets their type.
func configureAxis(a *plot.Axis, st text.Style, ticks plot.Ticker) {
	a.Padding = 0
	a.Tick.Label.Font, a.Tick.Label.Color, a.Tick.Label.Handler = st.Font, st.Color, st.Handler
	a.Label.TextStyle.Font, a.Label.TextStyle.Color, a.Label.TextStyle.Handler = st.Font, st.Color, st.Handler
	a.Tick.Length = 0
	a.Tick.LineStyle.Width = 0
	a.Tick.Marker = ticks
}

// categoryTicks are the category names, fitted and placed: down the left
// of horizontal kinds, first on top; along the bottom otherwise, every
// k-th one when they would collide (days of a month).
func (d *painting) categoryTicks(st, valueStyle text.Style, valueTicks []plot.Tick) []plot.Tick {
	n := len(d.c.Categories)
	maxWidth, every := 0.36*d.w, 1
	if !d.c.Kind.horizontal() {
		maxWidth = 220
	}
	names := make([]string, n)
	widest := 0.0
	for i, cat := range d.c.Categories {
		s, fellBack := d.t.label(cat, i, st, maxWidth)
		if fellBack {
			d.fallbacks = append(d.fallbacks, Fallback{Text: cat.Text, Drawn: s})
		}
		names[i] = s
		widest = math.Max(widest, d.t.width(st, s))
	}
	// Along the bottom, where each name is centred under its slot: the
	// slot's width, from an estimate of the value labels' width.
	left, slot := 0.0, 0.0
	if !d.c.Kind.horizontal() {
		axisWidth := 0.0
		for _, t := range valueTicks {
			axisWidth = math.Max(axisWidth, d.t.width(valueStyle, t.Label))
		}
		left = margin + axisWidth + 16
		slot = (d.w - margin - left) / float64(n)
		every = int(math.Ceil((widest + 20) / slot))
	}
	ticks := make([]plot.Tick, n)
	for i, s := range names {
		ticks[i] = plot.Tick{Value: d.position(i)}
		if i%every != 0 {
			continue
		}
		if slot > 0 {
			// A name that would run off the picture's edge is left out.
			mid, half := left+(float64(i)+0.5)*slot, d.t.width(st, s)/2
			if mid-half < 8 || mid+half > d.w-8 {
				continue
			}
		}
		ticks[i].Label = s
	}
	return ticks
}

// position is category i's coordinate on the category axis.
func (d *painting) position(i int) float64 {
	if d.c.Kind.horizontal() {
		return float64(len(d.c.Categories) - 1 - i)
	}
	return float64(i)
}

// data draws the series inside the axes: a gonum plot.Plotter.
type data struct {
	*painting
	sc         scale
	valueStyle text.Style
}

func (g *data) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	// at is the point for category coordinate k and value v.
	at := func(k, v float64) (x, y float64) {
		if g.c.Kind.horizontal() {
			return float64(trX(v)), float64(trY(k))
		}
		return float64(trX(k)), float64(trY(v))
	}
	x0, y0 := at(0, 0)
	x1, y1 := at(1, 0)
	slot := math.Abs(x1-x0) + math.Abs(y1-y0)
	if g.c.Kind == Line {
		g.lines(c, at)
		return
	}
	g.bars(c, at, slot)
}

func (g *data) lines(c draw.Canvas, at func(k, v float64) (float64, float64)) {
	n := len(g.c.Categories)
	for i, s := range g.c.Series {
		pts := make([]vg.Point, n)
		for j, v := range s.Values {
			x, y := at(g.position(j), float64(v))
			pts[j] = vg.Point{X: vg.Length(x), Y: vg.Length(y)}
		}
		c.StrokeLines(lineStyle(s, g.inks[i]), pts)
		if !s.Marker && n <= 45 {
			dot := draw.GlyphStyle{Color: g.inks[i], Radius: 6, Shape: draw.CircleGlyph{}}
			for _, pt := range pts {
				c.DrawGlyph(dot, pt)
			}
		}
	}
}

// bars draws bar series side by side (or end to end on a Stacked chart)
// in the middle 72% of each category's slot, markers across it, and the
// value at the end of each bar where there is one bar to label.
func (g *data) bars(c draw.Canvas, at func(k, v float64) (float64, float64), slot float64) {
	var barSeries []int
	for i, s := range g.c.Series {
		if !s.Marker {
			barSeries = append(barSeries, i)
		}
	}
	band := 0.72 * slot
	thick := band
	if g.c.Kind != Stacked {
		thick = band / float64(len(barSeries))
	}
	horizontal := g.c.Kind.horizontal()
	// rect fills from value a to value b, thick across, centred at offset
	// off from category k's middle.
	rect := func(ink color.Color, k, off, a, b float64) {
		xa, ya := at(k, a)
		xb, yb := at(k, b)
		if horizontal {
			fillRect(c, ink, xa, ya+off-thick/2, xb, yb+off+thick/2)
		} else {
			fillRect(c, ink, xa+off-thick/2, ya, xb+off+thick/2, yb)
		}
	}
	for j := range g.c.Categories {
		k := g.position(j)
		base := 0.0
		for n, i := range barSeries {
			v := float64(g.c.Series[i].Values[j])
			switch {
			case g.c.Kind == Stacked:
				rect(g.inks[i], k, 0, base, base+v)
				base += v
			default:
				off := -band/2 + (float64(n)+0.5)*thick
				if horizontal {
					off = -off // first series on top
				}
				rect(g.inks[i], k, off, 0, v)
			}
		}
		if g.c.Kind == Stacked || len(barSeries) == 1 {
			end := base
			if g.c.Kind != Stacked {
				end = float64(g.c.Series[barSeries[0]].Values[j])
			}
			g.valueLabel(c, at, j, k, end, slot)
		}
		for i, s := range g.c.Series {
			if s.Marker {
				g.marker(c, at, g.inks[i], k, float64(s.Values[j]), band*1.15)
			}
		}
	}
}

// marker draws a line across category k at value v, length long.
func (g *data) marker(c draw.Canvas, at func(k, v float64) (float64, float64), ink color.Color, k, v, long float64) {
	x, y := at(k, v)
	if g.c.Kind.horizontal() {
		c.StrokeLine2(markStyle(ink), vg.Length(x), vg.Length(y-long/2), vg.Length(x), vg.Length(y+long/2))
		return
	}
	c.StrokeLine2(markStyle(ink), vg.Length(x-long/2), vg.Length(y), vg.Length(x+long/2), vg.Length(y))
}

// valueLabel writes v at the end of category j's bar (at coordinate k):
// just past the end, past any marker that would cross the text, or inside
// the bar in white when outside would leave the picture. On vertical bars
// it is written only when it fits the slot's width.
func (g *data) valueLabel(c draw.Canvas, at func(k, v float64) (float64, float64), j int, k, v, slot float64) {
	s := g.c.Series[0].Measure.short(int64(v))
	st := g.valueStyle
	w := g.t.width(st, s)
	horizontal := g.c.Kind.horizontal()
	if !horizontal && w > slot*0.95 {
		return
	}
	// along is a value's pixel coordinate in the direction bars grow;
	// length is the label's extent in that direction.
	along := func(v float64) float64 {
		x, y := at(k, v)
		if horizontal {
			return x
		}
		return y
	}
	length := w
	if !horizontal {
		length = g.lineHeight(st)
	}
	dir := 1.0
	if v < 0 {
		dir = -1
	}
	const gap = 10.0
	end := along(v)
	from := end + dir*gap
	for moved := true; moved; {
		moved = false
		for _, m := range g.c.Series {
			if !m.Marker {
				continue
			}
			if p := along(float64(m.Values[j])); (p-from)*dir >= -4 && (p-from)*dir <= length+4 {
				from, moved = p+dir*gap, true
			}
		}
	}
	// Room outside: to the picture's right edge past horizontal bars (the
	// names are on the left), a little past the plot elsewhere.
	lo, hi := float64(c.Min.X)-4, g.w-12
	if !horizontal {
		lo, hi = float64(c.Min.Y)-16, float64(c.Max.Y)+16
	}
	inside := false
	if far := from + dir*length; far > hi || far < lo {
		if math.Abs(end-along(0)) < length+2*gap {
			return // neither outside nor inside has room
		}
		inside, from = true, end-dir*gap
		st.Color = color.White
	}
	x, y := at(k, v)
	if horizontal {
		x = from
		st.YAlign = text.YCenter
		if (dir < 0) != inside {
			st.XAlign = text.XRight
		}
	} else {
		y = from
		st.XAlign = text.XCenter
		if (dir < 0) != inside {
			st.YAlign = text.YTop
		}
	}
	c.FillText(st, vg.Point{X: vg.Length(x), Y: vg.Length(y)}, s)
}
