package intent

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/catalogtest"
)

// near finds exactly the words a comparison with every word finds: those
// of five letters or more within one insertion, deletion, substitution or
// swap, in any script, the word itself left out.
func TestTypoIndexFindsWhatAScanFinds(t *testing.T) {
	b := catalogtest.Generate(catalogtest.WithCustomers(2000), 9)
	seen := map[string]bool{}
	var words []string
	add := func(text string) {
		for _, w := range strings.Fields(strings.ToLower(text)) {
			if !seen[w] {
				seen[w] = true
				words = append(words, w)
			}
		}
	}
	for _, p := range b.Products {
		add(p.Name + " " + strings.Join(p.Aliases, " "))
	}
	for _, c := range b.Customers {
		add(c.Name + " " + strings.Join(c.Aliases, " "))
	}
	add("phenyl phenol phenyle fenyl phneyl phenyll सूर्या सूर्य सुर्या फिनाइल aaaaa aaaab aaaba baaaa")
	x := newTypoIndex(words)
	rng := rand.New(rand.NewPCG(5, 6))
	probes := slices.Clone(words)
	for range 3000 {
		r := []rune(words[rng.IntN(len(words))])
		k := rng.IntN(len(r))
		switch rng.IntN(4) {
		case 0:
			r = append(r[:k:k], r[k+1:]...)
		case 1:
			r = append(r[:k:k], append([]rune{'a'}, r[k:]...)...)
		case 2:
			r[k] = 'ि'
		default:
			if k+1 < len(r) {
				r[k], r[k+1] = r[k+1], r[k]
			}
		}
		probes = append(probes, string(r))
	}
	found := 0
	for _, w := range probes {
		var want []int32
		for id, c := range words {
			if c != w && fuzzyWord(c) && withinOneEdit(w, c) {
				want = append(want, int32(id))
			}
		}
		got := x.near(w, nil)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("near %q: %v, want %v", w, got, want)
		}
		found += len(got)
	}
	if found < 1000 {
		t.Fatalf("only %d neighbours found: the probes test too little", found)
	}
}
