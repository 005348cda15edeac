package memory_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/memory"
)

var (
	routerOnce sync.Once
	router     *intent.Router
)

// normalize reads text the way the conversation service does, with a small
// catalog.
func normalize(t *testing.T, text string) intent.Normalized {
	routerOnce.Do(func() {
		var err error
		router, err = intent.NewRouter(intent.Vocabulary{
			Products: []domain.Product{
				{SKU: "GC500", Name: "Glass Cleaner 500ml", Aliases: []string{"GC", "colin", "ग्लास क्लीनर"}, Unit: "bottle", PackSizes: []domain.PackSize{{Name: "carton", Units: 24}, {Name: "box", Units: 6}}},
				{SKU: "PH1L", Name: "Phenyl 1L", Aliases: []string{"phenyl", "फिनाइल"}, Unit: "bottle", PackSizes: []domain.PackSize{{Name: "pack", Units: 6}}},
			},
			Customers: []domain.Customer{
				{ID: "C03", Name: "Sharma Traders", Aliases: []string{"Sharma", "शर्मा"}},
				{ID: "C07", Name: "Gupta Stores", Aliases: []string{"Gupta"}},
				{ID: "C11", Name: "Mehta Agencies", Aliases: []string{"Mehta", "मेहता"}},
				{ID: "C21", Name: "Verma General Store", Aliases: []string{"Verma"}},
				{ID: "C22", Name: "Verma & Sons", Aliases: []string{"Verma"}},
			},
		}, intent.Options{})
		if err != nil {
			panic(err)
		}
	})
	return router.Normalize(text)
}

func person(text string, customers, products []string) memory.Turn {
	return memory.Turn{Role: memory.RolePerson, Text: text, Customers: customers, Products: products}
}

func munshi(tool, draft string, customers, products []string) memory.Turn {
	return memory.Turn{Role: memory.RoleMunshi, Text: "…", Tool: tool, DraftID: draft, Customers: customers, Products: products}
}

// The conversation, step by step.
var (
	askedStock = memory.Conversation{Turns: []memory.Turn{
		person("show me stock for glass cleaner", nil, []string{"GC500"}),
		munshi("stock", "", nil, []string{"GC500"}),
	}}
	askedBuyers = memory.Conversation{Turns: append(append([]memory.Turn(nil), askedStock.Turns...),
		person("and who bought it last week?", nil, nil),
		munshi("sales_by_customer", "", []string{"C03", "C07"}, []string{"GC500"}),
	)}
	ordered = memory.Conversation{Turns: []memory.Turn{
		person("5 carton GC for Sharma ji, COD", []string{"C03"}, []string{"GC500"}),
		munshi("draft", "D-7", []string{"C03"}, []string{"GC500"}),
	}}
	summarised = memory.Conversation{Summary: memory.Summary{Products: []string{"PH1L", "GC500"}, Customers: []string{"C07"}, LastDraft: "D-3", Folded: 12}}
	nothing    = memory.Conversation{}
)

func TestResolve(t *testing.T) {
	cases := []struct {
		text string
		conv memory.Conversation
		want memory.Reference
	}{
		// Pronouns for the product in play.
		{"uska stock kitna hai", askedStock, memory.Reference{Kind: memory.RefPronoun, Product: "GC500"}},
		{"its stock?", askedStock, memory.Reference{Kind: memory.RefPronoun, Product: "GC500"}},
		{"iska stock batao", askedStock, memory.Reference{Kind: memory.RefPronoun, Product: "GC500"}},
		{"that product ka rate kya hai", askedStock, memory.Reference{Kind: memory.RefPronoun, Product: "GC500"}},
		{"उसका स्टॉक कितना है", askedStock, memory.Reference{Kind: memory.RefPronoun, Product: "GC500"}},
		{"and who bought it last week?", askedStock, memory.Reference{Kind: memory.RefPronoun, Product: "GC500"}},
		{"isko kisne kharida", askedStock, memory.Reference{Kind: memory.RefPronoun, Product: "GC500"}},
		{"uska stock", summarised, memory.Reference{Kind: memory.RefPronoun, Product: "PH1L"}},
		// Pronouns for the customers in play: "their" means all of them.
		{"what about their outstanding?", askedBuyers, memory.Reference{Kind: memory.RefPronoun, Customer: "C03", Customers: []string{"C03", "C07"}}},
		{"unka outstanding batao", askedBuyers, memory.Reference{Kind: memory.RefPronoun, Customer: "C03", Customers: []string{"C03", "C07"}}},
		{"उनका बकाया कितना है", askedBuyers, memory.Reference{Kind: memory.RefPronoun, Customer: "C03", Customers: []string{"C03", "C07"}}},
		{"uska outstanding", askedBuyers, memory.Reference{Kind: memory.RefPronoun, Customer: "C03", Customers: []string{"C03"}}},
		{"us party ka payment aaya?", ordered, memory.Reference{Kind: memory.RefPronoun, Customer: "C03", Customers: []string{"C03"}}},
		{"their outstanding", summarised, memory.Reference{Kind: memory.RefPronoun, Customer: "C07", Customers: []string{"C07"}}},
		// With nothing in play, say so rather than guess.
		{"what about their outstanding?", nothing, memory.Reference{Kind: memory.RefPronoun, NeedsMemory: true}},
		{"uska stock", nothing, memory.Reference{Kind: memory.RefPronoun, NeedsMemory: true}},
		{"their outstanding", askedStock, memory.Reference{Kind: memory.RefPronoun, NeedsMemory: true}},
		// The same order for someone else.
		{"same order for Mehta ji", ordered, memory.Reference{Kind: memory.RefSameOrder, Customer: "C11", Customers: []string{"C11"}, Draft: "D-7"}},
		{"Mehta ke liye bhi same", ordered, memory.Reference{Kind: memory.RefSameOrder, Customer: "C11", Customers: []string{"C11"}, Draft: "D-7"}},
		{"मेहता जी के लिए भी वही ऑर्डर", ordered, memory.Reference{Kind: memory.RefSameOrder, Customer: "C11", Customers: []string{"C11"}, Draft: "D-7"}},
		{"same order for Gupta", summarised, memory.Reference{Kind: memory.RefSameOrder, Customer: "C07", Customers: []string{"C07"}, Draft: "D-3"}},
		{"same order for Verma", ordered, memory.Reference{Kind: memory.RefSameOrder, Customers: []string{"C21", "C22"}, Draft: "D-7"}},
		{"wahi order dobara bhejo", ordered, memory.Reference{Kind: memory.RefSameOrder, Draft: "D-7"}},
		{"same for Sharma ji", nothing, memory.Reference{Kind: memory.RefSameOrder, Customer: "C03", Customers: []string{"C03"}, NeedsMemory: true}},
		// More on the open draft.
		{"aur 5 carton add karo", ordered, memory.Reference{Kind: memory.RefAddToDraft, Draft: "D-7", Product: "GC500"}},
		{"add 2 box more", ordered, memory.Reference{Kind: memory.RefAddToDraft, Draft: "D-7", Product: "GC500"}},
		{"aur 10 pack phenyl bhi", ordered, memory.Reference{Kind: memory.RefAddToDraft, Draft: "D-7", Product: "PH1L"}},
		{"और 5 कार्टन जोड़ो", ordered, memory.Reference{Kind: memory.RefAddToDraft, Draft: "D-7", Product: "GC500"}},
		{"aur 5 carton add karo", nothing, memory.Reference{Kind: memory.RefAddToDraft, NeedsMemory: true}},
		// Cancel the last draft.
		{"cancel that", ordered, memory.Reference{Kind: memory.RefCancelThat, Draft: "D-7"}},
		{"woh cancel karo", ordered, memory.Reference{Kind: memory.RefCancelThat, Draft: "D-7"}},
		{"उसे कैंसल करो", ordered, memory.Reference{Kind: memory.RefCancelThat, Draft: "D-7"}},
		{"last order cancel kar do", summarised, memory.Reference{Kind: memory.RefCancelThat, Draft: "D-3"}},
		{"cancel that", nothing, memory.Reference{Kind: memory.RefCancelThat, NeedsMemory: true}},
		// Messages that stand on their own.
		{"GC ka stock kitna hai", askedBuyers, memory.Reference{Kind: memory.RefNone}},
		{"Sharma ji ka outstanding", askedBuyers, memory.Reference{Kind: memory.RefNone}},
		{"5 carton GC aur 10 pack phenyl for Sharma ji, COD", ordered, memory.Reference{Kind: memory.RefNone}},
		{"cancel ORDER-12", ordered, memory.Reference{Kind: memory.RefNone}},
		{"was that cancelled?", ordered, memory.Reference{Kind: memory.RefNone}},
		{"aur 5 din ki sales", ordered, memory.Reference{Kind: memory.RefNone}},
		{"same price?", ordered, memory.Reference{Kind: memory.RefNone}},
		{"GC ka stock bhi same hai kya", ordered, memory.Reference{Kind: memory.RefNone}},
		{"Sharma ji ka bhi wahi outstanding hai kya", ordered, memory.Reference{Kind: memory.RefNone}},
		{"wahi product ka stock bhi batao", ordered, memory.Reference{Kind: memory.RefPronoun, Product: "GC500"}},
		{"namaste", ordered, memory.Reference{Kind: memory.RefNone}},
		{"is it possible to deliver today", ordered, memory.Reference{Kind: memory.RefNone}},
		{"uska stock aur GC ka rate", askedBuyers, memory.Reference{Kind: memory.RefNone}},
	}
	for _, c := range cases {
		got := memory.Resolve(c.text, normalize(t, c.text), c.conv)
		if !same(got, c.want) {
			t.Errorf("Resolve(%q) = %+v, want %+v", c.text, got, c.want)
		}
	}
}

func same(a, b memory.Reference) bool {
	return a.Kind == b.Kind && a.Customer == b.Customer && a.Product == b.Product && a.Draft == b.Draft &&
		a.NeedsMemory == b.NeedsMemory && strings.Join(a.Customers, ",") == strings.Join(b.Customers, ",")
}

// TestResolveWithoutCatalog: a zero Normalized is computed from the text.
func TestResolveWithoutCatalog(t *testing.T) {
	got := memory.Resolve("uska stock kitna hai", intent.Normalized{}, askedStock)
	if got.Kind != memory.RefPronoun || got.Product != "GC500" || !got.Resolved() {
		t.Fatalf("Resolve = %+v", got)
	}
}

func TestNoReferent(t *testing.T) {
	down := memory.Conversation{Phone: "+919810000001", Unavailable: true}
	ref := memory.Resolve("what about their outstanding?", intent.Normalized{}, down)
	if !ref.NeedsMemory || ref.Resolved() {
		t.Fatalf("Resolve without memory = %+v", ref)
	}
	if !strings.Contains(memory.NoReferent(down), "unavailable") || strings.Contains(memory.NoReferent(nothing), "unavailable") {
		t.Fatalf("NoReferent: %q / %q", memory.NoReferent(down), memory.NoReferent(nothing))
	}
}
