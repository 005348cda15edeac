package chart

import (
	"slices"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// latencies records each iteration's time so that a benchmark can report
// its p99 beside the mean.
type latencies []time.Duration

func (l *latencies) measure(f func()) {
	start := time.Now()
	f()
	*l = append(*l, time.Since(start))
}

func (l latencies) report(b *testing.B) {
	if len(l) == 0 {
		return
	}
	s := slices.Clone(l)
	slices.Sort(s)
	var sum time.Duration
	for _, d := range s {
		sum += d
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(sum/time.Duration(len(s))), "mean-ms")
	b.ReportMetric(ms(s[min(len(s)-1, len(s)*99/100)]), "p99-ms")
}

// topCustomers is the chart "top 10 customers" asks for.
func topCustomers() Chart {
	c := Chart{Title: "Top 10 customers · 1–30 Nov 2026", Caption: "Sales before GST", Kind: HorizontalBar}
	var v []domain.Paise
	for i := 0; i < 10; i++ {
		c.Categories = append(c.Categories, Category{Text: "Customer " + ShortCount(int64(i+1)) + " Kirana Store", Fallback: "C" + ShortCount(int64(i+1))})
		v = append(v, domain.Paise(int64(10-i)*1234567))
	}
	c.Series = []Series{MoneySeries("Sales", v)}
	return c
}

func benchCharts() map[string]Chart {
	return map[string]Chart{
		"TopCustomers": topCustomers(),
		"Outstanding":  sample(HorizontalBar),
		"SalesByDay":   sample(Line),
		"SalesByWeek":  sample(Bar),
		"Stock":        sample(Stacked),
	}
}

// benchRender runs render on each benchmark chart, reporting mean and p99.
func benchRender(b *testing.B, render func(Chart) error) {
	for name, c := range benchCharts() {
		b.Run(name, func(b *testing.B) {
			var l latencies
			b.ReportAllocs()
			for b.Loop() {
				l.measure(func() {
					if err := render(c); err != nil {
						b.Fatal(err)
					}
				})
			}
			l.report(b)
		})
	}
}

func BenchmarkRenderPNG(b *testing.B) {
	benchRender(b, func(c Chart) error {
		_, err := RenderPNG(c)
		return err
	})
}

func BenchmarkRenderHTML(b *testing.B) {
	benchRender(b, func(c Chart) error {
		_, err := RenderHTML(c, testAssets)
		return err
	})
}
