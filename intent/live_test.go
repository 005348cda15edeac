package intent

import (
	"context"
	"testing"
)

// names reports whether the entities hold a product or customer of that id.
func names(es []Entity, kind EntityKind, id string) bool {
	for _, e := range es {
		if e.Kind == kind && e.ID == id {
			return true
		}
	}
	return false
}

// A Live routes and reads with the router last swapped in: a product of
// the new catalog is found at once, by Normalize and by Route alike.
func TestLiveSwap(t *testing.T) {
	before, err := NewRouter(Vocabulary{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	after, err := NewRouter(hardwareVocabulary(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	const text = "Khurana ke liye 10 bucket apex bhejo"
	live := NewLive(before)
	if es := live.Normalize(text).Entities; names(es, EntityProduct, "APX20") || names(es, EntityCustomer, "H3") {
		t.Fatalf("before the swap %q names the new catalog: %+v", text, es)
	}
	live.Swap(after)
	if es := live.Normalize(text).Entities; !names(es, EntityProduct, "APX20") || !names(es, EntityCustomer, "H3") {
		t.Fatalf("after the swap %q does not name apex and Khurana: %+v", text, es)
	}
	d := live.Route(context.Background(), text)
	if !names(d.Normalized.Entities, EntityProduct, "APX20") {
		t.Fatalf("Route after the swap read %+v", d.Normalized.Entities)
	}
	if want := after.Route(context.Background(), text); d.Intent != want.Intent || d.Tier != want.Tier {
		t.Errorf("Live routed %s/%s, the new router %s/%s", d.Intent, d.Tier, want.Intent, want.Tier)
	}
}
