package intent

import (
	"encoding/csv"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// demoVocabulary reads the demo distributor's catalog and customers, kept
// in testdata as the deployment ships them.
func demoVocabulary(t testing.TB) Vocabulary {
	t.Helper()
	var v Vocabulary
	for _, row := range readCSV(t, "testdata/catalog.csv") {
		p := domain.Product{SKU: row[0], Name: row[1], Aliases: splitList(row[2]), Unit: row[3]}
		for _, ps := range splitList(row[4]) {
			name, units, _ := strings.Cut(ps, "=")
			n, err := strconv.ParseInt(units, 10, 64)
			if err != nil {
				t.Fatalf("pack size %q: %v", ps, err)
			}
			p.PackSizes = append(p.PackSizes, domain.PackSize{Name: name, Units: n})
		}
		v.Products = append(v.Products, p)
	}
	for _, row := range readCSV(t, "testdata/customers.csv") {
		v.Customers = append(v.Customers, domain.Customer{ID: row[0], Name: row[1], Aliases: splitList(row[2])})
	}
	return v
}

func readCSV(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows[1:]
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "|")
}

func demoRouter(t testing.TB) *Router {
	t.Helper()
	return routerFor(t, demoVocabulary(t))
}

// routerFor is a router for a vocabulary of the test's own, with no LLM.
func routerFor(t testing.TB, v Vocabulary) *Router {
	t.Helper()
	r, err := NewRouter(v, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestEveryDemoAliasIsRead: every alias of the demo catalog and customer
// list reads as what it names. A rule word that is also an alias ("tc" for
// take care, "hw" for how) would make the lexicon drop the alias, and
// "10 carton TC" would order nothing; this catches it.
func TestEveryDemoAliasIsRead(t *testing.T) {
	v := demoVocabulary(t)
	r := demoRouter(t)
	names := func(id string, aliases []string) {
		for _, a := range aliases {
			found := false
			for _, e := range r.Entities(a) {
				found = found || slices.Contains(e.Candidates(), id)
			}
			if !found {
				t.Errorf("alias %q does not read as %s: %+v", a, id, r.Entities(a))
			}
		}
	}
	for _, p := range v.Products {
		names(p.SKU, p.Aliases)
	}
	for _, c := range v.Customers {
		names(c.ID, c.Aliases)
	}
}
