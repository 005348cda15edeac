package orders

import (
	"testing"

	"github.com/munshi/munshi/intent"
)

// TestWithinTheOrdersGoods: a name two products share means the one the
// order holds; a name the order holds neither or both of stays shared,
// and other entities are left as they were.
func TestWithinTheOrdersGoods(t *testing.T) {
	n := intent.Normalized{Entities: []intent.Entity{
		{Kind: intent.EntityProduct, ID: "PH1L", IDs: []string{"PH1L", "PH5L"}},
		{Kind: intent.EntityNumber, ID: "10", Value: 10},
		{Kind: intent.EntityProduct, ID: "GC500", IDs: []string{"GC500", "GC1L"}},
	}}
	got := within(n, []string{"PH5L", "TC500"})
	if e := got.Entities[0]; e.ID != "PH5L" || len(e.IDs) != 0 {
		t.Errorf("phenyl in an order of Phenyl 5L: %+v", e)
	}
	if e := got.Entities[2]; e.ID != "GC500" || len(e.IDs) != 2 {
		t.Errorf("a name the order holds neither of: %+v", e)
	}
	if n.Entities[0].ID != "PH1L" || len(n.Entities[0].IDs) != 2 {
		t.Errorf("the message read was changed: %+v", n.Entities[0])
	}
	if got := within(n, nil); len(got.Entities[0].IDs) != 2 {
		t.Errorf("no order: %+v", got.Entities[0])
	}
}
