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
