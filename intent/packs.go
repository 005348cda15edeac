package intent

import (
	"slices"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// keepPacksApart gives each of a product's packs its own unit where the
// unit table spells them alike: a catalog selling dal by the "bori" of
// 50 kg and the "bag" of 25 kg means two packs, though a bori is a bag
// to the table. A word that sounds like one of them ("बोरी", "boriya",
// "bags") is that pack; another word for them ("katta") may be either,
// and its entity's ID lists both ("bag|bori") for the order to ask.
// Catalogs that sell in one of them keep the table as it is.
func (l *lexiconBuilder) keepPacksApart(v Vocabulary) {
	apart := packsApart(v.Products)
	for c, packs := range apart {
		slices.Sort(packs)
		among := strings.Join(packs, "|")
		for w, u := range l.units {
			if u.unit != c {
				continue
			}
			if pack := soundsLikePack(w, packs); pack != "" {
				u.unit, u.among = pack, ""
			} else {
				u.among = among
			}
			l.units[w] = u
		}
		for _, pack := range packs {
			u := l.units[pack]
			u.unit, u.among = pack, ""
			l.units[pack], l.units[pack+"s"] = u, u
		}
	}
}

// PacksApart are the names of the packs a catalog's products keep apart
// though the unit table spells them alike (keepPacksApart), each a unit
// of its own, by the unit the table makes of them: {"bori": "bag", "bag":
// "bag"}.
func PacksApart(products []domain.Product) map[string]string {
	out := map[string]string{}
	for c, packs := range packsApart(products) {
		for _, p := range packs {
			out[p] = c
		}
	}
	return out
}

// packsApart are, by canonical unit, the names of packs that one product
// comes in and the unit table spells alike, in lower case.
func packsApart(products []domain.Product) map[string][]string {
	apart := map[string][]string{}
	var names, units []string
	var sizes []int64
	// A catalog has a few pack names for all its products: each is read
	// once.
	type read struct{ name, unit string }
	seen := map[string]read{}
	for _, p := range products {
		if len(p.PackSizes) == 0 {
			continue
		}
		names, units, sizes = names[:0], units[:0], sizes[:0]
		for i := -1; i < len(p.PackSizes); i++ {
			name, size := p.Unit, int64(1)
			if i >= 0 {
				name, size = p.PackSizes[i].Name, p.PackSizes[i].Units
			}
			r, ok := seen[name]
			if !ok {
				r.name = strings.ToLower(strings.TrimSpace(name))
				r.unit = r.name
				if u, ok := builtinUnits[foldDevanagari(r.name)]; ok {
					r.unit = u.unit
				}
				seen[name] = r
			}
			name, c := r.name, r.unit
			for j, other := range names {
				if units[j] != c || other == name || sizes[j] == size {
					continue // one pack by two names is no two packs
				}
				for _, n := range [2]string{other, name} {
					if !slices.Contains(apart[c], n) {
						apart[c] = append(apart[c], n)
					}
				}
			}
			names, units, sizes = append(names, name), append(units, c), append(sizes, size)
		}
	}
	return apart
}

// soundsLikePack is the pack a word is a spelling of: the pack's own
// name in other letters ("बोरी" is "bori") or with an ending ("boriya",
// "bags"); "" for none.
func soundsLikePack(w string, packs []string) string {
	lw := looseUnit(w)
	if lw == "" {
		lw = w
	}
	for _, pack := range packs {
		lp := looseUnit(pack)
		if lp == "" {
			lp = pack
		}
		if lw == lp || strings.HasPrefix(lw, lp) && len(lw)-len(lp) <= 2 {
			return pack
		}
	}
	return ""
}
