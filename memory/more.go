package memory

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The continuation of "reply MORE": its bounds and its stored form.

// maxMoreArgs bounds how many arguments a continuation keeps.
const maxMoreArgs = MaxList

// cleanMore bounds a continuation as it is appended: the tool and the keys
// as IDs, strings as rows (scrubbed), lists as lists of IDs, numbers whole.
// It returns nil for an empty continuation (no tool: the answer was
// complete) and for one whose stored form would pass MaxMoreBytes.
func cleanMore(m *Continuation) *Continuation {
	tool := truncateRunes(strings.TrimSpace(m.Tool), MaxIDRunes)
	if tool == "" {
		return nil
	}
	out := &Continuation{Tool: tool, Offset: max(m.Offset, 0), Expires: time.UnixMilli(m.Expires.UnixMilli()).UTC()}
	for _, k := range slices.Sorted(maps.Keys(m.Args)) {
		key := truncateRunes(strings.TrimSpace(k), MaxIDRunes)
		if key == "" || len(out.Args) == maxMoreArgs {
			continue
		}
		if v, ok := cleanArg(m.Args[k]); ok {
			if out.Args == nil {
				out.Args = map[string]any{}
			}
			out.Args[key] = v
		}
	}
	if len(appendMore(nil, wireMoreOf(out))) > MaxMoreBytes {
		return nil
	}
	return out
}

// cleanArg keeps the kinds of argument a continuation holds.
func cleanArg(v any) (any, bool) {
	switch x := v.(type) {
	case string:
		return truncateRunes(Scrub(strings.TrimSpace(x)), MaxRowRunes), true
	case []string:
		l := boundList(nil, x, MaxIDRunes, true)
		return l, len(l) > 0
	case int:
		return int64(x), true
	case int64:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return int64(x), true
		}
	}
	return nil, false
}

// wireMore is a continuation as stored. Arguments are kept by kind, so
// that the stored form reads back with their types.
type wireMore struct {
	O string              `json:"o"`
	S map[string]string   `json:"s,omitempty"`
	L map[string][]string `json:"l,omitempty"`
	N map[string]int64    `json:"n,omitempty"`
	F int                 `json:"f,omitempty"` // offset
	E int64               `json:"e"`           // expiry, Unix milliseconds
}

func wireMoreOf(m *Continuation) *wireMore {
	if m == nil {
		return nil
	}
	w := &wireMore{O: m.Tool, F: m.Offset, E: m.Expires.UnixMilli()}
	for k, v := range m.Args {
		switch x := v.(type) {
		case string:
			w.S = put(w.S, k, x)
		case []string:
			w.L = put(w.L, k, x)
		case int64:
			w.N = put(w.N, k, x)
		}
	}
	return w
}

func put[V any](m map[string]V, k string, v V) map[string]V {
	if m == nil {
		m = map[string]V{}
	}
	m[k] = v
	return m
}

func (w *wireMore) continuation() *Continuation {
	if w == nil || w.O == "" {
		return nil
	}
	m := &Continuation{Tool: w.O, Offset: w.F, Expires: time.UnixMilli(w.E).UTC()}
	args := map[string]any{}
	for k, v := range w.S {
		args[k] = v
	}
	for k, v := range w.L {
		args[k] = v
	}
	for k, v := range w.N {
		args[k] = v
	}
	if len(args) > 0 {
		m.Args = args
	}
	return m
}

// appendMore writes a continuation as encoding/json would: fields in
// order, map keys sorted.
func appendMore(b []byte, w *wireMore) []byte {
	b = append(b, `{"o":`...)
	b = appendString(b, w.O)
	first := false
	b = appendMap(b, "s", w.S, &first, appendString)
	b = appendMap(b, "l", w.L, &first, func(b []byte, v []string) []byte {
		if v == nil {
			return append(b, "null"...)
		}
		b = append(b, '[')
		for i, s := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, s)
		}
		return append(b, ']')
	})
	b = appendMap(b, "n", w.N, &first, func(b []byte, v int64) []byte { return strconv.AppendInt(b, v, 10) })
	if w.F != 0 {
		b = appendKey(b, "f", &first)
		b = strconv.AppendInt(b, int64(w.F), 10)
	}
	b = appendKey(b, "e", &first)
	b = strconv.AppendInt(b, w.E, 10)
	return append(b, '}')
}

func appendMap[V any](b []byte, key string, m map[string]V, first *bool, value func([]byte, V) []byte) []byte {
	if len(m) == 0 {
		return b
	}
	b = append(appendKey(b, key, first), '{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(appendString(b, k), ':')
		b = value(b, m[k])
	}
	return append(b, '}')
}

// more reads a continuation as appendMore writes it.
func (d *decoder) more(w *wireMore) error {
	return d.object(func(key string) (err error) {
		switch key {
		case "o":
			w.O, err = d.string()
		case "s":
			w.S = map[string]string{}
			err = d.object(func(k string) (err error) { w.S[k], err = d.string(); return err })
		case "l":
			w.L = map[string][]string{}
			err = d.object(func(k string) (err error) { w.L[k], err = d.strings(); return err })
		case "n":
			w.N = map[string]int64{}
			err = d.object(func(k string) (err error) { w.N[k], err = d.int(); return err })
		case "f":
			var n int64
			n, err = d.int()
			w.F = int(n)
		case "e":
			w.E, err = d.int()
		default:
			err = errShape
		}
		return err
	})
}
