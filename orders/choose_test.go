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

// TestAWeightFirstCountsBeforeItsName: "20 kg butter paper, 2 carton
// tissue, 5 bundle carry bag" writes every count before its goods; the
// weight that counts the first of them says so, and "2 carton" is the
// tissue's, not the butter paper's.
func TestAWeightFirstCountsBeforeItsName(t *testing.T) {
	ps := []domain.Product{
		{SKU: "BUTTER", Name: "Butter Paper Sheets", Aliases: []string{"butter paper"}, Unit: "kg", Price: 18000},
		{SKU: "TISSUE", Name: "Napkin Tissue", Aliases: []string{"tissue"}, Unit: "packet", PackSizes: []domain.PackSize{{Name: "carton", Units: 48}}, Price: 3200},
		{SKU: "CBS", Name: "Kraft Carry Bag Small", Aliases: []string{"carry bag"}, Unit: "bundle", Price: 19000},
	}
	cs := []domain.Customer{{ID: "P01", Name: "Cochin Bake House"}}
	p := parserFor(t, ps, cs)
	got := p.Parse("Cochin Bake House 20 kg butter paper, 2 carton tissue, 5 bundle carry bag, cash")
	want := map[string]int64{"BUTTER": 20, "TISSUE": 96, "CBS": 5}
	if len(got.Unresolved) > 0 || len(got.Items) != len(want) {
		t.Fatalf("items %+v, unresolved %q; want %v", got.Items, got.Unresolved, want)
	}
	for _, it := range got.Items {
		if want[it.SKU] != it.Qty {
			t.Errorf("%s × %d, want %d", it.SKU, it.Qty, want[it.SKU])
		}
	}
}

// TestAUnitNoneOfANamesProductsComesIn: "2 barrel pride", where "pride"
// names two buckets and neither comes by the barrel, is the Pride that
// does; "2 bkt grease" is the grease bucket.
func TestAUnitNoneOfANamesProductsComesIn(t *testing.T) {
	ps := []domain.Product{
		{SKU: "PRD075", Name: "Servo Pride 7.5 L bucket", Aliases: []string{"pride"}, Unit: "bucket", Price: 228000},
		{SKU: "PRD20L", Name: "Servo Pride 20 L bucket", Aliases: []string{"pride"}, Unit: "bucket", Price: 585000},
		{SKU: "PRD210", Name: "Servo Pride 210 L barrel", Aliases: []string{"barrel"}, Unit: "barrel", Price: 5880000},
		{SKU: "GRS01", Name: "Servo Grease 1 kg tin", Aliases: []string{"grease"}, Unit: "tin", Price: 24000},
		{SKU: "GRS18", Name: "Servo Grease 18 kg bucket", Aliases: []string{"grease"}, Unit: "bucket", Price: 435000},
	}
	p := parserFor(t, ps, []domain.Customer{{ID: "L01", Name: "Deka Transport"}})
	// "barrel", the barrel's alias, beside "pride", a word of its name,
	// is one line too.
	if got := p.Parse("deka transport 2 barrel pride aur 3 bkt grease, cash"); len(got.Items) != 2 || len(got.Unresolved) > 0 ||
		got.Items[0].SKU != "PRD210" || got.Items[0].Qty != 2 || got.Items[1].SKU != "GRS18" || got.Items[1].Qty != 3 {
		t.Errorf("2 barrel pride aur 3 bkt grease: items %+v, unresolved %q", got.Items, got.Unresolved)
	}
	for text, want := range map[string]string{"deka transport 2 barrel pride, cash": "PRD210", "deka transport 2 bkt grease, cash": "GRS18"} {
		got := p.Parse(text)
		if len(got.Items) != 1 || got.Items[0].SKU != want || got.Items[0].Qty != 2 {
			t.Errorf("%q: items %+v, unresolved %q; want 2 × %s", text, got.Items, got.Unresolved, want)
		}
	}
}

// TestABigOrSmallOneByItsName: "bada wala" of a large and a small carry
// bag, whose names give no measure, is the one named large.
func TestABigOrSmallOneByItsName(t *testing.T) {
	ps := []domain.Product{
		{SKU: "CBL", Name: "Kraft Carry Bag Large 12x15", Aliases: []string{"carry bag"}, Unit: "bundle", Price: 45000},
		{SKU: "CBS", Name: "Kraft Carry Bag Small 8x10", Aliases: []string{"carry bag"}, Unit: "bundle", Price: 19000},
	}
	p := parserFor(t, ps, nil)
	for answer, want := range map[string]string{"bada wala": "CBL", "chhota wala": "CBS", "bada": "CBL"} {
		if got, ok := p.pickProduct(p.norm.Normalize(answer), []string{"CBL", "CBS"}); !ok || got != want {
			t.Errorf("%q chose %q, %v; want %s", answer, got, ok, want)
		}
	}
}

// TestACountAfterWhatIsWanted: "sarson khal bhejni hai 40 katte" names
// the goods, says they are wanted, then how many: the count is theirs.
func TestACountAfterWhatIsWanted(t *testing.T) {
	ps := []domain.Product{{SKU: "SKHAL50", Name: "Sarson Khal Mustard Cake 50 kg", Aliases: []string{"sarson khal"}, Unit: "bag", Price: 160000}}
	p := parserFor(t, ps, []domain.Customer{{ID: "F02", Name: "Garg Feed Store"}})
	for _, text := range []string{"garg feed store ko sarson khal bhejni hai 40 katte, cash", "garg feed store ko sarson khal chahiye 40 katte, cash"} {
		got := p.Parse(text)
		if len(got.Items) != 1 || got.Items[0].SKU != "SKHAL50" || got.Items[0].Qty != 40 || len(got.Unresolved) > 0 {
			t.Errorf("%q: items %+v, unresolved %q; want 40 × SKHAL50", text, got.Items, got.Unresolved)
		}
	}
}
