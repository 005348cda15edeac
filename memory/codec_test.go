package memory

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

// odd strings the codec must write exactly as encoding/json does.
var odd = []string{
	"", "plain", `quote " and \ backslash`, "line\nbreak\ttab\rcr\bbs\ffeed", "\x00\x01\x1f\x7f",
	"<html> & 'apos'", "₹1,25,400 • उनका बकाया", "emoji 🙏😀", "bad utf8 \xff\xfe end", "\u2028\u2029",
	"lone \xed\xa0\x80 surrogate", "/slash/", "\u00e9\u0301",
}

func randomWire(r *rand.Rand) wireConversation {
	pick := func() string {
		if r.IntN(3) == 0 {
			return odd[r.IntN(len(odd))]
		}
		b := make([]byte, r.IntN(20))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return string(b)
	}
	list := func() []string {
		var l []string
		for range r.IntN(4) {
			l = append(l, pick())
		}
		return l
	}
	w := wireConversation{V: r.IntN(3)}
	for range r.IntN(4) {
		w.T = append(w.T, wireTurn{R: pick(), X: pick(), A: r.Int64() - r.Int64(), I: pick(), C: list(), P: list(), O: pick(), D: pick(), W: list()})
	}
	if r.IntN(2) == 0 {
		w.S = &wireSummary{Q: list(), O: list(), C: list(), P: list(), D: pick(), W: list(), N: r.IntN(100) - 5}
	}
	if r.IntN(2) == 0 {
		w.M = randomMore(r)
	}
	return w
}

func stdEncode(t testing.TB, w wireConversation) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(w); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func TestCodecMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 1500 {
		w := randomWire(r)
		got, want := appendConversation(nil, &w), stdEncode(t, w)
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d: wrote\n%s\nencoding/json writes\n%s", i, got, want)
		}
		var std wireConversation
		if err := json.Unmarshal(got, &std); err != nil {
			t.Fatal(err)
		}
		fast, err := decodeFast(got)
		if err != nil {
			t.Fatalf("case %d: %v on %s", i, err, got)
		}
		if !reflect.DeepEqual(fast, std) {
			t.Fatalf("case %d: read %+v, encoding/json reads %+v", i, fast, std)
		}
	}
}

func TestDecodeFallsBackToEncodingJSON(t *testing.T) {
	// Whitespace, reordered keys and an unknown key: not what the codec
	// writes, still a conversation.
	in := []byte(`{ "t": [ {"x": "GC stock?", "r": "p", "a": 1700000000000, "zz": 1} ], "v": 1 }`)
	c, err := Decode(in)
	if err != nil || len(c.Turns) != 1 || c.Turns[0].Text != "GC stock?" {
		t.Fatalf("Decode = %+v, %v", c, err)
	}
	for _, bad := range []string{`{"v":2}`, `not json`, `{"v":1,"t":[`} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("Decode(%s) accepted", bad)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range odd {
		w := wireConversation{V: 1, T: []wireTurn{{R: "p", X: s}}}
		f.Add(appendConversation(nil, &w))
	}
	f.Add([]byte(`{"v":1,"t":[{"r":"p","x":"\ud83d\ude00 \ud800x \udc00"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		fast, err := decodeFast(b)
		if err != nil {
			return
		}
		var std wireConversation
		if err := json.Unmarshal(b, &std); err != nil {
			t.Fatalf("fast read what encoding/json rejects: %q: %v", b, err)
		}
		// Compared as written back, so that an empty list and none are
		// alike; raw invalid UTF-8 is read as is, not replaced.
		if !bytes.Equal(appendConversation(nil, &fast), appendConversation(nil, &std)) && bytes.Equal(b, bytes.ToValidUTF8(b, nil)) {
			t.Fatalf("read %+v, encoding/json reads %+v", fast, std)
		}
	})
}
