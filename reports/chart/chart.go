package chart

import (
	"errors"
	"fmt"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// Kind is how a chart draws its series.
type Kind string

const (
	// Line draws each series as a line over ordered categories (days,
	// weeks): a trend.
	Line Kind = "line"
	// Bar draws vertical bars, grouped side by side when there are several
	// series; it suits ordered categories such as days or weeks.
	Bar Kind = "bar"
	// HorizontalBar draws horizontal bars with the category names on the
	// left, first category on top: top customers, top products,
	// outstanding by customer.
	HorizontalBar Kind = "horizontal_bar"
	// Stacked draws horizontal bars whose series are stacked end to end,
	// first category on top: stock ready, committed and in production.
	Stacked Kind = "stacked"
)

// Kinds lists every kind in a stable order.
var Kinds = []Kind{Line, Bar, HorizontalBar, Stacked}

func (k Kind) horizontal() bool { return k == HorizontalBar || k == Stacked }

// Limits keep a chart readable on a phone and its rendering bounded.
const (
	// MaxPoints is the most categories a Line chart takes (a year by day).
	MaxPoints = 366
	// MaxBars is the most categories a Bar chart takes.
	MaxBars = 60
	// MaxRows is the most categories a HorizontalBar or Stacked chart
	// takes; each needs a row tall enough for its name.
	MaxRows = 20
	// MaxSeries is the most series in one chart.
	MaxSeries = 8
	// MaxTextBytes bounds every title, caption, label and series name.
	MaxTextBytes = 1024
)

// Chart is what reports hands a renderer: the books already summed into
// categories and series. It is plain data; RenderPNG and RenderHTML draw it.
type Chart struct {
	// Title names the chart and its period: "Sales by day · 1–30 Nov 2026".
	Title string
	// Caption is an optional line under the title: "Before GST".
	Caption string
	Kind    Kind
	// Categories are the bars or points, in the order drawn.
	Categories []Category
	// Series hold one value per category each; they share one Measure.
	Series []Series
}

// Category is one bar or point: a customer, a product, a day.
type Category struct {
	// Text is the name people know: "Rajesh Kirana Store", "1 Nov".
	Text string
	// Fallback is drawn in the PNG when the font cannot draw Text
	// (Devanagari, emoji): the customer id or the SKU.
	Fallback string
}

// Series is one set of values, one per category.
type Series struct {
	Name    string
	Measure Measure
	// Values are paise for money, base units for quantities.
	Values []int64
	// Marker draws the values as a mark across each category (a credit
	// limit, a target) instead of a bar; on a Line chart, as a dashed line.
	Marker bool
}

// Measure says what a series' values count.
type Measure struct {
	// Unit is the base unit of a quantity ("bottle"); empty for money.
	Unit  string
	money bool
}

// Money is a measure in paise.
func Money() Measure { return Measure{money: true} }

// Quantity is a measure in base units of unit ("bottle", "bar").
func Quantity(unit string) Measure { return Measure{Unit: strings.TrimSpace(unit)} }

// IsMoney reports whether values are paise.
func (m Measure) IsMoney() bool { return m.money }

func (m Measure) String() string {
	if m.money {
		return "₹"
	}
	if m.Unit == "" {
		return "a count"
	}
	return domain.Plural(m.Unit, 2)
}

// MoneySeries is a series of amounts.
func MoneySeries(name string, values []domain.Paise) Series {
	v := make([]int64, len(values))
	for i, p := range values {
		v[i] = int64(p)
	}
	return Series{Name: name, Measure: Money(), Values: v}
}

// QuantitySeries is a series of quantities in base units of unit.
func QuantitySeries(name, unit string, values []int64) Series {
	return Series{Name: name, Measure: Quantity(unit), Values: append([]int64(nil), values...)}
}

// AsMarker returns s drawn as a marker (see Series.Marker).
func (s Series) AsMarker() Series {
	s.Marker = true
	return s
}

// ErrInvalid wraps every reason a chart cannot be drawn; reports answers
// in words instead.
var ErrInvalid = errors.New("chart: cannot draw")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// Validate reports why c cannot be drawn, or nil. An empty chart is an
// error: the caller says "no sales in that period" in words.
func (c Chart) Validate() error {
	if strings.TrimSpace(c.Title) == "" {
		return invalid("no title")
	}
	if len(c.Title) > MaxTextBytes || len(c.Caption) > MaxTextBytes {
		return invalid("title or caption longer than %d bytes", MaxTextBytes)
	}
	limit, ok := map[Kind]int{Line: MaxPoints, Bar: MaxBars, HorizontalBar: MaxRows, Stacked: MaxRows}[c.Kind]
	if !ok {
		return invalid("unknown kind %q", c.Kind)
	}
	if len(c.Categories) == 0 {
		return invalid("no categories")
	}
	if len(c.Categories) > limit {
		return invalid("%d categories; a %s chart draws at most %d", len(c.Categories), c.Kind, limit)
	}
	for i, cat := range c.Categories {
		if len(cat.Text) > MaxTextBytes || len(cat.Fallback) > MaxTextBytes {
			return invalid("category %d longer than %d bytes", i+1, MaxTextBytes)
		}
	}
	if len(c.Series) == 0 {
		return invalid("no series")
	}
	if len(c.Series) > MaxSeries {
		return invalid("%d series; a chart draws at most %d", len(c.Series), MaxSeries)
	}
	bars := 0
	for i, s := range c.Series {
		name := s.Name
		if strings.TrimSpace(name) == "" {
			name = fmt.Sprintf("series %d", i+1)
			if len(c.Series) > 1 {
				return invalid("%s has no name for the legend", name)
			}
		}
		if len(name) > MaxTextBytes {
			return invalid("series %d name longer than %d bytes", i+1, MaxTextBytes)
		}
		if len(s.Values) != len(c.Categories) {
			return invalid("%q has %d values for %d categories", name, len(s.Values), len(c.Categories))
		}
		if s.Measure != c.Series[0].Measure {
			return invalid("%q is in %s but %q is in %s; one chart draws one measure",
				name, s.Measure, c.Series[0].Name, c.Series[0].Measure)
		}
		if !s.Marker {
			bars++
		}
		for j, v := range s.Values {
			if v > maxValue || v < -maxValue {
				return invalid("%q has %d for category %d, out of range", name, v, j+1)
			}
			if v < 0 && c.Kind == Stacked && !s.Marker {
				return invalid("%q is negative for category %d; stacked bars add up parts", name, j+1)
			}
		}
	}
	if bars == 0 {
		return invalid("every series is a marker; nothing to draw them against")
	}
	return nil
}

// recovered turns a panic in a drawing library (go-echarts panics when its
// template fails; gonum/plot on impossible geometry) into an error: no
// chart may take the webhook down with it. Defer it with the render's
// named error.
func recovered(what string, err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("chart: render %s: %v", what, r)
	}
}
