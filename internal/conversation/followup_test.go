package conversation

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/memory"
)

// TestFollowUpWordsComeFromDevelopment: every word that opens or fills a
// follow-up is written in a development conversation, so that none was
// taken from the held-out ones.
func TestFollowUpWordsComeFromDevelopment(t *testing.T) {
	paths, err := filepath.Glob("../dialogs/testdata/dev*/dialogs.jsonl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no development conversations: %v", err)
	}
	seen := map[string]bool{}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var d struct{ Turns []string }
			if json.Unmarshal(sc.Bytes(), &d) != nil {
				continue
			}
			for _, turn := range d.Turns {
				for _, tok := range intent.Normalize(turn).Tokens {
					seen[tok.Text] = true
				}
			}
		}
		f.Close()
	}
	for _, words := range []map[string]bool{continuers, followUpFillers, totalWords, sizeFollowUpWords} {
		for w := range words {
			if !seen[intent.Normalize(w).Text] {
				t.Errorf("%q is in no development conversation", w)
			}
		}
	}
}

// TestAFollowUpMayNameItsPeriodInTwoWords: "aur is mahine ki?" after a
// period's sales asks the sales of this month; a word that is no period
// nor a follow-up's filler makes it no follow-up.
func TestAFollowUpMayNameItsPeriodInTwoWords(t *testing.T) {
	conv := memory.Conversation{Turns: []memory.Turn{
		{Role: memory.RolePerson, Text: "last week ki sales batao", Intent: domain.IntentReport},
		{Role: memory.RoleMunshi, Text: "Sales last week …", Tool: "sales_summary"},
	}}
	for text, want := range map[string]bool{"aur is mahine ki?": true, "aur kal ka?": true, "aur is cricket ki?": false} {
		d := intent.Decision{Intent: domain.IntentUnknown, Text: text, Normalized: intent.Normalize(text)}
		got, ok := followUp(d, conv, nil)
		if ok != want || ok && got.Intent != domain.IntentReport {
			t.Errorf("%q: follow-up %v (%s), want %v", text, ok, got.Intent, want)
		}
	}
}

// TestACancelThatNamesAnotherIsOfferedAsTheAnswer: while a question
// waits, a message read as a cancel goes to the orders side first, which
// takes "Ashok nahi, Rajesh" as an answer; one it does not take drops the
// question.
func TestACancelThatNamesAnotherIsOfferedAsTheAnswer(t *testing.T) {
	at := time.Date(2026, 3, 8, 10, 0, 0, 0, time.UTC)
	for pending, want := range map[string]string{"answerable": "orders: answer Ashok nahi, Rajesh", "other": "OK, dropped. Nothing was placed or recorded."} {
		w := newWorld()
		w.router.intents["Ashok nahi, Rajesh"] = domain.IntentCancel
		w.memory.convs[sales.Phone] = memory.Conversation{Frame: &memory.Frame{Data: pending, Expires: at.Add(FrameTTL)}}
		if r := w.say(sales.Phone, "Ashok nahi, Rajesh"); r.Text != want {
			t.Errorf("pending %s: %q, want %q", pending, r.Text, want)
		}
	}
}

// TestAFollowUpByNameAlone: after a customer's dues, the name of another
// customer alone asks the same of them, as does "aur …" that the model
// guessed to be something else; a name of another kind, or a number, is
// no follow-up.
func TestAFollowUpByNameAlone(t *testing.T) {
	conv := memory.Conversation{Turns: []memory.Turn{
		{Role: memory.RolePerson, Text: "Mehta ka balance kya hai", Intent: domain.IntentOutstanding, Customers: []string{"C03"}},
		{Role: memory.RoleMunshi, Text: "Mehta Traders …", Tool: "outstanding"},
	}}
	gupta := intent.Entity{Kind: intent.EntityCustomer, ID: "C09", IDs: []string{"C09"}}
	named := func(text string, tier intent.Tier, in domain.Intent, ents ...intent.Entity) intent.Decision {
		n := intent.Normalize(text)
		n.Entities = ents
		return intent.Decision{Intent: in, Tier: tier, Text: text, Normalized: n}
	}
	gupta.Start, gupta.End = 0, 2
	if d, ok := followUp(named("gupta brothers?", intent.TierNone, domain.IntentUnknown, gupta), conv, nil); !ok || d.Intent != domain.IntentOutstanding {
		t.Errorf("a name alone: %v %s", ok, d.Intent)
	}
	gupta.Start, gupta.End = 1, 3
	if d, ok := followUp(named("aur gupta brothers?", intent.TierModel, domain.IntentStock, gupta), conv, nil); !ok || d.Intent != domain.IntentOutstanding {
		t.Errorf("a guess of the model: %v %s", ok, d.Intent)
	}
	if _, ok := followUp(named("aur gupta brothers?", intent.TierRules, domain.IntentStock, gupta), conv, nil); ok {
		t.Error("a rule's reading gave way to a follow-up")
	}
	harpic := intent.Entity{Kind: intent.EntityProduct, ID: "TC500", IDs: []string{"TC500"}, Start: 0, End: 1}
	if _, ok := followUp(named("harpic", intent.TierNone, domain.IntentUnknown, harpic), conv, nil); ok {
		t.Error("a product alone followed a customer's dues")
	}
	five := intent.Entity{Kind: intent.EntityNumber, ID: "5", Value: 5, Start: 1, End: 2}
	if _, ok := followUp(named("aur 5 harpic", intent.TierModel, domain.IntentOrder, five, harpic), conv, nil); ok {
		t.Error("a quantity was read as a follow-up")
	}
}

// TestAFollowUpAsksTheQuestionAgain: a follow-up is the last question's
// own words routed again with what it names in their place, so a
// question only its words told ("who bought mop last week?", answered
// though no intent was read) keeps its kind and period.
func TestAFollowUpAsksTheQuestionAgain(t *testing.T) {
	mop := intent.Entity{Kind: intent.EntityProduct, ID: "MP01", IDs: []string{"MP01"}, Start: 2, End: 3}
	soap := intent.Entity{Kind: intent.EntityProduct, ID: "SP75", IDs: []string{"SP75"}, Start: 1, End: 2}
	conv := memory.Conversation{Turns: []memory.Turn{
		{Role: memory.RolePerson, Text: "who bought mop last week?", Intent: domain.IntentUnknown, Products: []string{"MP01"}},
		{Role: memory.RoleMunshi, Text: "Who bought Floor Mop …", Tool: "sales_summary"},
	}}
	route := func(text string) intent.Decision {
		n := intent.Normalize(text)
		if text == "who bought mop last week?" {
			n.Entities = []intent.Entity{mop}
		}
		return intent.Decision{Intent: domain.IntentUnknown, Text: text, Normalized: n}
	}
	n := intent.Normalize("aur soap?")
	n.Entities = []intent.Entity{soap}
	d, ok := followUp(intent.Decision{Intent: domain.IntentStock, Tier: intent.TierModel, Text: "aur soap?", Normalized: n}, conv, route)
	if !ok || d.Intent != domain.IntentUnknown || len(d.Normalized.Entities) != 1 || d.Normalized.Entities[0].ID != "SP75" ||
		!strings.Contains(d.Normalized.Text, "last week") || !strings.Contains(d.Normalized.Text, "bought") {
		t.Fatalf("follow-up %v: %s %+v %q", ok, d.Intent, d.Normalized.Entities, d.Normalized.Text)
	}
}

// TestAFollowUpAsksTheTotal: "aur total?" after a list asks the list's
// question again, whose answer opens with its total; without the opener,
// or with nothing answered before, it is no follow-up.
func TestAFollowUpAsksTheTotal(t *testing.T) {
	conv := memory.Conversation{Turns: []memory.Turn{
		{Role: memory.RolePerson, Text: "kiska kitna baaki hai", Intent: domain.IntentOutstanding},
		{Role: memory.RoleMunshi, Text: "*Who owes us*: 8 customers …", Tool: "outstanding"},
	}}
	route := func(text string) intent.Decision {
		return intent.Decision{Intent: domain.IntentOutstanding, Text: text, Normalized: intent.Normalize(text)}
	}
	for text, want := range map[string]bool{"aur total?": true, "and total": true, "total": false, "aur total cricket?": false} {
		d := intent.Decision{Intent: domain.IntentUnknown, Text: text, Normalized: intent.Normalize(text)}
		got, ok := followUp(d, conv, route)
		if ok != want || ok && got.Intent != domain.IntentOutstanding {
			t.Errorf("%q: follow-up %v (%s), want %v", text, ok, got.Intent, want)
		}
		if _, ok := followUp(d, memory.Conversation{}, route); ok {
			t.Errorf("%q: a follow-up of nothing", text)
		}
	}
}

// TestAFollowUpNamesASize: after the stock of Phenyl 5L, "and the 1 litre
// one?" asks the stock of Phenyl 1L; a size the catalog lacks, or a
// message with more in it, is no such follow-up.
func TestAFollowUpNamesASize(t *testing.T) {
	r, err := intent.NewRouter(intent.Vocabulary{Products: []domain.Product{
		{SKU: "PH1L", Name: "Phenyl 1L", Aliases: []string{"phenyl"}},
		{SKU: "PH5L", Name: "Phenyl 5L", Aliases: []string{"phenyl", "bada phenyl"}},
	}}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	route := func(text string) intent.Decision { return r.Route(context.Background(), text) }
	conv := memory.Conversation{Turns: []memory.Turn{
		{Role: memory.RolePerson, Text: "bada phenyl ka stock kitna", Intent: domain.IntentStock, Products: []string{"PH5L"}},
		{Role: memory.RoleMunshi, Text: "*Phenyl 5L* (PH5L) Ready: 800 bottles", Tool: "stock"},
	}}
	// The product named by an alias, and by its name with its size.
	for _, first := range []string{"bada phenyl ka stock kitna", "phenyl 5 litre ka stock kitna"} {
		conv.Turns[0].Text = first
		for text, want := range map[string]string{"and the 1 litre one?": "PH1L", "aur 1 litre wala?": "PH1L", "and the 2 litre one?": "",
			"and the 1 litre one for Rajesh tomorrow?": ""} {
			got, ok := followUp(route(text), conv, route)
			switch {
			case want == "" && ok && got.Normalized.Has(intent.EntityProduct):
				t.Errorf("%q after %q: a follow-up about %+v", text, first, got.Normalized.Entities)
			case want != "" && (!ok || got.Intent != domain.IntentStock || !hasProduct(got.Normalized, want)):
				t.Errorf("%q after %q: follow-up %v (%s) %+v, want the stock of %s", text, first, ok, got.Intent, got.Normalized.Entities, want)
			}
		}
	}
}

func hasProduct(n intent.Normalized, sku string) bool {
	for _, e := range n.Entities {
		if e.Kind == intent.EntityProduct && e.ID == sku {
			return true
		}
	}
	return false
}

// TestAFollowUpNamesWhatSetsAProductApart: after the stock of one size or
// kind, "aur 180 wale ka?", "aur ladies wali ka?", "aur dark ka?" or
// "ane 50 gm nu?" asks the stock of the product those words set apart
// from it, and so does such a word asked alone ("ladies wali ka?"); words
// no other product of the kind has, a name of its own, or the words said
// without asking, are no such follow-up.
func TestAFollowUpNamesWhatSetsAProductApart(t *testing.T) {
	r, err := intent.NewRouter(intent.Vocabulary{Products: []domain.Product{
		{SKU: "SS180", Name: "Sunsilk Black Shine Shampoo 180ml", Aliases: []string{"sunsilk", "sunsilk 180"}},
		{SKU: "SS650", Name: "Sunsilk Black Shine Shampoo 650ml", Aliases: []string{"sunsilk", "sunsilk 650"}},
		{SKU: "PHG", Name: "Paragon Hawai Chappal Gents (7-10)", Aliases: []string{"hawai", "gents hawai"}},
		{SKU: "PHL", Name: "Paragon Hawai Chappal Ladies (5-8)", Aliases: []string{"hawai", "ladies hawai"}},
		{SKU: "WL", Name: "Somany Ceramic Wall 300x450 Light", Aliases: []string{"12x18 light"}},
		{SKU: "WD", Name: "Somany Ceramic Wall 300x450 Dark", Aliases: []string{"12x18 dark"}},
		{SKU: "GM050", Name: "Everest Garam Masala 50g", Aliases: []string{"garam masala"}},
		{SKU: "GM100", Name: "Everest Garam Masala 100g", Aliases: []string{"garam masala"}},
		{SKU: "KK100", Name: "MDH Kitchen King 100g", Aliases: []string{"kitchen king"}},
	}}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	route := func(text string) intent.Decision { return r.Route(context.Background(), text) }
	asked := func(text, sku string) memory.Conversation {
		return memory.Conversation{Turns: []memory.Turn{
			{Role: memory.RolePerson, Text: text, Intent: domain.IntentStock, Products: []string{sku}},
			{Role: memory.RoleMunshi, Text: "Ready: 360", Tool: "stock"},
		}}
	}
	for _, c := range []struct{ first, sku, text, want string }{
		{"sunsilk 650 ka stock kitna hai", "SS650", "aur 180 wale ka?", "SS180"},
		{"gents hawai kitna pada hai", "PHG", "aur ladies wali ka?", "PHL"},
		{"12x18 light ka stock?", "WL", "aur dark ka?", "WD"},
		{"garam masala 100g no stock ketlo che", "GM100", "ane 50 gm nu?", "GM050"},
		{"kitchen king ka stock", "KK100", "aur 50 gm wala?", ""},
		{"sunsilk 650 ka stock kitna hai", "SS650", "aur cricket ka?", ""},
		{"gents hawai kitna pada hai", "PHG", "ladies wali ka?", "PHL"},
		{"gents hawai kitna pada hai", "PHG", "ladies wali", ""},
		{"gents hawai kitna pada hai", "PHG", "ladies wali ka stock batao?", ""},
		{"gents hawai kitna pada hai", "PHG", "?? ..", ""},
	} {
		got, ok := variantFollowUp(route(c.text), asked(c.first, c.sku), route, r.Variant)
		switch {
		case c.want == "" && ok:
			t.Errorf("%q after %q: a follow-up about %+v", c.text, c.first, got.Normalized.Entities)
		case c.want != "" && (!ok || got.Intent != domain.IntentStock || !hasProduct(got.Normalized, c.want)):
			t.Errorf("%q after %q: follow-up %v (%s) %+v, want the stock of %s", c.text, c.first, ok, got.Intent, got.Normalized.Entities, c.want)
		}
	}
}

// TestAFollowUpInPunjabi: "te Arora da?" after a customer's dues asks
// Arora's, as "aur Arora ka?" does, and so do Gujarati's and Nepali's.
func TestAFollowUpInPunjabi(t *testing.T) {
	r, err := intent.NewRouter(intent.Vocabulary{Customers: []domain.Customer{
		{ID: "U01", Name: "Gill Utensil House", Aliases: []string{"gill"}},
		{ID: "U04", Name: "Arora Steel Crockery", Aliases: []string{"arora"}},
	}}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	route := func(text string) intent.Decision { return r.Route(context.Background(), text) }
	conv := memory.Conversation{Turns: []memory.Turn{
		{Role: memory.RolePerson, Text: "Gill utensil house da kinna baaki hai", Intent: domain.IntentOutstanding, Customers: []string{"U01"}},
		{Role: memory.RoleMunshi, Text: "*Gill Utensil House* (U01) Outstanding: ₹45,000", Tool: "outstanding"},
	}}
	// Punjabi's "te … da", Gujarati's "ane … no" and "ane … na",
	// Nepali's "… ko ni".
	for _, text := range []string{"te Arora da?", "ane Arora no?", "ane Arora na?", "Arora ko ni?"} {
		got, ok := followUp(route(text), conv, route)
		if !ok || got.Intent != domain.IntentOutstanding {
			t.Errorf("%s: follow-up %v (%s)", text, ok, got.Intent)
		}
	}
}

// TestAFollowUpNamesOneOfThoseAnswered: after the dues asked of a name two
// customers share, "tiles wala" asks again about the one whose name has
// tiles; a word neither has is no such follow-up.
func TestAFollowUpNamesOneOfThoseAnswered(t *testing.T) {
	r, err := intent.NewRouter(intent.Vocabulary{Customers: []domain.Customer{
		{ID: "T02", Name: "Patil Tiles & Sanitary", Aliases: []string{"patil"}},
		{ID: "T05", Name: "Patil Construction Co", Aliases: []string{"patil"}},
	}}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	route := func(text string) intent.Decision { return r.Route(context.Background(), text) }
	conv := memory.Conversation{Turns: []memory.Turn{
		{Role: memory.RolePerson, Text: "patil ka outstanding kitna hai", Intent: domain.IntentOutstanding, Customers: []string{"T02", "T05"}},
		{Role: memory.RoleMunshi, Text: "*Patil Tiles & Sanitary* (T02) Outstanding: ₹1,18,400 …", Tool: "outstanding"},
	}}
	for text, want := range map[string]string{"tiles wala": "T02", "aur construction wale ka": "T05", "cricket wala": ""} {
		got, ok := oneOfThoseFollowUp(route(text), conv, route, r.CustomerAmong)
		switch {
		case want == "" && ok:
			t.Errorf("%q: a follow-up about %+v", text, got.Normalized.Entities)
		case want != "" && (!ok || got.Intent != domain.IntentOutstanding || len(got.Normalized.Entities) == 0 ||
			!slices.Contains(got.Normalized.Entities[len(got.Normalized.Entities)-1].Candidates(), want)):
			t.Errorf("%q: follow-up %v (%s) %+v, want the dues of %s", text, ok, got.Intent, got.Normalized.Entities, want)
		}
	}
}

// TestAFollowUpNamesOneOfThoseWithAProductsWord: a word of one of those
// customers' names that is also a product's ("feed" of Garg Feed Store,
// where cattle feed is sold) still names that customer; a customer's own
// alias with "wala" after it ("motor stores wala") is a follow-up too.
func TestAFollowUpNamesOneOfThoseWithAProductsWord(t *testing.T) {
	r, err := intent.NewRouter(intent.Vocabulary{
		Products: []domain.Product{{SKU: "KPL50", Name: "Kapila Cattle Feed 50 kg", Aliases: []string{"feed"}, Unit: "bag"}},
		Customers: []domain.Customer{
			{ID: "F02", Name: "Garg Feed Store", Aliases: []string{"garg"}},
			{ID: "F05", Name: "Garg Poultry Farm", Aliases: []string{"garg"}},
			{ID: "L02", Name: "Baruah Motor Stores", Aliases: []string{"baruah", "motor stores"}},
			{ID: "L05", Name: "Baruah Auto Works", Aliases: []string{"baruah"}},
		}}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	route := func(text string) intent.Decision { return r.Route(context.Background(), text) }
	for _, c := range []struct{ asked, text, want string }{
		{"garg ka outstanding kitna hai", "feed store wala", "F02"},
		{"baruah ka outstanding kitna hai", "motor stores wala", "L02"},
	} {
		ids := []string{"F02", "F05"}
		if c.want == "L02" {
			ids = []string{"L02", "L05"}
		}
		conv := memory.Conversation{Turns: []memory.Turn{
			{Role: memory.RolePerson, Text: c.asked, Intent: domain.IntentOutstanding, Customers: ids},
			{Role: memory.RoleMunshi, Text: "…", Tool: "outstanding"},
		}}
		d := route(c.text)
		got, ok := oneOfThoseFollowUp(d, conv, route, r.CustomerAmong)
		if !ok {
			got, ok = followUp(d, conv, route)
		}
		if !ok || got.Intent != domain.IntentOutstanding || len(got.Normalized.Entities) == 0 ||
			!slices.Contains(got.Normalized.Entities[len(got.Normalized.Entities)-1].Candidates(), c.want) {
			t.Errorf("%q: follow-up %v (%s) %+v, want the dues of %s", c.text, ok, got.Intent, got.Normalized.Entities, c.want)
		}
	}
}

// TestAFollowUpNamesOneOfThoseTheAnswerShowed: a shared name is kept as
// its first customer on the question's turn, and the answer shows both;
// "electricals wala" names the one of those the answer showed.
func TestAFollowUpNamesOneOfThoseTheAnswerShowed(t *testing.T) {
	r, err := intent.NewRouter(intent.Vocabulary{Customers: []domain.Customer{
		{ID: "B01", Name: "Siddiqui Battery House", Aliases: []string{"siddiqui"}},
		{ID: "B02", Name: "Siddiqui Electricals", Aliases: []string{"siddiqui"}},
	}}, intent.Options{})
	if err != nil {
		t.Fatal(err)
	}
	route := func(text string) intent.Decision { return r.Route(context.Background(), text) }
	conv := memory.Conversation{Turns: []memory.Turn{
		{Role: memory.RolePerson, Text: "siddiqui ka outstanding kitna hai", Intent: domain.IntentOutstanding, Customers: []string{"B01"}},
		{Role: memory.RoleMunshi, Text: "…", Tool: "outstanding", Customers: []string{"B02", "B01"}},
	}}
	got, ok := oneOfThoseFollowUp(route("electricals wala"), conv, route, r.CustomerAmong)
	if !ok || got.Intent != domain.IntentOutstanding || len(got.Normalized.Entities) == 0 ||
		!slices.Contains(got.Normalized.Entities[len(got.Normalized.Entities)-1].Candidates(), "B02") {
		t.Errorf("follow-up %v (%s) %+v, want the dues of B02", ok, got.Intent, got.Normalized.Entities)
	}
	conv.Turns[1].Customers = nil // the answer showed no one else: "electricals" names none of those asked
	if got, ok := oneOfThoseFollowUp(route("electricals wala"), conv, route, r.CustomerAmong); ok {
		t.Errorf("with only B01 shown: follow-up %+v", got.Normalized.Entities)
	}
}
