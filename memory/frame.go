package memory

import (
	"strconv"
	"time"
)

// MaxFrameBytes bounds a pending question's data; a larger one is not kept
// (the next message is then read as a message of its own).
const MaxFrameBytes = 1536

// Frame is a question Munshi asked and is waiting on: the draft or note so
// far, the slot asked about and the answers offered. Its Data belongs to
// whoever asked (memory keeps it as it is, unscrubbed: it is Munshi's own
// structure, not the person's text); it ends at Expires, or when a turn
// replaces or clears it.
type Frame struct {
	Data    string
	Expires time.Time
}

// Live reports whether the frame is still waiting at now.
func (f *Frame) Live(now time.Time) bool {
	return f != nil && f.Data != "" && now.Before(f.Expires)
}

// wireFrame is a frame as stored.
type wireFrame struct {
	D string `json:"d"`
	E int64  `json:"e"` // expiry, Unix milliseconds
}

func wireFrameOf(f *Frame) *wireFrame {
	if f == nil || f.Data == "" {
		return nil
	}
	return &wireFrame{D: f.Data, E: f.Expires.UnixMilli()}
}

func (w *wireFrame) frame() *Frame {
	if w == nil || w.D == "" {
		return nil
	}
	return &Frame{Data: w.D, Expires: time.UnixMilli(w.E).UTC()}
}

// cleanFrame bounds a frame as it is appended: an empty or oversized one
// clears the conversation's frame.
func cleanFrame(f *Frame) *Frame {
	if f.Data == "" || len(f.Data) > MaxFrameBytes {
		return nil
	}
	return &Frame{Data: f.Data, Expires: time.UnixMilli(f.Expires.UnixMilli()).UTC()}
}

// appendFrame writes a frame as encoding/json would.
func appendFrame(b []byte, w *wireFrame) []byte {
	b = append(b, `{"d":`...)
	b = appendString(b, w.D)
	b = append(b, `,"e":`...)
	b = strconv.AppendInt(b, w.E, 10)
	return append(b, '}')
}

// frame reads a frame as appendFrame writes it.
func (d *decoder) frame(w *wireFrame) error {
	return d.object(func(key string) (err error) {
		switch key {
		case "d":
			w.D, err = d.string()
		case "e":
			w.E, err = d.int()
		default:
			err = errShape
		}
		return err
	})
}
