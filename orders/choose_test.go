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
