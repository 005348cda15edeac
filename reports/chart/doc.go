// Package chart draws Munshi's charts: a PNG that WhatsApp shows inline,
// and an interactive HTML page of the same chart. reports builds the data
// (a Chart: title with its period, categories, series in paise or base
// units); this package only draws it, and never reads the books, sends a
// message or stores a file. It must not import the store, webhook or
// media packages other than media/assets, whose file name it links to.
//
// # The PNG
//
// RenderPNG draws in pure Go with gonum.org/v1/plot, no browser at run
// time: 1200×675 for trends (Line, Bar), 1080×1080 for rows of names
// (HorizontalBar, Stacked), so that names get the height of a phone
// screen's width. Type is large for a phone: a 44 px bold title, 28 px
// names and legend, 26 px values. Amounts are in Indian units (₹850, ₹45K,
// ₹2.5L, ₹1.2Cr; ShortRupees), on a value axis of round steps from zero
// that Munshi picks itself, so that no two ticks read alike; single bars
// carry their value at the end. Marker series (a credit limit) are drawn
// as a line across each category's bar.
//
// The embedded font is Noto Sans (fonts/, SIL OFL 1.1, from Debian's
// fonts-noto-core), which has Latin and ₹ but no Devanagari, and this
// renderer does no shaping, which Devanagari would need. So every text is
// checked against the font's glyph coverage (sfnt GlyphIndex) before it is
// drawn: a category name the font cannot draw whole is replaced by its
// Fallback (customer id, SKU), a title or series name loses the characters
// it cannot draw, and PNG.Fallbacks lists each replacement. Nothing is
// ever drawn as a box. Long names are shortened with an ellipsis.
//
// # Why gonum/plot
//
// Both candidates were tried on the same 1200×675 chart with Noto Sans at
// phone sizes. github.com/go-analyze/charts v0.6.4 (MIT) makes business
// charts in few lines, but at 26–40 px its layout collided (the legend over
// the title, value ticks over each other), it cannot put a per-customer
// marker on horizontal bars, it rasterises with golang/freetype (untouched
// since 2017), embeds its own fonts and falls back between them silently,
// and its API is pre-1.0 and moving. gonum.org/v1/plot v0.17.0 (BSD-3)
// draws text with golang.org/x/image's opentype (the same sfnt tables the
// coverage check reads, so what is checked is what is drawn), gives full
// control of axes (our own ticks and labels), and lets a chart kind be a
// small Plotter of our own; we lay out the title and legend ourselves. Both
// rendered a test chart in about 75 ms, most of it image/png trying five
// filters on every row; encodePNG writes the same pixels with one filter
// in about half the time, and a chart now renders in 25–75 ms on a busy
// 2-core machine (BenchmarkRenderPNG). gonum/plot's cost is weight: about
// 6 MB more binary (it links its LaTeX, PDF and SVG back ends and
// Liberation fonts), which a server can afford.
//
// # The page
//
// RenderHTML builds the page with github.com/go-echarts/go-echarts/v2. It
// loads ECharts from the assets host it is given (Munshi serves
// media/assets at MUNSHI_PUBLIC_URL/assets/), under the versioned name
// assets.EChartsJS, and refers to no other host: no CDN, no fonts, no
// themes. The value axis has the PNG's ticks and labels, and the tooltip
// gives exact figures (₹12,34,567.89, "2,400 bottles"); both come from a
// table of strings formatted here, so the page, the PNG and the WhatsApp
// text agree. go-echarts writes its options into the script unescaped and
// deletes "__f__" everywhere afterwards, so texts are neutralised before
// they reach it (safeText) and the table is JSON with <, >, &, _ and %
// escaped; the tooltip escapes every text as HTML.
//
// Validate states what a drawable chart is; an empty chart is an error
// (ErrInvalid) for the caller to answer in words, never an empty picture.
package chart
