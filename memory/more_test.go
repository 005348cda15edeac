package memory

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// randomMore is a continuation as stored, of odd strings, for
// TestCodecMatchesEncodingJSON.
func randomMore(r *rand.Rand) *wireMore {
	pick := func() string { return odd[r.IntN(len(odd))] }
	w := &wireMore{O: pick(), F: r.IntN(50) - 3, E: r.Int64() - r.Int64()}
	for range r.IntN(3) {
		w.S = put(w.S, pick(), pick())
	}
	for range r.IntN(3) {
		var l []string
		for range 1 + r.IntN(3) {
			l = append(l, pick())
		}
		w.L = put(w.L, pick(), l)
	}
	for range r.IntN(3) {
		w.N = put(w.N, pick(), r.Int64()-r.Int64())
	}
	return w
}

// TestCleanMoreBounds: what a continuation may hold is bounded before it
// is stored: kinds of argument, their lengths and number, the whole stored
// form; an empty one ends the continuation.
func TestCleanMoreBounds(t *testing.T) {
	at := time.Date(2026, 3, 8, 10, 0, 0, 123456789, time.UTC)
	if cleanMore(&Continuation{Tool: "  ", Args: map[string]any{"a": "b"}}) != nil {
		t.Fatal("a continuation without a tool was kept")
	}
	m := cleanMore(&Continuation{Tool: "check_stock", Offset: -4, Expires: at, Args: map[string]any{
		"product": []string{"GC500", "", "GC500", "PH1L"}, "quantity": 240, "period": "last_week",
		"ratio": 0.5, "whole": 3.0, "nested": map[string]any{"x": 1}, "flag": true, "empty": []string{},
		"note": "password=hunter2 " + strings.Repeat("ज", 200), "  ": "no key",
	}})
	if m == nil {
		t.Fatal("a continuation within bounds was dropped")
	}
	want := map[string]any{"product": []string{"GC500", "PH1L"}, "quantity": int64(240), "period": "last_week", "whole": int64(3)}
	for k, v := range want {
		if !reflect.DeepEqual(m.Args[k], v) {
			t.Errorf("%s = %#v, want %#v", k, m.Args[k], v)
		}
	}
	for _, k := range []string{"ratio", "nested", "flag", "empty", "", "  "} {
		if _, ok := m.Args[k]; ok {
			t.Errorf("kept the argument %q", k)
		}
	}
	note, _ := m.Args["note"].(string)
	if strings.Contains(note, "hunter2") || len([]rune(note)) > MaxRowRunes {
		t.Errorf("note kept as %q", note)
	}
	if m.Offset != 0 || !m.Expires.Equal(at.Truncate(time.Millisecond)) {
		t.Errorf("offset %d, expires %v", m.Offset, m.Expires)
	}
	many := map[string]any{}
	for i := range 3 * MaxList {
		many[strings.Repeat("k", i+1)] = int64(i)
	}
	if m := cleanMore(&Continuation{Tool: "t", Args: many}); m == nil || len(m.Args) != MaxList {
		t.Errorf("kept %v of %d arguments, want %d", m, len(many), MaxList)
	}
	huge := map[string]any{}
	for i := range MaxList {
		huge[strings.Repeat("क", i+1)] = []string{strings.Repeat("ख", 50), strings.Repeat("ग", 50), strings.Repeat("घ", 50)}
	}
	if m := cleanMore(&Continuation{Tool: "t", Args: huge}); m != nil {
		t.Errorf("a continuation of %d stored bytes was kept", len(appendMore(nil, wireMoreOf(m))))
	}
}
