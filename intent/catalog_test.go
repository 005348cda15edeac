package intent

import (
	"context"
	"slices"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// A paint and hardware distributor: nothing of this catalog is in the
// training corpus, so routing must rest on the shape of messages.
func hardwareVocabulary() Vocabulary {
	return Vocabulary{
		Products: []domain.Product{
			{SKU: "APX20", Name: "Apex Exterior Emulsion 20L", Aliases: []string{"apex", "apex emulsion"}, Unit: "bucket"},
			{SKU: "TRC10", Name: "Tractor Emulsion 10L", Aliases: []string{"tractor"}, Unit: "bucket"},
			{SKU: "WP40", Name: "Wall Putty 40kg", Aliases: []string{"putty", "birla putty", "पुट्टी"}, Unit: "bag"},
			{SKU: "PR4", Name: "Wall Primer 4L", Aliases: []string{"primer"}, Unit: "tin", PackSizes: []domain.PackSize{{Name: "case", Units: 4}}},
			{SKU: "PVC1", Name: "PVC Pipe 1 inch", Aliases: []string{"pvc pipe", "pipe"}, Unit: "length", PackSizes: []domain.PackSize{{Name: "bundle", Units: 10}}},
			{SKU: "FVC1", Name: "Fevicol SH 1kg", Aliases: []string{"fevicol"}, Unit: "tin", PackSizes: []domain.PackSize{{Name: "carton", Units: 12}}},
			{SKU: "CEM50", Name: "Cement OPC 53 Grade 50kg", Aliases: []string{"cement", "ultratech"}, Unit: "bag"},
			{SKU: "BRS6", Name: "Paint Brush 6 inch", Aliases: []string{"brush"}, Unit: "piece", PackSizes: []domain.PackSize{{Name: "dozen", Units: 12}}},
		},
		Customers: []domain.Customer{
			{ID: "H1", Name: "Bharat Hardware", Aliases: []string{"bharat"}},
			{ID: "H2", Name: "Sai Paint House", Aliases: []string{"sai paints"}},
			{ID: "H3", Name: "Khurana Builders", Aliases: []string{"khurana", "khurana ji"}},
			{ID: "H4", Name: "Noor Sanitary & Hardware", Aliases: []string{"noor"}},
		},
	}
}

func TestOtherCatalogEntities(t *testing.T) {
	r := routerFor(t, hardwareVocabulary())
	tests := []struct {
		in   string
		want []entityWant
	}{
		{"Khurana ke liye 10 bucket apex aur 20 bag putty bhejo, credit", []entityWant{
			{EntityCustomer, "H3", "khurana"}, {EntityNumber, "10", "10"}, {EntityUnit, "bucket", "bucket"},
			{EntityProduct, "APX20", "apex"}, {EntityNumber, "20", "20"}, {EntityUnit, "bag", "bag"},
			{EntityProduct, "WP40", "putty"},
		}},
		{"Noor Sanitary ko 5 bundle pvc pipe aur 3 case primer", []entityWant{
			{EntityCustomer, "H4", "noor sanitary"}, {EntityNumber, "5", "5"}, {EntityUnit, "bundle", "bundle"},
			{EntityProduct, "PVC1", "pvc pipe"}, {EntityNumber, "3", "3"}, {EntityUnit, "case", "case"},
			{EntityProduct, "PR4", "primer"},
		}},
		{"Sai Paint House 40 length pipe", []entityWant{
			{EntityCustomer, "H2", "sai paint house"}, {EntityNumber, "40", "40"}, {EntityUnit, "length", "length"},
			{EntityProduct, "PVC1", "pipe"},
		}},
		{"tractr emulsion 4 bucket", []entityWant{
			{EntityProduct, "TRC10", "tractr emulsion"}, {EntityNumber, "4", "4"}, {EntityUnit, "bucket", "bucket"},
		}},
		// The demo catalog means nothing here.
		{"Rajesh ko 10 carton harpic", []entityWant{
			{EntityNumber, "10", "10"}, {EntityUnit, "carton", "carton"},
		}},
	}
	for _, tt := range tests {
		if got := entitiesOf(r.Normalize(tt.in)); !slices.Equal(got, tt.want) {
			t.Errorf("%q:\n got %v\nwant %v", tt.in, got, tt.want)
		}
	}
}

func TestOtherCatalogRouting(t *testing.T) {
	r := routerFor(t, hardwareVocabulary())
	tests := []struct {
		text string
		want domain.Intent
	}{
		{"Khurana ke liye 10 bucket apex aur 20 bag putty bhejo, credit", domain.IntentOrder},
		{"Bharat Hardware: 50 bag cement, 2 dozen brush, cash", domain.IntentOrder},
		{"please send 6 tins of fevicol to Sai Paint House", domain.IntentOrder},
		{"नूर को 20 बैग पुट्टी भेज दो", domain.IntentOrder},
		{"apex ka stock kitna hai?", domain.IntentStock},
		{"kya 100 bag cement de sakte hain?", domain.IntentStock},
		{"can we commit 300 bags of putty to Khurana?", domain.IntentStock},
		{"Noor ka outstanding kitna hai", domain.IntentOutstanding},
		{"Khurana ji pe kitna baaki hai", domain.IntentOutstanding},
		{"primer ki sales is mahine", domain.IntentReport},
		{"top customers this month", domain.IntentReport},
		{"pending orders dikhao", domain.IntentPendingOrders},
		{"ok bhej do", domain.IntentConfirm},
		{"nahi rehne do", domain.IntentCancel},
		{"namaste", domain.IntentGreeting},
		{"menu", domain.IntentHelp},
		{"aap kya karte ho?", domain.IntentHelp},
		{"ghar ki deewar ke liye kaunsa rang accha hai", domain.IntentUnknown},
		{"kal subah 7 baje alarm laga do", domain.IntentUnknown},
	}
	for _, tt := range tests {
		if d := r.Route(context.Background(), tt.text); d.Intent != tt.want {
			t.Errorf("%q → %s (%s %.2f, %s), want %s", tt.text, d.Intent, d.Tier, d.Confidence, d.Reason, tt.want)
		}
	}
}
