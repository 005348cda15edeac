package conversation

import (
	"context"
	"slices"
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/llmbudget"
	"github.com/munshi/munshi/memory"
	"github.com/munshi/munshi/reports"
)

// continuers open a follow-up that keeps the last question's subject:
// "aur Gupta Traders ka?", "and yesterday?", "what about harpic", and
// Gujarati's, Marathi's and Punjabi's "ane", "ani" and "te".
var continuers = map[string]bool{"aur": true, "and": true, "what": true, "how": true, "also": true, "or": true,
	"ane": true, "ani": true, "te": true}

// followUpFillers are the other words such a follow-up may have, with
// Gujarati's "nu", Marathi's "chi" and Punjabi's "da" for "ka".
var followUpFillers = map[string]bool{"ka": true, "ki": true, "ke": true, "about": true, "bhi": true, "ji": true,
	"the": true, "for": true, "of": true, "batao": true, "bata": true, "hai": true, "kya": true, "kitna": true, "kitni": true,
	"pe": true, "nu": true, "chi": true, "da": true, "wala": true, "du": true, "nte": true,
	// Telugu's "di", Marwari's "ro": "80/100-18 di?", "khandelwal tent ro?";
	// Gujarati's "no" and "na" ("ane nbc no?", "અને ચામુંડા ના?"), Nepali's
	// "ko" and "ni".
	"di": true, "ro": true, "no": true, "na": true, "ko": true, "ni": true}

// totalWords ask the total of the last answer: "aur total?". Every
// answer over a list opens with its total, so the question is asked again.
var totalWords = map[string]bool{"total": true}

// followUp reads a message as a follow-up of the question answered
// last, when it is short, opens like one and names a customer, a product
// or a period: it asks that question again about what it names, keeping
// the period (or the names) it does not. The router's own reading gives
// way only when it was a guess (the model's) or none; a name alone
// ("Gupta Brothers?") follows a question about one of its kind.
func followUp(d intent.Decision, conv memory.Conversation, route func(string) intent.Decision) (intent.Decision, bool) {
	if d.Tier == intent.TierRules && d.Intent != domain.IntentUnknown || len(d.Normalized.Tokens) == 0 || len(d.Normalized.Tokens) > 7 {
		return d, false
	}
	n := d.Normalized
	opened := continuers[n.Tokens[0].Text]
	if again, ok := sizedFollowUp(d, conv, route, opened); ok {
		return again, true
	}
	covered := make([]bool, len(n.Tokens))
	for _, e := range n.Entities {
		if e.Kind != intent.EntityCustomer && e.Kind != intent.EntityProduct {
			return d, false // "aur 5 carton harpic" adds to an order
		}
		for i := max(e.Start, 0); i < e.End && i < len(covered); i++ {
			covered[i] = true
		}
	}
	period := reports.PeriodName(d.Text)
	first := 1
	if !opened {
		first = 0
	}
	total := false
	for i := first; i < len(n.Tokens); i++ {
		switch w := n.Tokens[i].Text; {
		case totalWords[w]:
			total = true
		case !covered[i] && !followUpFillers[w] && !inPeriod(n.Tokens, i):
			return d, false
		}
	}
	named := n.Has(intent.EntityCustomer) || n.Has(intent.EntityProduct)
	if !named && period == "" && !(total && opened) {
		return d, false
	}
	asked, ok := lastQuestion(conv)
	if !ok {
		return d, false
	}
	if !named && period == "" {
		// "aur total?": the same question; its answer opens with the total.
		return askedAgain(route, asked, d, false)
	}
	if !opened && !(len(n.Entities) == 1 && sameKind(n.Entities[0], asked)) {
		return d, false
	}
	if again, ok := askedAgain(route, asked, d, period != ""); ok {
		return again, true
	}
	d.Intent, d.Reason = asked.Intent, "follow-up of "+string(asked.Intent)
	if period == "" {
		if p := reports.PeriodName(asked.Text); p != "" {
			n.Text += " " + strings.ToLower(asked.Text)
		}
	}
	if !named {
		ref := memory.Reference{Kind: memory.RefPronoun}
		if len(asked.Products) > 0 {
			ref.Product = asked.Products[0]
		}
		if len(asked.Customers) > 0 {
			ref.Customer, ref.Customers = asked.Customers[0], asked.Customers[:1]
		}
		d.Normalized = n
		return withReferents(d, ref), true
	}
	d.Normalized = n
	return d, true
}

// sizeFollowUpWords are the other words of a follow-up that names only a
// size: "and the 1 litre one?".
var sizeFollowUpWords = map[string]bool{"one": true, "wala": true}

// sizedFollowUp reads a follow-up that names only a size as the last
// question's product in that size: after Phenyl 5L's stock, "and the 1
// litre one?" asks Phenyl 1L's. The product is found by routing its own
// words with the size, so a size the catalog does not have is no
// follow-up.
func sizedFollowUp(d intent.Decision, conv memory.Conversation, route func(string) intent.Decision, opened bool) (intent.Decision, bool) {
	n := d.Normalized
	if !opened || route == nil || len(n.Entities) != 1 || n.Entities[0].Kind != intent.EntitySize {
		return d, false
	}
	size := n.Entities[0]
	for i := 1; i < len(n.Tokens); i++ {
		if w := n.Tokens[i].Text; (i < size.Start || i >= size.End) && !followUpFillers[w] && !sizeFollowUpWords[w] {
			return d, false
		}
	}
	asked, ok := lastQuestion(conv)
	if !ok || len(asked.Products) != 1 {
		return d, false
	}
	// The words that named the product.
	before := route(asked.Text).Normalized
	var name []string
	for _, e := range before.Entities {
		if e.Kind == intent.EntityProduct && slices.Contains(e.Candidates(), asked.Products[0]) {
			for _, t := range before.Tokens[e.Start:e.End] {
				name = append(name, t.Text)
			}
		}
	}
	// The name with the size, or one of its words with it ("bada phenyl"
	// → "phenyl 1l", "phenyl 5l" → "phenyl 1l"): the one other product
	// that reading names.
	found := map[string]intent.Entity{}
	for _, text := range append([]string{strings.Join(name, " ")}, name...) {
		for _, e := range route(text + " " + size.Text).Normalized.Entities {
			if ids := e.Candidates(); e.Kind == intent.EntityProduct && len(ids) == 1 && ids[0] != asked.Products[0] {
				found[ids[0]] = e
			}
		}
		if len(found) > 0 {
			break
		}
	}
	if len(found) != 1 {
		return d, false
	}
	for _, e := range found {
		e.Start, e.End = 0, 0
		d.Normalized.Entities = []intent.Entity{e}
	}
	return askedAgain(route, asked, d, false)
}

// variantFollowUp reads a follow-up that names only what sets another
// product apart from the one the last question was about, as that
// question about the other product: after Sunsilk 650ml's stock, "aur
// 180 wale ka?" asks Sunsilk 180ml's; after the gents' chappal, "aur
// ladies wali ka?" the ladies'. variant finds the product (the router's
// Variant); a word no other product of the kind has is no follow-up.
func variantFollowUp(d intent.Decision, conv memory.Conversation, route func(string) intent.Decision,
	variant func(sku string, said []string) (string, bool)) (intent.Decision, bool) {
	n := d.Normalized
	if variant == nil || route == nil || d.Tier == intent.TierRules && d.Intent != domain.IntentUnknown ||
		len(n.Tokens) == 0 || len(n.Tokens) > 6 {
		return d, false
	}
	// Opened with "aur", or asked in a word or two: "large du?".
	if !(continuers[n.Tokens[0].Text] && len(n.Tokens) >= 2 || n.Question && len(n.Tokens) <= 3) {
		return d, false
	}
	for _, e := range n.Entities {
		if e.Kind != intent.EntityNumber && e.Kind != intent.EntitySize {
			return d, false // a name, a unit or an order is read as itself
		}
	}
	said := namingWords(n.Tokens)
	asked, ok := lastQuestion(conv)
	if len(said) == 0 || !ok || len(asked.Products) != 1 {
		return d, false
	}
	sku, ok := variant(asked.Products[0], said)
	if !ok {
		return d, false
	}
	d.Normalized.Entities = []intent.Entity{{Kind: intent.EntityProduct, ID: sku}}
	return askedAgain(route, asked, d, false)
}

// oneOfThoseFollowUp reads a message that names one of the customers the
// last answer was about by a word of their name alone ("tiles wala" after
// both Patils' dues, "aur steel emporium wale ka") as that question about
// that customer. among finds the customer (the router's CustomerAmong).
func oneOfThoseFollowUp(d intent.Decision, conv memory.Conversation, route func(string) intent.Decision,
	among func(ids, said []string) (string, bool)) (intent.Decision, bool) {
	n := d.Normalized
	// A product's name may be a word of the customer's too: "feed store
	// wala" of Garg Feed Store, where cattle feed is sold.
	onlyProducts := !slices.ContainsFunc(n.Entities, func(e intent.Entity) bool { return e.Kind != intent.EntityProduct })
	if among == nil || route == nil || d.Tier == intent.TierRules && d.Intent != domain.IntentUnknown ||
		len(n.Tokens) == 0 || len(n.Tokens) > 6 || !onlyProducts {
		return d, false
	}
	said := namingWords(n.Tokens)
	asked, ok := lastQuestion(conv)
	if len(said) == 0 || !ok || len(asked.Customers) == 0 {
		return d, false
	}
	// One of those the answer showed, or the question named: "siddiqui
	// ka outstanding" names one customer, its answer both Siddiquis.
	shown := slices.Clone(asked.Customers)
	if i := lastReply(conv); i >= 0 {
		for _, c := range conv.Turns[i].Customers {
			shown = appendNew(shown, c)
		}
	}
	id, ok := among(shown, said)
	if !ok {
		return d, false
	}
	d.Normalized.Entities = []intent.Entity{{Kind: intent.EntityCustomer, ID: id}}
	return askedAgain(route, asked, d, false)
}

// namingWords are a follow-up's words but the continuer that opens it
// and its fillers: what it names ("180", "ladies", "tiles").
func namingWords(toks []intent.Token) []string {
	var said []string
	for i, t := range toks {
		if w := t.Text; !followUpFillers[w] && !sizeFollowUpWords[w] && !(i == 0 && continuers[w]) {
			said = append(said, w)
		}
	}
	return said
}

// askedAgain is the last question routed again with what the follow-up
// names in place of what it named of that kind, and the follow-up's
// period when it has one: "who bought mop last week?" → "aur soap?" asks
// who bought soap last week. False when the question's own words no
// longer read as it was answered (it was itself a follow-up).
func askedAgain(route func(string) intent.Decision, asked *memory.Turn, d intent.Decision, period bool) (intent.Decision, bool) {
	if route == nil {
		return d, false
	}
	again := route(asked.Text)
	if again.Intent != asked.Intent {
		return d, false
	}
	named := map[intent.EntityKind]bool{}
	for _, e := range d.Normalized.Entities {
		named[e.Kind] = true
	}
	n := again.Normalized
	ents := make([]intent.Entity, 0, len(n.Entities)+len(d.Normalized.Entities))
	for _, e := range n.Entities {
		if !named[e.Kind] {
			ents = append(ents, e)
		}
	}
	for _, e := range d.Normalized.Entities {
		e.Start, e.End = 0, 0 // the follow-up's words are not the question's
		ents = append(ents, e)
	}
	n.Entities = ents
	if period {
		n.Text = d.Normalized.Text
	}
	again.Normalized, again.Text, again.Format = n, d.Text, d.Format
	again.Reason = "follow-up of " + string(asked.Intent)
	return again, true
}

// inPeriod reports whether token i names a period, alone ("kal") or with
// the word beside it ("is mahine", "last week").
func inPeriod(toks []intent.Token, i int) bool {
	if reports.PeriodName(toks[i].Text) != "" {
		return true
	}
	if i > 0 && reports.PeriodName(toks[i-1].Text+" "+toks[i].Text) != "" {
		return true
	}
	return i+1 < len(toks) && reports.PeriodName(toks[i].Text+" "+toks[i+1].Text) != ""
}

// lastQuestion is the question answered last: the person's turn before
// Munshi's last reply, when that reply came from a tool and the turn was
// a question about the books.
func lastQuestion(conv memory.Conversation) (*memory.Turn, bool) {
	i := lastReply(conv)
	if i < 1 || conv.Turns[i-1].Role != memory.RolePerson {
		return nil, false
	}
	if t := conv.Turns[i].Tool; t == "" || t == toolQuestion || t == toolUnread {
		return nil, false
	}
	asked := &conv.Turns[i-1]
	switch asked.Intent {
	case domain.IntentStock, domain.IntentOutstanding, domain.IntentPendingOrders, domain.IntentReport, domain.IntentOrderStatus,
		domain.IntentPaymentsReceived:
		return asked, true
	case domain.IntentUnknown:
		// "who bought mop last week?": no intent, but a tool answered it
		// from its words.
		return asked, conv.Turns[i].Tool != "agent"
	}
	return nil, false
}

// asFile reads a message that only asks for the last answer as a chart or
// a file ("iska excel bhejo", "chart mein dikhao", "excel file bhej do")
// as that question again in that format: the question's own words are
// routed again, with what it was about when it was itself a follow-up.
func asFile(ctx context.Context, r Router, d intent.Decision, conv memory.Conversation) (intent.Decision, bool) {
	format, ok := intent.OnlyAsksFormat(d.Normalized)
	if !ok {
		return d, false
	}
	asked, ok := lastQuestion(conv)
	if !ok {
		return d, false
	}
	again := r.Route(llmbudget.WithCallBudget(ctx, 0), asked.Text)
	if again.Intent != asked.Intent {
		again.Intent = asked.Intent
		ref := memory.Reference{Kind: memory.RefPronoun, Customers: asked.Customers}
		if len(asked.Products) > 0 {
			ref.Product = asked.Products[0]
		}
		if len(asked.Customers) > 0 {
			ref.Customer = asked.Customers[0]
		}
		again = withReferents(again, ref)
	}
	again.Format, again.Reason = format, "the last question, in "+string(format)
	return again, true
}

// sameKind reports a name of the kind the question was about: a
// customer after a customer's dues, a product after its stock.
func sameKind(e intent.Entity, asked *memory.Turn) bool {
	switch e.Kind {
	case intent.EntityCustomer:
		return len(asked.Customers) > 0
	case intent.EntityProduct:
		return len(asked.Products) > 0
	}
	return false
}
