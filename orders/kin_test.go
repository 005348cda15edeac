package orders

import (
	"slices"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestKinNameAnOrderByItsGoods: a customer's order is named by its
// goods; where the product named is in none of the orders, a product of
// its family (two words of the name shared, sizes aside) stands for it:
// "tel wala" is the order of the oil tin. One shared word ("cleaner")
// makes no family, and a family in both orders names neither.
func TestKinNameAnOrderByItsGoods(t *testing.T) {
	ps := []domain.Product{
		{SKU: "OIL1", Name: "Fortune Soyabean Oil 1L", Aliases: []string{"tel", "fortune"}, Unit: "pouch"},
		{SKU: "OIL15", Name: "Fortune Soyabean Oil 15L Tin", Aliases: []string{"oil tin"}, Unit: "tin"},
		{SKU: "RICE25", Name: "Basmati Rice 25kg", Aliases: []string{"chawal"}, Unit: "bag"},
		{SKU: "GC500", Name: "Glass Cleaner 500ml", Aliases: []string{"GC"}, Unit: "bottle"},
		{SKU: "FC1L", Name: "Floor Cleaner 1L", Aliases: []string{"lizol"}, Unit: "bottle"},
	}
	p := parserFor(t, ps, nil)
	if kin := p.kinOf([]string{"OIL1"}); !slices.Contains(kin, "OIL15") || slices.Contains(kin, "RICE25") {
		t.Errorf("kin of the oil pouch: %v", kin)
	}
	if kin := p.kinOf([]string{"GC500"}); slices.Contains(kin, "FC1L") {
		t.Errorf("one shared word made kin: %v", kin)
	}
	ids := []string{"G-2", "G-3"}
	for _, c := range []struct {
		goods      map[string][]string
		text, want string
	}{
		{map[string][]string{"G-2": {"OIL15"}, "G-3": {"RICE25"}}, "tel wala order pahunch gaya", "G-2"},
		{map[string][]string{"G-2": {"OIL15"}, "G-3": {"RICE25"}}, "chawal wala", "G-3"},
		{map[string][]string{"G-2": {"OIL15"}, "G-3": {"OIL15", "RICE25"}}, "tel wala", ""},
		{map[string][]string{"G-2": {"OIL1"}, "G-3": {"OIL15"}}, "tel wala", "G-2"},
		{map[string][]string{"G-2": {"GC500"}, "G-3": {"RICE25"}}, "lizol wala", ""},
	} {
		if got := p.withGoods(p.norm.Normalize(c.text), ids, c.goods); got != c.want {
			t.Errorf("%q of %v: %q, want %q", c.text, c.goods, got, c.want)
		}
	}
}
