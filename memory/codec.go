package memory

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// The stored form is read and written on every message, so it has its own
// small codec for its one shape. It writes exactly what encoding/json
// would (with HTML escaping off) and reads it back; anything it does not
// expect falls back to encoding/json (see Decode). codec_test.go holds it
// to both.

func appendConversation(b []byte, w *wireConversation) []byte {
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(w.V), 10)
	if len(w.T) > 0 {
		b = append(b, `,"t":[`...)
		for i := range w.T {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendTurn(b, &w.T[i])
		}
		b = append(b, ']')
	}
	if s := w.S; s != nil {
		b = append(b, `,"s":{`...)
		first := true
		b = appendList(b, "q", s.Q, &first)
		b = appendList(b, "o", s.O, &first)
		b = appendList(b, "c", s.C, &first)
		b = appendList(b, "p", s.P, &first)
		b = appendField(b, "d", s.D, &first)
		b = appendList(b, "w", s.W, &first)
		if s.N != 0 {
			b = appendKey(b, "n", &first)
			b = strconv.AppendInt(b, int64(s.N), 10)
		}
		b = append(b, '}')
	}
	if w.M != nil {
		b = append(b, `,"m":`...)
		b = appendMore(b, w.M)
	}
	if w.F != nil {
		b = append(b, `,"f":`...)
		b = appendFrame(b, w.F)
	}
	return append(b, '}')
}

func appendTurn(b []byte, t *wireTurn) []byte {
	b = append(b, `{"r":`...)
	b = appendString(b, t.R)
	first := false
	b = appendField(b, "x", t.X, &first)
	b = append(b, `,"a":`...)
	b = strconv.AppendInt(b, t.A, 10)
	b = appendField(b, "i", t.I, &first)
	b = appendList(b, "c", t.C, &first)
	b = appendList(b, "p", t.P, &first)
	b = appendField(b, "o", t.O, &first)
	b = appendField(b, "d", t.D, &first)
	b = appendList(b, "w", t.W, &first)
	return append(b, '}')
}

func appendKey(b []byte, key string, first *bool) []byte {
	if !*first {
		b = append(b, ',')
	}
	*first = false
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

func appendField(b []byte, key, v string, first *bool) []byte {
	if v == "" {
		return b
	}
	return appendString(appendKey(b, key, first), v)
}

func appendList(b []byte, key string, v []string, first *bool) []byte {
	if len(v) == 0 {
		return b
	}
	b = append(appendKey(b, key, first), '[')
	for i, s := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string the way encoding/json does with
// HTML escaping off.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

var errShape = errors.New("memory: stored conversation not in the expected shape")

// decoder reads the stored form as appendConversation writes it: no
// whitespace, known keys.
type decoder struct {
	b []byte
	i int
	// scratch is where escaped strings are unescaped, kept between them:
	// each costs only the string it becomes.
	scratch []byte
}

func decodeFast(b []byte) (w wireConversation, err error) {
	d := decoder{b: b}
	err = d.object(func(key string) error {
		switch key {
		case "v":
			n, err := d.int()
			w.V = int(n)
			return err
		case "t":
			w.T = make([]wireTurn, 0, Window+1)
			return d.array(func() error {
				var t wireTurn
				err := d.object(func(key string) (err error) {
					switch key {
					case "r":
						t.R, err = d.string()
					case "x":
						t.X, err = d.string()
					case "a":
						t.A, err = d.int()
					case "i":
						t.I, err = d.string()
					case "c":
						t.C, err = d.strings()
					case "p":
						t.P, err = d.strings()
					case "o":
						t.O, err = d.string()
					case "d":
						t.D, err = d.string()
					case "w":
						t.W, err = d.strings()
					default:
						err = errShape
					}
					return err
				})
				w.T = append(w.T, t)
				return err
			})
		case "s":
			s := &wireSummary{}
			w.S = s
			return d.object(func(key string) (err error) {
				switch key {
				case "q":
					s.Q, err = d.strings()
				case "o":
					s.O, err = d.strings()
				case "c":
					s.C, err = d.strings()
				case "p":
					s.P, err = d.strings()
				case "d":
					s.D, err = d.string()
				case "w":
					s.W, err = d.strings()
				case "n":
					var n int64
					n, err = d.int()
					s.N = int(n)
				default:
					err = errShape
				}
				return err
			})
		case "m":
			w.M = &wireMore{}
			return d.more(w.M)
		case "f":
			w.F = &wireFrame{}
			return d.frame(w.F)
		}
		return errShape
	})
	if err == nil && d.i != len(d.b) {
		err = errShape
	}
	return w, err
}

func (d *decoder) next(c byte) bool {
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *decoder) object(field func(key string) error) error {
	if !d.next('{') {
		return errShape
	}
	if d.next('}') {
		return nil
	}
	for {
		key, err := d.string()
		if err != nil {
			return err
		}
		if !d.next(':') {
			return errShape
		}
		if err := field(key); err != nil {
			return err
		}
		if d.next('}') {
			return nil
		}
		if !d.next(',') {
			return errShape
		}
	}
}

func (d *decoder) array(elem func() error) error {
	if !d.next('[') {
		return errShape
	}
	if d.next(']') {
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		if d.next(']') {
			return nil
		}
		if !d.next(',') {
			return errShape
		}
	}
}

func (d *decoder) strings() ([]string, error) {
	var out []string
	err := d.array(func() error {
		s, err := d.string()
		out = append(out, s)
		return err
	})
	return out, err
}

func (d *decoder) int() (int64, error) {
	start := d.i
	if d.i < len(d.b) && d.b[d.i] == '-' {
		d.i++
	}
	digits := d.i
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	if d.i-digits > 1 && d.b[digits] == '0' {
		return 0, errShape // JSON has no leading zeros
	}
	n, err := strconv.ParseInt(string(d.b[start:d.i]), 10, 64)
	if err != nil {
		return 0, errShape
	}
	return n, nil
}

func (d *decoder) string() (string, error) {
	if !d.next('"') {
		return "", errShape
	}
	start := d.i
	for d.i < len(d.b) {
		switch c := d.b[d.i]; {
		case c == '"':
			s := string(d.b[start:d.i])
			d.i++
			return s, nil
		case c == '\\':
			return d.escaped(start)
		case c < 0x20:
			return "", errShape
		}
		d.i++
	}
	return "", errShape
}

// escaped finishes a string that has escapes, from its first backslash.
func (d *decoder) escaped(start int) (string, error) {
	out := append(d.scratch[:0], d.b[start:d.i]...)
	defer func() { d.scratch = out[:0] }()
	for d.i < len(d.b) {
		// Copy the run up to the next quote, backslash or control byte.
		j := d.i
		for j < len(d.b) && d.b[j] != '"' && d.b[j] != '\\' && d.b[j] >= 0x20 {
			j++
		}
		out = append(out, d.b[d.i:j]...)
		d.i = j
		if d.i >= len(d.b) {
			break
		}
		switch c := d.b[d.i]; {
		case c == '"':
			d.i++
			return string(out), nil
		case c < 0x20:
			return "", errShape
		}
		if d.i+1 >= len(d.b) {
			return "", errShape
		}
		e := d.b[d.i+1]
		d.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", errShape
			}
			if utf16IsSurrogate(r) {
				// A pair is written \uD83D\uDE00; anything else is the
				// replacement character, as encoding/json reads it.
				r2 := rune(-1)
				if d.i+1 < len(d.b) && d.b[d.i] == '\\' && d.b[d.i+1] == 'u' {
					save := d.i
					d.i += 2
					if x, ok := d.hex4(); ok {
						r2 = x
					} else {
						d.i = save
					}
					if combined := decodeSurrogates(r, r2); combined != utf8.RuneError {
						out = utf8.AppendRune(out, combined)
						continue
					}
					d.i = save
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", errShape
		}
	}
	return "", errShape
}

func (d *decoder) hex4() (rune, bool) {
	if d.i+4 > len(d.b) {
		return 0, false
	}
	var r rune
	for _, c := range d.b[d.i : d.i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	d.i += 4
	return r, true
}

func utf16IsSurrogate(r rune) bool { return r >= 0xd800 && r < 0xe000 }

func decodeSurrogates(r1, r2 rune) rune {
	if r1 >= 0xd800 && r1 < 0xdc00 && r2 >= 0xdc00 && r2 < 0xe000 {
		return (r1-0xd800)<<10 | (r2 - 0xdc00) + 0x10000
	}
	return utf8.RuneError
}
