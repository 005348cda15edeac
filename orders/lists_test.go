package orders

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// TestAForwardedPurchaseOrder: a buyer's list, one product a line with
// its weight after it, is read line by line, though every product is
// sold by the kg and could take the weight written before it; the number
// of the buyer's own purchase order ("PO AGH/1147") counts nothing.
func TestAForwardedPurchaseOrder(t *testing.T) {
	ps := []domain.Product{
		{SKU: "KJW240", Name: "Cashew Kernel W240 (Kaju)", Aliases: []string{"kaju", "cashew", "w240"}, Unit: "kg", Price: 106000},
		{SKU: "BDMCAL", Name: "California Almond Giri (Badam)", Aliases: []string{"badam", "almond", "california"}, Unit: "kg", Price: 78000},
		{SKU: "KISHGRN", Name: "Green Raisins Long (Hari Kishmish)", Aliases: []string{"raisin", "green raisins"}, Unit: "kg", Price: 33000},
	}
	cs := []domain.Customer{{ID: "D08", Name: "Anand Gift Hampers"}}
	p := parserFor(t, ps, cs)
	want := map[string]int64{"KJW240": 200, "BDMCAL": 100, "KISHGRN": 50}
	for _, c := range []parseCase{
		{text: "Anand Gift Hampers\nkaju 200 kg\nCalifornia almonds 100 kg\nGreen raisins 50 kg", customer: "D08", items: want},
		{text: "Fwd from Anand Gift Hampers purchase dept:\nKindly book the following against our PO AGH/1147 -\n" +
			"Cashew W240 - 200 kg\nCalifornia almonds - 100 kg\nGreen raisins - 50 kg", customer: "D08", items: want},
		// Weights before their names still go with the name after them.
		{text: "Anand Gift Hampers\n200 kg kaju\n100 kg California almonds\n50 kg Green raisins", customer: "D08", items: want},
		{text: "Anand Gift Hampers 200 kg kaju 100 kg almonds 50 kg green raisins", customer: "D08", items: want},
	} {
		checkParse(t, p, c)
	}
}

// TestAWordForTheSiblingProduct: after one product's line, a count and a
// word alone name the product whose name differs from it by that word
// only; a word that no sibling has, or more than one, is asked about.
func TestAWordForTheSiblingProduct(t *testing.T) {
	ps := []domain.Product{
		{SKU: "LYRL", Name: "Lyra Ankle Leggings Cotton Lycra L", Aliases: []string{"lyra leggings l"}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "box", Units: 5}}, Price: 21000},
		{SKU: "LYRXL", Name: "Lyra Ankle Leggings Cotton Lycra XL", Aliases: []string{"lyra leggings xl"}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "box", Units: 5}}, Price: 22000},
		{SKU: "BLR", Name: "Cotton Vest Red", Aliases: []string{"vest"}, Unit: "piece", Price: 9000},
		{SKU: "BLB", Name: "Cotton Vest Blue", Aliases: []string{"vest"}, Unit: "piece", Price: 9000},
	}
	cs := []domain.Customer{{ID: "G08", Name: "Roy Fashion Point"}}
	p := parserFor(t, ps, cs)
	for _, c := range []parseCase{
		{text: "roy fashion point 4 box lyra leggings L ar 2 box XL upi", customer: "G08", payment: domain.PayUPI, items: map[string]int64{"LYRL": 20, "LYRXL": 10}},
		{text: "roy fashion point 10 cotton vest red, 5 blue", customer: "G08", items: map[string]int64{"BLR": 10, "BLB": 5}},
		{text: "roy fashion point 10 cotton vest red, 5 green", customer: "G08", items: map[string]int64{"BLR": 10},
			ask: []string{`I don't know the product "green"`}},
	} {
		checkParse(t, p, c)
	}
}

// TestAWordOfTheNameBeforeIt: a word of the one product named just after
// it is that name's too, so a weight before it is still beside the name:
// "150 kg loose steel bartan" weighs the loose bartan, and the count after
// it is the patila's.
func TestAWordOfTheNameBeforeIt(t *testing.T) {
	ps := []domain.Product{
		{SKU: "BARTANKG", Name: "Steel Bartan Loose (by kg)", Aliases: []string{"bartan", "steel bartan"}, Unit: "kg", Price: 26500},
		{SKU: "PTL10", Name: "Steel Patila No. 10", Aliases: []string{"patila"}, Unit: "piece",
			PackSizes: []domain.PackSize{{Name: "dozen", Units: 12}}, Price: 32000},
	}
	cs := []domain.Customer{{ID: "U05", Name: "Durga Utensils"}}
	p := parserFor(t, ps, cs)
	checkParse(t, p, parseCase{text: "Durga Utensils - 150 kg loose steel bartan + 2 doz patila", customer: "U05",
		items: map[string]int64{"BARTANKG": 150, "PTL10": 24}})
}
