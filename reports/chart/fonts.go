package chart

import (
	"embed"
	"fmt"
	"image/color"
	"sync"

	xfont "golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
)

// Noto Sans (SIL Open Font License 1.1, fonts/OFL.txt) from Debian's
// fonts-noto-core: Latin, Greek, Cyrillic and the rupee sign U+20B9, in a
// TrueType build that x/image reads.
//
//go:embed fonts/NotoSans-Regular.ttf fonts/NotoSans-Bold.ttf
var fontFiles embed.FS

const typeface font.Typeface = "Noto Sans"

// typefaces are the parsed fonts, shared by every render: sfnt fonts are
// safe for concurrent use when each call has its own buffer.
type typefaces struct {
	regular, bold *sfnt.Font
	handler       text.Plain
}

var loadFonts = sync.OnceValues(func() (*typefaces, error) {
	parse := func(name string) (*sfnt.Font, error) {
		b, err := fontFiles.ReadFile("fonts/" + name)
		if err != nil {
			return nil, fmt.Errorf("chart: font %s: %w", name, err)
		}
		f, err := opentype.Parse(b)
		if err != nil {
			return nil, fmt.Errorf("chart: font %s: %w", name, err)
		}
		return f, nil
	}
	regular, err := parse("NotoSans-Regular.ttf")
	if err != nil {
		return nil, err
	}
	bold, err := parse("NotoSans-Bold.ttf")
	if err != nil {
		return nil, err
	}
	cache := font.NewCache(font.Collection{
		{Font: font.Font{Typeface: typeface}, Face: regular},
		{Font: font.Font{Typeface: typeface, Weight: xfont.WeightBold}, Face: bold},
	})
	return &typefaces{regular: regular, bold: bold, handler: text.Plain{Fonts: cache}}, nil
})

// style is text in Noto Sans at size px (the canvas is 72 dpi, so a point
// is a pixel).
func (t *typefaces) style(size float64, bold bool, c color.Color) text.Style {
	f := font.Font{Typeface: typeface, Size: font.Length(size)}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return text.Style{Color: c, Font: f, Handler: t.handler}
}

// width is how many pixels s takes in st.
func (t *typefaces) width(st text.Style, s string) float64 {
	face := t.handler.Fonts.Lookup(st.Font, st.Font.Size)
	return float64(face.Width(s))
}

// covers reports whether both weights have a glyph for r. Controls,
// format characters (joiners, direction overrides) and U+FFFD (what broken
// UTF-8 decodes to) count as not drawable: drawn alone they would be boxes
// or nothing, or they ask for shaping this renderer does not do.
func (t *typefaces) covers(buf *sfnt.Buffer, r rune) bool {
	if r == '\uFFFD' || isControlOrFormat(r) {
		return false
	}
	for _, f := range []*sfnt.Font{t.regular, t.bold} {
		if i, err := f.GlyphIndex(buf, r); err != nil || i == 0 {
			return false
		}
	}
	return true
}

// drawable reports whether every rune of s has a glyph.
func (t *typefaces) drawable(s string) bool {
	var buf sfnt.Buffer
	for _, r := range s {
		if !t.covers(&buf, r) {
			return false
		}
	}
	return true
}
