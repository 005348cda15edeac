package memorytest

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/memory"
)

// stockPages is what a paged stock answer leaves for "reply MORE".
func stockPages(expires time.Time) *memory.Continuation {
	return &memory.Continuation{Tool: "check_stock", Offset: 10, Expires: expires, Args: map[string]any{
		"product": []string{"GC500", "PH1L"}, "quantity": int64(240), "period": "this_month", "customer": "C03",
	}}
}

func wantMore(t *testing.T, s memory.Store, phone string, want *memory.Continuation) {
	t.Helper()
	c, err := s.Load(ctx(t), phone)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.More, want) {
		t.Fatalf("continuation %+v, want %+v", c.More, want)
	}
}

// testContinuation: where MORE continues is kept with the conversation and
// read by another instance, typed as it was written; an exchange that
// says nothing of it leaves it, an empty one ends it, Forget drops it.
func testContinuation(t *testing.T, b Backend) {
	phone := Phone()
	expires := time.Now().Add(30 * time.Minute).Truncate(time.Millisecond).UTC()
	more := stockPages(expires)
	err := b.Store.Append(ctx(t), phone,
		memory.Turn{Role: memory.RolePerson, Text: "how much stock do we have?"},
		memory.Turn{Role: memory.RoleMunshi, Text: "Stock (1–10 of 14) … reply MORE for the rest", Tool: "check_stock", More: more})
	if err != nil {
		t.Fatal(err)
	}
	wantMore(t, b.peer(), phone, more)

	// A greeting in between says nothing of it.
	err = b.peer().Append(ctx(t), phone,
		memory.Turn{Role: memory.RolePerson, Text: "namaste"}, memory.Turn{Role: memory.RoleMunshi, Text: "Namaste!"})
	if err != nil {
		t.Fatal(err)
	}
	wantMore(t, b.Store, phone, more)

	// The next page replaces it; the last page ends it.
	page2 := stockPages(expires)
	page2.Offset = 20
	if err := b.Store.Append(ctx(t), phone, memory.Turn{Role: memory.RoleMunshi, Text: "page 2", More: page2}); err != nil {
		t.Fatal(err)
	}
	wantMore(t, b.peer(), phone, page2)
	if err := b.Store.Append(ctx(t), phone, memory.Turn{Role: memory.RoleMunshi, Text: "That's all.", More: &memory.Continuation{}}); err != nil {
		t.Fatal(err)
	}
	wantMore(t, b.peer(), phone, nil)

	if err := b.Store.Append(ctx(t), phone, memory.Turn{Role: memory.RoleMunshi, Text: "again", More: more}); err != nil {
		t.Fatal(err)
	}
	if err := b.Store.Forget(ctx(t), phone); err != nil {
		t.Fatal(err)
	}
	wantMore(t, b.peer(), phone, nil)
}

// testContinuationWithinSize: a continuation at the full window of long
// replies stays within MaxBytes and survives the fitting whole; a hostile
// one (unicode, quotes, control characters, too many or too long
// arguments) is bounded, never breaks the stored form, and never costs the
// turns their entities.
func testContinuationWithinSize(t *testing.T, b Backend) {
	phone := Phone()
	turns := RealisticTurns(time.Now())
	expires := time.Now().Add(30 * time.Minute).Truncate(time.Millisecond).UTC()
	more := stockPages(expires)
	turns[len(turns)-1].More = more
	if err := b.Store.Append(ctx(t), phone, turns...); err != nil {
		t.Fatal(err)
	}
	if n := b.Size(t, phone); n <= 0 || n > memory.MaxBytes {
		t.Fatalf("stored %d bytes with a continuation, bound %d", n, memory.MaxBytes)
	}
	wantMore(t, b.peer(), phone, more)
	c, _ := b.peer().Load(ctx(t), phone)
	if len(c.Turns) != memory.Window || c.Turns[9].DraftID != "D-2418" || len(c.Turns[3].Customers) != 7 {
		t.Fatalf("the turns lost entities to the continuation: %d turns, last %+v", len(c.Turns), c.Turns[len(c.Turns)-1])
	}

	hostile := &memory.Continuation{Tool: "sales_summary\x00\u202e", Offset: 1 << 40, Expires: expires, Args: map[string]any{
		"customer": "राजेश \"किराना\" \\ \n\t <script>", "product": []string{"🙏GC500", "\u200d", "PH1L\x07"},
		"period": strings.Repeat("पिछला हफ्ता ", 40), "by": "customer",
	}}
	for i := range 20 {
		hostile.Args[strings.Repeat("k", i+1)] = []string{strings.Repeat("क", 40), strings.Repeat("ख", 40)}
	}
	phone = Phone()
	if err := b.Store.Append(ctx(t), phone, memory.Turn{Role: memory.RoleMunshi, Text: "sales", More: hostile}); err != nil {
		t.Fatal(err)
	}
	if n := b.Size(t, phone); n > memory.MaxBytes {
		t.Fatalf("stored %d bytes, bound %d", n, memory.MaxBytes)
	}
	c, err := b.peer().Load(ctx(t), phone)
	if err != nil || len(c.Turns) != 1 {
		t.Fatalf("Load after a hostile continuation = %+v, %v", c, err)
	}
	// Too large to keep whole: not kept at all, rather than kept changed.
	if c.More != nil {
		t.Fatalf("kept a continuation of %d arguments", len(c.More.Args))
	}
	small := &memory.Continuation{Tool: "sales_summary", Expires: expires, Args: map[string]any{
		"customer": "राजेश \"किराना\" \\ <b>", "product": []string{"🙏GC500"}, "by": "customer",
	}}
	if err := b.Store.Append(ctx(t), phone, memory.Turn{Role: memory.RoleMunshi, Text: "sales", More: small}); err != nil {
		t.Fatal(err)
	}
	wantMore(t, b.peer(), phone, small)
}
