package orders

import (
	"maps"
	"sort"
	"strconv"
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// catalogWords reads the words a catalog repeats, each once.
type catalogWords struct {
	apart     map[string]string    // packs kept apart (intent.PacksApart)
	canonical map[string]string    // unit name → its canonical name
	measures  map[string]measureOf // base unit → the measure it is
	names     map[string][]string  // customer name → its canonical words
	// unitSets are the units of the products sold in the same units and
	// packs, shared: by their base unit and packs, written as a key.
	unitSets map[string]map[string]int64
	key      []byte
	// last is where each unit or pack name was last named.
	last  map[string]int
	named int
}

type measureOf struct {
	m  measure
	ok bool
}

func (c *catalogWords) canonicalUnit(name string) string {
	u, ok := c.canonical[name]
	if !ok {
		u = canonicalUnitIn(c.apart, name)
		c.canonical[name] = u
	}
	return u
}

// units are the product's units by canonical name, in base units, shared
// by the products sold the same way (the maps are never written after).
func (c *catalogWords) units(x domain.Product) map[string]int64 {
	// Each name's length before it, so that no two lists write one key.
	k := strconv.AppendInt(c.key[:0], int64(len(x.Unit)), 10)
	k = append(append(k, ':'), x.Unit...)
	for _, ps := range x.PackSizes {
		k = strconv.AppendInt(k, int64(len(ps.Name)), 10)
		k = append(append(k, ':'), ps.Name...)
		k = append(strconv.AppendInt(k, ps.Units, 10), ';')
	}
	c.key = k
	if u, ok := c.unitSets[string(k)]; ok {
		return u
	}
	u := productUnitsIn(x, c.canonicalUnit)
	shareApart(c.apart, u)
	c.unitSets[string(k)] = u
	return u
}

// shareApart lets a product that comes in one of the packs a catalog
// keeps apart be ordered in the others' names: where dal comes by the
// bori and the bag, rice sold only by the bori is ordered by the "bag"
// too.
func shareApart(apart map[string]string, units map[string]int64) {
	var add map[string]int64
	for name, family := range apart {
		if _, ok := units[name]; ok {
			continue
		}
		var held int64
		for other, f := range apart {
			if n, ok := units[other]; ok && f == family && n != held {
				if held > 0 {
					held = -1
					break
				}
				held = n
			}
		}
		if held > 0 {
			if add == nil {
				add = map[string]int64{}
			}
			add[name] = held
		}
	}
	maps.Copy(units, add)
}

// unitName notes a unit or pack name the catalog uses.
func (c *catalogWords) unitName(name string) {
	c.named++
	c.last[name] = c.named
}

// spellings maps the singular and plural spellings of the catalog's unit
// and pack names to their canonical names: "bundles" → "bundle". Where
// two names share a spelling, the one named last wins.
func (c *catalogWords) spellings() map[string]string {
	names := make([]string, 0, len(c.last))
	for name := range c.last {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return c.last[names[i]] < c.last[names[j]] })
	out := map[string]string{}
	for _, name := range names {
		u, w := c.canonicalUnit(name), strings.ToLower(strings.TrimSpace(name))
		for _, s := range []string{u, u + "s", u + "es", w, w + "s", w + "es"} {
			if hasLetter(s) {
				out[s] = u
			}
		}
	}
	return out
}

// measure is the measure a product's base unit is ("kg", "litre"), if it
// is one.
func (c *catalogWords) measure(unit string) (measure, bool) {
	u := strings.TrimSpace(unit)
	if u == "" {
		return measure{}, false
	}
	mo, ok := c.measures[u]
	if !ok {
		if es := intent.Normalize("1 " + u).Entities; len(es) == 1 && es[0].Kind == intent.EntitySize {
			mo.m, mo.ok = parseMeasure(es[0].ID)
		}
		c.measures[u] = mo
	}
	return mo.m, mo.ok
}

// words are a customer's name or alias in canonical words.
func (c *catalogWords) words(name string) []string {
	ws, ok := c.names[name]
	if !ok {
		for _, t := range intent.Normalize(name).Tokens {
			ws = append(ws, t.Text)
		}
		c.names[name] = ws
	}
	return ws
}
