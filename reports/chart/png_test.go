package chart

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

func decode(t *testing.T, p *PNG) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(p.Data))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != p.Width || b.Dy() != p.Height {
		t.Fatalf("picture is %v, PNG says %dx%d", b, p.Width, p.Height)
	}
	return img
}

// histogram counts the pixels of each colour in one pass.
func histogram(img image.Image) map[color.RGBA]int {
	h := map[color.RGBA]int{}
	if rgba, ok := img.(*image.RGBA); ok {
		for i := 0; i+3 < len(rgba.Pix); i += 4 {
			h[color.RGBA{rgba.Pix[i], rgba.Pix[i+1], rgba.Pix[i+2], rgba.Pix[i+3]}]++
		}
		return h
	}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			h[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)]++
		}
	}
	return h
}

// inkCount counts the pixels of exactly colour c.
func inkCount(h map[color.RGBA]int, c color.Color) int {
	return h[color.RGBAModel.Convert(c).(color.RGBA)]
}

// coverage counts the colours used and the pixels that are not white.
func coverage(h map[color.RGBA]int) (colours, inked int) {
	for c, n := range h {
		if c != (color.RGBA{255, 255, 255, 255}) {
			inked += n
		}
	}
	return len(h), inked
}

func TestEveryKindDrawsAPictureOfItsData(t *testing.T) {
	for _, k := range Kinds {
		t.Run(string(k), func(t *testing.T) {
			c := sample(k)
			p, err := RenderPNG(c)
			if err != nil {
				t.Fatal(err)
			}
			w, h := Size(k)
			if p.Width != w || p.Height != h || w < 1080 {
				t.Fatalf("size %dx%d, promised %dx%d (at least 1080 wide)", p.Width, p.Height, w, h)
			}
			hist := histogram(decode(t, p))
			colours, inked := coverage(hist)
			if colours < 20 || inked < w*h/50 {
				t.Fatalf("looks blank: %d colours, %d pixels inked", colours, inked)
			}
			// Every series shows in its colour: bars, lines, markers.
			for i, ink := range inks(c.Series) {
				if n := inkCount(hist, ink); n < 300 {
					t.Errorf("series %q: %d pixels of its colour", c.Series[i].Name, n)
				}
			}
			if len(p.Fallbacks) != 0 {
				t.Errorf("fallbacks in a Latin chart: %v", p.Fallbacks)
			}
		})
	}
}

// darkRows is how many pixel rows of the box hold text-dark pixels.
func darkRows(img image.Image, box image.Rectangle) int {
	rows := 0
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r < 0x6000 && g < 0x6000 && b < 0x6000 {
				rows++
				break
			}
		}
	}
	return rows
}

// TestTextIsLargeEnoughForAPhone measures the letters drawn: a capital H
// is about 0.71 of the type size in Noto Sans, so a 40 px title has 28 px
// capitals and 26 px names 18 px ones.
func TestTextIsLargeEnoughForAPhone(t *testing.T) {
	c := Chart{Title: "HHHH", Kind: HorizontalBar, Categories: []Category{{Text: "HHHH"}},
		Series: []Series{QuantitySeries("Stock", "bar", []int64{1})}}
	p, err := RenderPNG(c)
	if err != nil {
		t.Fatal(err)
	}
	img := decode(t, p)
	if h := darkRows(img, image.Rect(0, 0, p.Width, 110)); h < 28 {
		t.Errorf("title capitals are %d px tall, want at least 28", h)
	}
	// The one name sits on the left half way down the plot.
	if h := darkRows(img, image.Rect(0, 150, int(0.38*float64(p.Width)), p.Height-100)); h < 18 {
		t.Errorf("name capitals are %d px tall, want at least 18", h)
	}
}

// TestDevanagariNameIsDrawnAsItsFallback checks a customer named only in
// Devanagari (which the font has no glyphs for, and which would need
// shaping) is drawn as the customer id, and says so.
func TestDevanagariNameIsDrawnAsItsFallback(t *testing.T) {
	c := sample(HorizontalBar)
	c.Categories[1] = Category{Text: "शर्मा जनरल स्टोर", Fallback: "C02"}
	c.Categories[3] = Category{Text: "Gupta 🛒", Fallback: "C04"}
	c.Series[0].Name = "बकाया Outstanding"
	p, err := RenderPNG(c)
	if err != nil {
		t.Fatal(err)
	}
	decode(t, p)
	want := []Fallback{
		{Text: "बकाया Outstanding", Drawn: "Outstanding"},
		{Text: "शर्मा जनरल स्टोर", Drawn: "C02"},
		{Text: "Gupta 🛒", Drawn: "C04"},
	}
	if len(p.Fallbacks) != len(want) {
		t.Fatalf("fallbacks %v, want %v", p.Fallbacks, want)
	}
	for i := range want {
		if p.Fallbacks[i] != want[i] {
			t.Errorf("fallback %d = %v, want %v", i, p.Fallbacks[i], want[i])
		}
	}
}

func TestTitleOfOnlyDevanagariStillDrawsTheChart(t *testing.T) {
	c := sample(Bar)
	c.Title = "बिक्री"
	p, err := RenderPNG(c)
	if err != nil {
		t.Fatal(err)
	}
	decode(t, p)
	if len(p.Fallbacks) != 1 || p.Fallbacks[0].Drawn != "" {
		t.Fatalf("fallbacks %v", p.Fallbacks)
	}
}

// TestHostileTextNeverBreaksThePicture draws names made of controls,
// direction overrides, broken UTF-8, stacked accents, huge words and
// emoji: every chart still decodes.
func TestHostileTextNeverBreaksThePicture(t *testing.T) {
	hostile := []string{
		"\x00\x01\x02", "\u202eerots hsejaR", "\xff\xfe\xfd", "a" + strings.Repeat("\u0301", 200),
		strings.Repeat("W", 1000), "👨‍👩‍👧‍👦", "\n\n\n", "<script>alert(1)</script>", "%s%d%n", "Rajesh\u00a0Kirana",
		strings.Repeat("राजेश ", 50), "\u2028\u2029", "\ufeffBOM", "٣٤٥ عربى",
	}
	for _, k := range Kinds {
		c := sample(k)
		c.Title = hostile[0] + "Title " + hostile[1]
		c.Caption = hostile[2] + hostile[3]
		for i := range c.Categories {
			c.Categories[i] = Category{Text: hostile[(i+3)%len(hostile)], Fallback: hostile[(i+5)%len(hostile)]}
		}
		c.Series[0].Name = hostile[4]
		p, err := RenderPNG(c)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		decode(t, p)
		f := fonts(t)
		for _, fb := range p.Fallbacks {
			if !f.drawable(fb.Drawn) {
				t.Errorf("%s: drew %q, which the font lacks", k, fb.Drawn)
			}
		}
	}
}

func TestExtremeValuesDraw(t *testing.T) {
	for _, tc := range []struct {
		kind   Kind
		values []int64
	}{
		{Line, []int64{0, 0, 0}},
		{Bar, []int64{maxValue, 1, maxValue / 2}},
		{HorizontalBar, []int64{-maxValue, -1, 5}},
		{Stacked, []int64{1, 1, maxValue}},
	} {
		c := Chart{Title: "Extremes", Kind: tc.kind, Categories: []Category{{Text: "a"}, {Text: "b"}, {Text: "c"}},
			Series: []Series{{Name: "x", Measure: Money(), Values: tc.values}}}
		p, err := RenderPNG(c)
		if err != nil {
			t.Fatalf("%s %v: %v", tc.kind, tc.values, err)
		}
		decode(t, p)
	}
}

func TestOneCategoryAndManyCategories(t *testing.T) {
	for _, k := range Kinds {
		n := map[Kind]int{Line: MaxPoints, Bar: MaxBars, HorizontalBar: MaxRows, Stacked: MaxRows}[k]
		for _, count := range []int{1, n} {
			c := Chart{Title: "Many", Kind: k}
			v := make([]domain.Paise, count)
			for i := range v {
				c.Categories = append(c.Categories, Category{Text: "Customer number " + ShortCount(int64(i+1))})
				v[i] = domain.Paise((i%13 + 1) * 10000)
			}
			c.Series = []Series{MoneySeries("Sales", v)}
			p, err := RenderPNG(c)
			if err != nil {
				t.Fatalf("%s × %d: %v", k, count, err)
			}
			if n := inkCount(histogram(decode(t, p)), barInks[0]); n < 50 {
				t.Errorf("%s × %d: %d pixels of data", k, count, n)
			}
		}
	}
}

// TestValueAxisReadsInIndianUnits checks the ticks: round steps from zero
// covering every value, at most five intervals, each label distinct.
func TestValueAxisReadsInIndianUnits(t *testing.T) {
	for _, tc := range []struct {
		values []int64
		money  bool
		want   []string
	}{
		{[]int64{35000000, 12000000}, true, []string{"₹0", "₹1L", "₹2L", "₹3L", "₹4L"}},
		{[]int64{13800000}, true, []string{"₹0", "₹50K", "₹1L", "₹1.5L"}},
		{[]int64{0}, true, []string{"₹0", "₹1"}},
		{[]int64{-4500000, 2000000}, true, []string{"-₹60K", "-₹40K", "-₹20K", "₹0", "₹20K"}},
		{[]int64{3480}, false, []string{"0", "1K", "2K", "3K", "4K"}},
		{[]int64{3}, false, []string{"0", "1", "2", "3"}},
		{[]int64{1200000000}, true, []string{"₹0", "₹50L", "₹1Cr", "₹1.5Cr"}},
	} {
		m := Quantity("bottle")
		if tc.money {
			m = Money()
		}
		c := Chart{Title: "t", Kind: Bar, Categories: make([]Category, len(tc.values)),
			Series: []Series{{Name: "s", Measure: m, Values: tc.values}}}
		var got []string
		for _, v := range newScale(c).ticks() {
			got = append(got, m.short(int64(v)))
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("ticks for %v = %v, want %v", tc.values, got, tc.want)
		}
	}
}

// TestTicksNeverReadAlike sweeps maxima across the units: with round
// steps from zero, one decimal always tells ticks apart.
func TestTicksNeverReadAlike(t *testing.T) {
	for hi := 1.0; hi < maxValue; hi *= 1.37 {
		c := Chart{Title: "t", Kind: Bar, Categories: []Category{{}},
			Series: []Series{{Name: "s", Measure: Money(), Values: []int64{int64(hi)}}}}
		sc := newScale(c)
		seen := map[string]bool{}
		ticks := sc.ticks()
		if len(ticks) < 2 || len(ticks) > maxIntervals+1 || sc.hi < hi || math.Mod(sc.step, 100) != 0 {
			t.Fatalf("max %.0f: ticks %v", hi, ticks)
		}
		for _, v := range ticks {
			s := ShortRupees(domain.Paise(int64(v)))
			if seen[s] {
				t.Fatalf("max %.0f: %q twice in %v", hi, s, ticks)
			}
			seen[s] = true
		}
	}
}

// TestConcurrentRenders shares the fonts between goroutines (run with
// -race).
func TestConcurrentRenders(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, len(Kinds))
	for _, k := range Kinds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := RenderPNG(sample(k)); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
