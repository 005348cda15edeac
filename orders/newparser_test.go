package orders

import (
	"reflect"
	"strings"
	"testing"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/catalogtest"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
)

// parserByProduct builds a parser the straightforward way, every unit name
// and customer name read again for each product and customer: NewParser,
// which reads each distinct one once, must build exactly this.
func parserByProduct(norm Normalizer, products []domain.Product, customers []domain.Customer) *Parser {
	p := &Parser{norm: norm, products: map[string]domain.Product{}, customers: map[string]domain.Customer{},
		sizes: map[string][]measure{}, byMeasure: map[string]measure{}, units: map[string]map[string]int64{},
		unitSpellings: map[string]string{}, customerNames: map[string][][]string{}}
	apart := intent.PacksApart(products)
	canonical := func(name string) string { return canonicalUnitIn(apart, name) }
	for _, x := range products {
		p.products[x.SKU] = x
		p.units[x.SKU] = productUnitsIn(x, canonical)
		shareApart(apart, p.units[x.SKU])
		names := []string{x.Unit}
		for _, ps := range x.PackSizes {
			names = append(names, ps.Name)
		}
		for _, name := range names {
			c, w := canonical(name), strings.ToLower(strings.TrimSpace(name))
			for _, s := range []string{c, c + "s", c + "es", w, w + "s", w + "es"} {
				if hasLetter(s) {
					p.unitSpellings[s] = c
				}
			}
		}
		for _, e := range intent.Normalize(x.Name).Entities {
			if m, ok := parseMeasure(e.ID); ok && e.Kind == intent.EntitySize {
				p.sizes[x.SKU] = append(p.sizes[x.SKU], m)
			}
		}
		if u := strings.TrimSpace(x.Unit); u != "" {
			if es := intent.Normalize("1 " + u).Entities; len(es) == 1 && es[0].Kind == intent.EntitySize {
				if m, ok := parseMeasure(es[0].ID); ok {
					p.byMeasure[x.SKU] = m
				}
			}
		}
	}
	for _, c := range customers {
		p.customers[c.ID] = c
		for _, name := range append([]string{c.Name}, c.Aliases...) {
			var ws []string
			for _, t := range intent.Normalize(name).Tokens {
				ws = append(ws, t.Text)
			}
			if len(ws) > 0 {
				p.customerNames[c.ID] = append(p.customerNames[c.ID], ws)
			}
		}
	}
	return p
}

// oddUnitProducts sell in units whose spellings collide ("box" and
// "boxe", "bag" and "bags", "ctn" and "carton"), in units that are
// measures, in Devanagari, with spaces, separators and nothing at all;
// each list appears again later in another order.
func oddUnitProducts() []domain.Product {
	lists := []struct {
		unit  string
		packs []domain.PackSize
	}{
		{"box", []domain.PackSize{{Name: "boxe", Units: 4}, {Name: "carton", Units: 24}}},
		{"boxe", []domain.PackSize{{Name: "box", Units: 6}}},
		{"bags", []domain.PackSize{{Name: "bag", Units: 10}, {Name: "ctn", Units: 0}}},
		{"kg", []domain.PackSize{{Name: "bori", Units: 50}, {Name: "katta", Units: 25}}},
		{" Litre ", []domain.PackSize{{Name: "tin", Units: 15}, {Name: "Carton", Units: 12}}},
		{"पेटी", []domain.PackSize{{Name: "दर्जन", Units: 12}}},
		{"master carton", []domain.PackSize{{Name: "outer box", Units: 2}}},
		{"", nil},
		{"pc:1;", []domain.PackSize{{Name: "2:x", Units: 3}}},
		{"pc", []domain.PackSize{{Name: "1;2", Units: 3}}},
		{"ctn", []domain.PackSize{{Name: "carton", Units: 1}, {Name: "peti", Units: 1}}},
		{"box", []domain.PackSize{{Name: "carton", Units: 24}, {Name: "boxe", Units: 4}}},
		{"bags", []domain.PackSize{{Name: "bag", Units: 10}, {Name: "ctn", Units: 0}}},
	}
	var ps []domain.Product
	for i, l := range lists {
		for k := range 2 {
			ps = append(ps, domain.Product{SKU: "ODD" + string(rune('A'+i)) + string(rune('0'+k)),
				Name: []string{"Odd Cleaner 500 ml", "Odd Soap 4x100g"}[k], Unit: l.unit, PackSizes: l.packs})
		}
	}
	return ps
}

// NewParser reads each unit, pack and customer name once, and shares the
// unit lists of products sold alike; the parser it builds is the one
// reading them for every product builds.
func TestNewParserReadsLikeEveryProductRead(t *testing.T) {
	ps, cs, _, err := demo.Data()
	if err != nil {
		t.Fatal(err)
	}
	books := catalogtest.Generate(catalogtest.WithCustomers(3000), 5)
	products := append(append(append([]domain.Product{}, ps...), books.Products...), oddUnitProducts()...)
	customers := append(append([]domain.Customer{}, cs...), books.Customers...)
	customers = append(customers, domain.Customer{ID: "EMPTY", Name: "", Aliases: []string{"", "  ", "Gupta ji"}})
	r, err := intent.NewRouter(intent.Vocabulary{Products: products, Customers: customers}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, want := NewParser(r, products, customers), parserByProduct(r, products, customers)
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"products", got.products, want.products},
		{"customers", got.customers, want.customers},
		{"sizes", got.sizes, want.sizes},
		{"byMeasure", got.byMeasure, want.byMeasure},
		{"units", got.units, want.units},
		{"customerNames", got.customerNames, want.customerNames},
		{"unitSpellings", got.unitSpellings, want.unitSpellings},
	} {
		if !reflect.DeepEqual(f.got, f.want) {
			t.Errorf("%s differ", f.name)
		}
	}
	if len(got.byMeasure) == 0 || len(got.sizes) == 0 || len(got.unitSpellings) < 20 {
		t.Fatalf("the catalog tests too little: %d by measure, %d with sizes, %d spellings",
			len(got.byMeasure), len(got.sizes), len(got.unitSpellings))
	}
}
