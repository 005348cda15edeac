package mediatest

import (
	"archive/zip"
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"strings"
)

// PNG returns a real PNG of w×h opaque pixels of noise, which does not
// compress: about 3·w·h bytes (258×258 is a 200 KB chart).
func PNG(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(uint64(w), uint64(h)))
	for y := range h {
		for x := range w {
			img.SetNRGBA(x, y, color.NRGBA{uint8(r.Uint32()), uint8(r.Uint32()), uint8(r.Uint32()), 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err) // an in-memory encode of a valid image does not fail
	}
	return b.Bytes()
}

// XLSX returns a zip, as an .xlsx is, holding one sheet of about n bytes.
func XLSX(n int) []byte {
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	w, err := z.CreateHeader(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Store})
	if err == nil {
		_, err = w.Write([]byte(strings.Repeat("<row/>", n/6+1)))
	}
	if err == nil {
		err = z.Close()
	}
	if err != nil {
		panic(err) // writing to memory does not fail
	}
	return b.Bytes()
}

// Script is the inline script of Page, as a browser hashes it.
const Script = "\n\"use strict\";\nlet goecharts_sales = echarts.init(document.getElementById('sales'), \"white\");\n" +
	"goecharts_sales.setOption({\"title\":{\"text\":\"बिक्री — Sales, Nov 2026\"},\"xAxis\":[{\"data\":[\"GC500\",\"PH1L\"]}]," +
	"\"series\":[{\"type\":\"line\",\"data\":[2400,900]}]});\n"

// Page returns an interactive chart page as go-echarts writes it: the
// library from Munshi's /assets/ route, the chart's options in an inline
// script, its size in a style attribute, Devanagari in the title.
func Page() []byte {
	return []byte("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>बिक्री</title>\n" +
		"<script src=\"/assets/echarts.min.js\"></script>\n<style>.container {display: flex;}</style>\n</head>\n<body>\n" +
		"<div class=\"container\"><div class=\"item\" id=\"sales\" style=\"width:900px;height:500px;\"></div></div>\n" +
		"<script type=\"text/javascript\">" + Script + "</script>\n</body>\n</html>\n")
}

// Filled returns a body of exactly n bytes that passes Put's content check
// for a name ending in ext (.png, .html or .xlsx), for the size limits.
func Filled(ext string, n int) []byte {
	head := map[string]string{".png": "\x89PNG\r\n\x1a\n", ".xlsx": "PK\x03\x04", ".html": "<!DOCTYPE html>"}[ext]
	b := make([]byte, n)
	copy(b, head)
	for i := len(head); i < n; i++ {
		b[i] = ' '
	}
	return b
}

// Colours counts the distinct colours of a picture on a grid of every
// seventh pixel: a blank chart shows one or two, a drawn one many.
func Colours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
		}
	}
	return len(seen)
}
