package erpsync

import (
	"testing"
	"time"
)

// TestStaleAfter: a figure is stale after three times the tier of the
// entity that sets it, the quickest when two do; figures the mapping
// does not give the ERP have none.
func TestStaleAfter(t *testing.T) {
	m := &Mapping{Entities: map[Entity]*EntitySpec{
		Stock:     {Fields: map[string]*FieldSpec{}},
		Products:  {Tier: Duration(time.Hour), Fields: map[string]*FieldSpec{"stock_ready": {Column: "Qty"}}},
		Customers: {Fields: map[string]*FieldSpec{"name": {Column: "Nm"}}},
	}}
	got := m.StaleAfter()
	if want := 3 * DefaultTier(Stock); got[FigureStock] != want || len(got) != 1 {
		t.Fatalf("StaleAfter = %v, want stock %s only", got, want)
	}
}
