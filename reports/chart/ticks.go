package chart

import "math"

// maxValue bounds every value (₹10 lakh crore in paise): far beyond any
// distributor's books, and small enough that float64 holds every tick
// exactly.
const maxValue = 1e15

// scale is the value axis: from lo to hi in steps of step, all in the
// series' raw units (paise or base units), with 0 always on it so bars
// and trends are measured from nothing.
type scale struct {
	lo, hi, step float64
}

// maxIntervals keeps value labels apart on a phone-sized picture.
const maxIntervals = 5

// newScale picks round steps (1, 2 or 5 times a power of ten, never under
// one rupee or one unit) that cover every value. With such steps a tick
// needs at most one decimal in Indian units, so no two ticks read alike.
func newScale(c Chart) scale {
	lo, hi := 0.0, 0.0
	for _, v := range c.extents() {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	least := 1.0
	if c.Series[0].Measure.IsMoney() {
		least = 100
	}
	if hi == lo {
		hi = least
	}
	raw, step := (hi-lo)/maxIntervals, least
	for m := 0; step < raw; m = (m + 1) % 3 {
		step *= []float64{2, 2.5, 2}[m] // 1 → 2 → 5 → 10 …
	}
	return scale{lo: math.Floor(lo/step) * step, hi: math.Ceil(hi/step) * step, step: step}
}

// ticks are the values a label is written at.
func (s scale) ticks() []float64 {
	n := int(math.Round((s.hi - s.lo) / s.step))
	t := make([]float64, 0, n+1)
	for i := 0; i <= n; i++ {
		t = append(t, s.lo+float64(i)*s.step)
	}
	return t
}

// extents are the values the value axis must reach: every value, and on a
// Stacked chart each category's total.
func (c Chart) extents() []float64 {
	var out []float64
	for i := range c.Categories {
		total := 0.0
		for _, s := range c.Series {
			v := float64(s.Values[i])
			out = append(out, v)
			if c.Kind == Stacked && !s.Marker {
				total += v
			}
		}
		out = append(out, total)
	}
	return out
}
