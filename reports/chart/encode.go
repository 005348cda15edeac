package chart

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"io"
)

// encodePNG writes an opaque picture as an 8-bit RGB PNG with the "Up"
// filter on every row and the fastest zlib level. image/png tries all five
// filters on every row, which took more than half of a chart's render;
// chart rows repeat the row above (bars, blank space), so Up alone keeps
// the file as small at about half the cost. A picture with any
// transparency goes to image/png.
func encodePNG(w io.Writer, m *image.RGBA) error {
	if !m.Opaque() {
		return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, m)
	}
	b := m.Bounds()
	width, height := b.Dx(), b.Dy()
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, 2 // 8 bits a sample, RGB; deflate, no interlace

	var idat bytes.Buffer
	zw, err := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	if err != nil {
		return fmt.Errorf("chart: png: %w", err)
	}
	bw := bufio.NewWriterSize(zw, 64<<10)
	above := make([]byte, width*3)
	row := make([]byte, 1+width*3)
	row[0] = 2 // Up: each byte minus the one above it
	for y := b.Min.Y; y < b.Max.Y; y++ {
		pix := m.Pix[m.PixOffset(b.Min.X, y):]
		for x, o := 0, 0; x < width; x, o = x+1, o+3 {
			p := pix[x*4 : x*4+3]
			row[1+o], row[2+o], row[3+o] = p[0]-above[o], p[1]-above[o+1], p[2]-above[o+2]
			above[o], above[o+1], above[o+2] = p[0], p[1], p[2]
		}
		if _, err := bw.Write(row); err != nil {
			return fmt.Errorf("chart: png: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("chart: png: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("chart: png: %w", err)
	}

	if _, err := io.WriteString(w, "\x89PNG\r\n\x1a\n"); err != nil {
		return fmt.Errorf("chart: png: %w", err)
	}
	for _, c := range []struct {
		kind string
		data []byte
	}{{"IHDR", ihdr[:]}, {"IDAT", idat.Bytes()}, {"IEND", nil}} {
		if err := writeChunk(w, c.kind, c.data); err != nil {
			return err
		}
	}
	return nil
}

// writeChunk writes one PNG chunk: length, type, data and the CRC of type
// and data.
func writeChunk(w io.Writer, kind string, data []byte) error {
	var head [8]byte
	binary.BigEndian.PutUint32(head[:4], uint32(len(data)))
	copy(head[4:], kind)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	crc.Write(data)
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], crc.Sum32())
	for _, p := range [][]byte{head[:], data, tail[:]} {
		if _, err := w.Write(p); err != nil {
			return fmt.Errorf("chart: png: %w", err)
		}
	}
	return nil
}
