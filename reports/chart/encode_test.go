package chart

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"
)

// TestEncodedPNGDecodesToTheSamePixels checks the encoder against
// image/png's decoder, pixel for pixel, on noise (every byte value, every
// difference from the row above) and on an image with an offset origin.
func TestEncodedPNGDecodesToTheSamePixels(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	noise := image.NewRGBA(image.Rect(0, 0, 257, 31))
	for i := range noise.Pix {
		noise.Pix[i] = byte(rng.IntN(256))
		if i%4 == 3 {
			noise.Pix[i] = 255
		}
	}
	offset := image.NewRGBA(image.Rect(5, 7, 40, 29)).SubImage(image.Rect(9, 9, 30, 20)).(*image.RGBA)
	for y := 7; y < 29; y++ {
		for x := 5; x < 40; x++ {
			offset.Set(x, y, color.RGBA{uint8(x * 7), uint8(y * 11), uint8(x * y), 255})
		}
	}
	translucent := image.NewRGBA(image.Rect(0, 0, 3, 3))
	translucent.Set(1, 1, color.RGBA{10, 20, 30, 40})
	for name, img := range map[string]*image.RGBA{"noise": noise, "offset": offset, "translucent": translucent, "one pixel": image.NewRGBA(image.Rect(0, 0, 1, 1))} {
		var buf bytes.Buffer
		if err := encodePNG(&buf, img); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b := img.Bounds()
		if got.Bounds().Dx() != b.Dx() || got.Bounds().Dy() != b.Dy() {
			t.Fatalf("%s: decoded %v, encoded %v", name, got.Bounds(), b)
		}
		for y := 0; y < b.Dy(); y++ {
			for x := 0; x < b.Dx(); x++ {
				want := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y))
				if c := color.NRGBAModel.Convert(got.At(got.Bounds().Min.X+x, got.Bounds().Min.Y+y)); c != want {
					t.Fatalf("%s: pixel %d,%d is %v, want %v", name, x, y, c, want)
				}
			}
		}
	}
}
