package intent

import (
	"slices"
	"strings"
	"unicode"
)

// A follow-up often names only what sets another product apart from the
// one just asked about: "aur 180 wale ka?" after Sunsilk 650ml's stock,
// "aur ladies wali?" after the gents' hawai chappal, "aur dark ka?" after
// the light wall tile. Variant finds that other product from the names.

// variantNames are each product's names (its name and aliases) as runs
// of letters and of digits, measures aside: "Sunsilk Black Shine Shampoo
// 180ml" is sunsilk, black, shine, shampoo, 180.
type variantNames struct {
	skus  []string
	names [][][]string
	// customers are the customers' names, the same way, by id.
	customers map[string][][]string
}

func newVariantNames(v Vocabulary) variantNames {
	out := variantNames{customers: map[string][][]string{}}
	for _, p := range v.Products {
		if p.Inactive {
			continue
		}
		names := [][]string{nameRuns(p.Name)}
		for _, a := range p.Aliases {
			names = append(names, nameRuns(a))
		}
		out.skus, out.names = append(out.skus, p.SKU), append(out.names, names)
	}
	for _, c := range v.Customers {
		names := [][]string{nameRuns(c.Name)}
		for _, a := range c.Aliases {
			names = append(names, nameRuns(a))
		}
		out.customers[c.ID] = names
	}
	return out
}

// CustomerAmong is the one of the customers ids whose name or an alias
// has every run of said: after both Patils' dues, "tiles wala" is Patil
// Tiles & Sanitary. False when none or more than one has them.
func (r *Router) CustomerAmong(ids, said []string) (string, bool) {
	want := runsOf(said)
	if len(want) == 0 {
		return "", false
	}
	found := ""
	for _, id := range ids {
		if !slices.ContainsFunc(r.variants.customers[id], func(name []string) bool { return hasAll(name, want) }) {
			continue
		}
		if found != "" && found != id {
			return "", false
		}
		found = id
	}
	return found, found != ""
}

// nameRuns splits a name into lower-case runs of letters and of digits,
// dropping measures ("ml", "g", "kg") and runs of one letter.
func nameRuns(s string) []string {
	var out []string
	var run []rune
	digits := false
	flush := func() {
		w := string(run)
		run = run[:0]
		if w == "" {
			return
		}
		if _, measure := measureSuffixes[w]; measure || !digits && len([]rune(w)) < 2 {
			return
		}
		out = append(out, w)
	}
	for _, c := range strings.ToLower(s) {
		switch {
		case unicode.IsDigit(c):
			if !digits {
				flush()
			}
			digits = true
			run = append(run, c)
		case unicode.IsLetter(c) || unicode.IsMark(c):
			if digits {
				flush()
			}
			digits = false
			run = append(run, c)
		default:
			flush()
		}
	}
	flush()
	return out
}

// Variant is the product other than sku that has every run of said
// (split as names are) in one of its names and shares the most words of
// letters with sku's names: the other size or kind of the same thing.
// False when none does, or two share as many.
func (r *Router) Variant(sku string, said []string) (string, bool) {
	v := r.variants
	k := slices.Index(v.skus, sku)
	if k < 0 {
		return "", false
	}
	want := runsOf(said)
	if len(want) == 0 {
		return "", false
	}
	family := map[string]bool{}
	for _, name := range v.names[k] {
		for _, w := range name {
			if !isNumber(w) {
				family[w] = true
			}
		}
	}
	found, best, tied := "", 0, false
	for i, names := range v.names {
		if i == k || !slices.ContainsFunc(names, func(name []string) bool { return hasAll(name, want) }) {
			continue
		}
		switch n := shared(names, family); {
		case n > best:
			found, best, tied = v.skus[i], n, false
		case n == best && n > 0:
			tied = true
		}
	}
	return found, found != "" && !tied
}

// shared counts the distinct words of names that are in family.
func shared(names [][]string, family map[string]bool) int {
	seen := map[string]bool{}
	for _, name := range names {
		for _, w := range name {
			if family[w] {
				seen[w] = true
			}
		}
	}
	return len(seen)
}

// runsOf is the runs of every word said, split as names are.
func runsOf(said []string) []string {
	var want []string
	for _, w := range said {
		want = append(want, nameRuns(w)...)
	}
	return want
}

func hasAll(name, want []string) bool {
	for _, w := range want {
		if !slices.Contains(name, w) {
			return false
		}
	}
	return true
}

// narrowed is n with each product name several products share settled by
// a word beside it that only one of them has in a name: asked "examination
// gloves medium stock?", the medium gloves, not both. Orders settle it the
// same way as they are read (orders.Parser.narrowBeside).
func (r *Router) narrowed(n Normalized) Normalized {
	var out []Entity
	for k, e := range n.Entities {
		if e.Kind != EntityProduct || len(e.IDs) < 2 {
			continue
		}
		for _, at := range [2]int{e.End, e.Start - 1} {
			if at < 0 || at >= len(n.Tokens) || n.inEntity(at) {
				continue
			}
			if sku, ok := r.onlyNaming(e.IDs, n.Tokens[at].Text); ok {
				if out == nil {
					out = slices.Clone(n.Entities)
				}
				out[k].ID, out[k].IDs, out[k].Start, out[k].End = sku, []string{sku}, min(e.Start, at), max(e.End, at+1)
				break
			}
		}
	}
	if out != nil {
		n.Entities = out
	}
	return n
}

// onlyNaming is the one of skus with w in a name of its own.
func (r *Router) onlyNaming(skus []string, w string) (string, bool) {
	want := nameRuns(w)
	if len(want) != 1 || isNumber(want[0]) {
		return "", false
	}
	found := ""
	for _, sku := range skus {
		k := slices.Index(r.variants.skus, sku)
		if k < 0 || !slices.ContainsFunc(r.variants.names[k], func(name []string) bool { return hasAll(name, want) }) {
			continue
		}
		if found != "" {
			return "", false
		}
		found = sku
	}
	return found, found != ""
}

// inEntity reports a token inside a name, number, unit or size found.
func (n Normalized) inEntity(i int) bool {
	return slices.ContainsFunc(n.Entities, func(e Entity) bool { return e.Start <= i && i < e.End })
}
