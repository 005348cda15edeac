package chart

import (
	"errors"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// sample is a small chart of each kind with the data reports would send.
func sample(k Kind) Chart {
	switch k {
	case Line:
		var days []Category
		var sales []domain.Paise
		for d := 1; d <= 30; d++ {
			days = append(days, Category{Text: ShortCount(int64(d)) + " Nov"})
			sales = append(sales, domain.Paise(int64(d%7+2)*1234567+int64(d)*99999))
		}
		return Chart{Title: "Sales by day · 1–30 Nov 2026", Caption: "Before GST", Kind: Line,
			Categories: days, Series: []Series{MoneySeries("Sales", sales)}}
	case Bar:
		return Chart{Title: "Sales by week · Nov 2026", Kind: Bar,
			Categories: []Category{{Text: "3 Nov"}, {Text: "10 Nov"}, {Text: "17 Nov"}, {Text: "24 Nov"}},
			Series: []Series{
				MoneySeries("This year", []domain.Paise{45000000, 52000000, 38000000, 61000000}),
				MoneySeries("Last year", []domain.Paise{41000000, 50000000, 42000000, 55000000}),
			}}
	case HorizontalBar:
		return Chart{Title: "Outstanding by customer · 30 Nov 2026", Kind: HorizontalBar,
			Categories: []Category{{Text: "Rajesh Kirana Store", Fallback: "C01"}, {Text: "Sharma General", Fallback: "C02"},
				{Text: "Mehta Traders", Fallback: "C03"}, {Text: "Gupta & Sons", Fallback: "C04"}},
			Series: []Series{
				MoneySeries("Outstanding", []domain.Paise{35000000, 12000000, 9000000, 4500000}),
				MoneySeries("Credit limit", []domain.Paise{40000000, 10000000, 20000000, 5000000}).AsMarker(),
			}}
	case Stacked:
		return Chart{Title: "Stock by product · 30 Nov 2026", Kind: Stacked,
			Categories: []Category{{Text: "Glass Cleaner 500ml", Fallback: "GC500"}, {Text: "Phenyl 1L", Fallback: "PH1L"}, {Text: "Harpic 500ml", Fallback: "HP500"}},
			Series: []Series{
				QuantitySeries("Available", "bottle", []int64{1800, 300, 0}),
				QuantitySeries("Committed", "bottle", []int64{600, 900, 300}),
				QuantitySeries("In production", "bottle", []int64{480, 0, 1000}),
			}}
	}
	panic("no sample for " + string(k))
}

func TestSamplesAreValid(t *testing.T) {
	for _, k := range Kinds {
		if err := sample(k).Validate(); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
}

// TestCannotDrawEmptyOrMismatchedCharts checks that each renderer answers
// a chart it cannot draw with an error that says why, and no output.
func TestCannotDrawEmptyOrMismatchedCharts(t *testing.T) {
	base := sample(HorizontalBar)
	with := func(f func(*Chart)) Chart {
		c := base
		c.Categories = append([]Category(nil), base.Categories...)
		c.Series = append([]Series(nil), base.Series...)
		f(&c)
		return c
	}
	many := func(n int) []Category { return make([]Category, n) }
	for _, tc := range []struct {
		name, want string
		chart      Chart
	}{
		{"zero chart", "no title", Chart{}},
		{"blank title", "no title", with(func(c *Chart) { c.Title = " \n\t" })},
		{"unknown kind", "unknown kind", with(func(c *Chart) { c.Kind = "pie" })},
		{"no categories", "no categories", with(func(c *Chart) { c.Categories = nil })},
		{"no series", "no series", with(func(c *Chart) { c.Series = nil })},
		{"too many rows", "at most 20", with(func(c *Chart) {
			c.Categories = many(21)
			c.Series = []Series{QuantitySeries("x", "bar", make([]int64, 21))}
		})},
		{"too many points", "at most 366", with(func(c *Chart) {
			c.Kind, c.Categories = Line, many(367)
			c.Series = []Series{QuantitySeries("x", "bar", make([]int64, 367))}
		})},
		{"too many bars", "at most 60", with(func(c *Chart) {
			c.Kind, c.Categories = Bar, many(61)
			c.Series = []Series{QuantitySeries("x", "bar", make([]int64, 61))}
		})},
		{"too many series", "at most 8", with(func(c *Chart) {
			c.Series = nil
			for i := 0; i < 9; i++ {
				c.Series = append(c.Series, QuantitySeries(strings.Repeat("s", i+1), "bar", make([]int64, 4)))
			}
		})},
		{"short series", "3 values for 4 categories", with(func(c *Chart) {
			c.Series[0] = MoneySeries("Outstanding", []domain.Paise{1, 2, 3})
		})},
		{"long series", "5 values for 4 categories", with(func(c *Chart) {
			c.Series[1] = MoneySeries("Credit limit", []domain.Paise{1, 2, 3, 4, 5}).AsMarker()
		})},
		{"money beside bottles", "one chart draws one measure", with(func(c *Chart) {
			c.Series[1] = QuantitySeries("Stock", "bottle", []int64{1, 2, 3, 4})
		})},
		{"bottles beside bars", "one chart draws one measure", with(func(c *Chart) {
			c.Series = []Series{QuantitySeries("A", "bottle", make([]int64, 4)), QuantitySeries("B", "bar", make([]int64, 4))}
		})},
		{"unnamed series among two", "no name", with(func(c *Chart) { c.Series[1].Name = " " })},
		{"only markers", "every series is a marker", with(func(c *Chart) { c.Series = c.Series[1:] })},
		{"negative part of a stack", "negative", with(func(c *Chart) {
			*c = sample(Stacked)
			c.Series[1] = QuantitySeries("Committed", "bottle", []int64{600, -1, 300})
		})},
		{"absurd amount", "out of range", with(func(c *Chart) {
			c.Series[0] = MoneySeries("Outstanding", []domain.Paise{1, 2, 3, 1e18})
		})},
		{"oversized title", "longer than", with(func(c *Chart) { c.Title = strings.Repeat("स", 400) })},
		{"oversized name", "longer than", with(func(c *Chart) { c.Categories[2].Text = strings.Repeat("x", 5000) })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs := map[string]error{"Validate": tc.chart.Validate()}
			png, err := RenderPNG(tc.chart)
			errs["RenderPNG"] = err
			if png != nil {
				t.Errorf("RenderPNG drew %d bytes", len(png.Data))
			}
			page, err := RenderHTML(tc.chart, "http://127.0.0.1:8080/assets/")
			errs["RenderHTML"] = err
			if page != nil {
				t.Errorf("RenderHTML wrote %d bytes", len(page))
			}
			for who, err := range errs {
				if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: %v, want ErrInvalid saying %q", who, err, tc.want)
				}
			}
		})
	}
}

func TestOneUnnamedSeriesIsEnough(t *testing.T) {
	c := sample(Line)
	c.Series[0].Name = ""
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestSeriesConstructorsCopyTheirValues(t *testing.T) {
	q := []int64{1, 2}
	s := QuantitySeries("Ready", " bottle ", q)
	q[0] = 99
	if s.Values[0] != 1 || s.Measure.Unit != "bottle" || s.Measure.IsMoney() {
		t.Fatalf("%+v", s)
	}
	m := MoneySeries("Sales", []domain.Paise{150})
	if !m.Measure.IsMoney() || m.Values[0] != 150 || m.Marker || !m.AsMarker().Marker {
		t.Fatalf("%+v", m)
	}
}

func TestPanicInADrawingLibraryBecomesAnError(t *testing.T) {
	render := func() (err error) {
		defer recovered("png", &err)
		var m map[string]int
		m["boom"]++ // a nil map write panics
		return nil
	}
	if err := render(); err == nil || !strings.Contains(err.Error(), "chart: render png") {
		t.Fatalf("%v", err)
	}
}
