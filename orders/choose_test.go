package orders

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestAnAnswerInAnotherEnding: a word of a product's name answers for it
// in another of its Hindi endings ("chilke wali" for Moong Dal Chilka),
// where words that only share their first letters do not.
func TestAnAnswerInAnotherEnding(t *testing.T) {
	ps := []domain.Product{
		{SKU: "MOONGCH", Name: "Moong Dal Chilka", Aliases: []string{"moong"}, Unit: "kg", Price: 10800},
		{SKU: "MOONGDH", Name: "Moong Dal Dhuli", Aliases: []string{"moong"}, Unit: "kg", Price: 11800},
	}
	p := parserFor(t, ps, nil)
	for answer, want := range map[string]string{"chilke wali": "MOONGCH", "chilka": "MOONGCH", "dhula wala": "MOONGDH", "chalo": ""} {
		got, ok := p.pickProduct(p.norm.Normalize(answer), []string{"MOONGCH", "MOONGDH"})
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("%q chose %q, want %q", answer, got, want)
		}
	}
}

// TestAnAnswerByPlaceOrSize: the third of three sizes is "teesra"; the
// first is Bengali's "prothom ta"; the smallest is "sabse chhota" or
// Bengali's "sobcheye chhoto ta".
func TestAnAnswerByPlaceOrSize(t *testing.T) {
	ps := []domain.Product{
		{SKU: "GM050", Name: "Everest Garam Masala 50g", Aliases: []string{"garam masala"}, Unit: "packet", Price: 3800},
		{SKU: "GM100", Name: "Everest Garam Masala 100g", Aliases: []string{"garam masala"}, Unit: "packet", Price: 7400},
		{SKU: "GM500", Name: "Everest Garam Masala 500g", Aliases: []string{"garam masala"}, Unit: "packet", Price: 33500},
	}
	p := parserFor(t, ps, nil)
	options := []string{"GM050", "GM100", "GM500"}
	for answer, want := range map[string]string{"teesra": "GM500", "prothom ta": "GM050", "sabse chhota": "GM050",
		"sobcheye chhoto ta": "GM050", "sabse bada wala": "GM500"} {
		got, ok := p.pickProduct(p.norm.Normalize(answer), options)
		if !ok || got != want {
			t.Errorf("%q chose %q (%v), want %q", answer, got, ok, want)
		}
	}
}

// TestAnAnswerByTheSizesInAName: "1 se 5 number wale" picks School Shoe
// (1-5) over the kids' (10-13): digits alone answer when a name has them
// as they are, never as the start of another number.
func TestAnAnswerByTheSizesInAName(t *testing.T) {
	ps := []domain.Product{
		{SKU: "SCHB", Name: "Action School Shoe Black (1-5)", Aliases: []string{"school shoe"}, Unit: "pair", Price: 32500},
		{SKU: "SCHK", Name: "Action School Shoe Black Kids (10-13)", Aliases: []string{"school shoe"}, Unit: "pair", Price: 26500},
	}
	p := parserFor(t, ps, nil)
	for answer, want := range map[string]string{"1 se 5 number wale": "SCHB", "10 se 13 wala": "SCHK", "3": ""} {
		got, ok := p.pickProduct(p.norm.Normalize(answer), []string{"SCHB", "SCHK"})
		if !ok {
			got = ""
		}
		if got != want {
			t.Errorf("%q chose %q, want %q", answer, got, want)
		}
	}
}

// TestACustomerAnsweredWithAProductsWord: "feed store wala", answering
// which Garg, names Garg Feed Store though "feed" is also a product's
// alias; a product named by words of neither customer is no answer.
func TestACustomerAnsweredWithAProductsWord(t *testing.T) {
	ps := []domain.Product{{SKU: "KPL50", Name: "Kapila Cattle Feed 50 kg", Aliases: []string{"feed", "kapila"}, Unit: "bag", Price: 145000}}
	cs := []domain.Customer{{ID: "F02", Name: "Garg Feed Store", Aliases: []string{"garg"}}, {ID: "F05", Name: "Garg Poultry Farm", Aliases: []string{"garg"}}}
	p := parserFor(t, ps, cs)
	options := []string{"F02", "F05"}
	if n := p.norm.Normalize("feed store wala"); !p.namesOfOptions(n, options) {
		t.Errorf("feed store wala: not read as the customers' words")
	} else if id, _, ok := p.pickCustomer(n, options); !ok || id != "F02" {
		t.Errorf("feed store wala chose %q, %v; want F02", id, ok)
	}
	if p.namesOfOptions(p.norm.Normalize("kapila feed"), options) {
		t.Errorf("kapila feed: read as the customers' words")
	}
}
