package orders

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestNamesSideBySideAreOneProduct: two names side by side that share a
// product are one line of it: a brand and its product's word ("havells
// wire"), or a word two brands share and the brand ("cement
// ultratech"). Names that share none are two lines. A product named,
// then "bhi" and its quantity, takes it.
func TestNamesSideBySideAreOneProduct(t *testing.T) {
	ps := []domain.Product{
		{SKU: "WIR15", Name: "Havells Wire 1.5mm", Aliases: []string{"havells", "wire"}, Unit: "coil",
			PackSizes: []domain.PackSize{{Name: "box", Units: 5}}, Price: 145000},
		{SKU: "CEMUT", Name: "UltraTech Cement 50kg", Aliases: []string{"ultratech", "cement"}, Unit: "bag", Price: 39000},
		{SKU: "CEMACC", Name: "ACC Cement 50kg", Aliases: []string{"acc", "cement"}, Unit: "bag", Price: 37500},
		{SKU: "PUT20", Name: "Birla Wall Putty 20kg", Aliases: []string{"putty"}, Unit: "bag", Price: 72000},
	}
	cs := []domain.Customer{{ID: "H05", Name: "Sai Traders", Aliases: []string{"Sai"}}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "Sai traders ko 2 box havells wire", customer: "H05", items: map[string]int64{"WIR15": 10}},
		{text: "Sai ko 300 bag cement ultratech", customer: "H05", items: map[string]int64{"CEMUT": 300}},
		{text: "Sai ko 300 bag acc cement", customer: "H05", items: map[string]int64{"CEMACC": 300}},
		{text: "Sai ko 300 bag cement", customer: "H05", ask: []string{"Which product do you mean", "ACC Cement 50kg", "UltraTech Cement 50kg"}},
		{text: "Sai 10 bag putty 5 box wire", customer: "H05", items: map[string]int64{"PUT20": 10, "WIR15": 25}},
		{text: "Sai ke liye 10 bag ultratech aur putty bhi 10 bag", customer: "H05", items: map[string]int64{"CEMUT": 10, "PUT20": 10}},
	} {
		checkParse(t, p, c)
	}
}
