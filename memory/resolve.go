package memory

import (
	"strings"

	"github.com/munshi/munshi/intent"
)

// Kinds of reference a follow-up makes.
const (
	RefNone       = "none"         // the message stands on its own
	RefPronoun    = "pronoun"      // "uska stock", "their outstanding", "who bought it"
	RefSameOrder  = "same_order"   // "same order for Sharma ji"
	RefAddToDraft = "add_to_draft" // "aur 5 carton add karo"
	RefCancelThat = "cancel_that"  // "cancel that", "woh cancel karo"
)

// Reference is what a follow-up refers to in memory.
type Reference struct {
	Kind string
	// Customer and Product are the ones referred to; Customers lists every
	// customer when the reference is plural ("their" after a list of
	// buyers), Customer being the first. For RefSameOrder, Customer is the
	// new customer the message itself names: empty if it names none, or a
	// name several customers share, whose IDs are then in Customers.
	Customer  string
	Customers []string
	Product   string
	// Draft is the draft referred to: the one to copy, add to or cancel.
	Draft string
	// NeedsMemory is set when the message refers back but memory holds
	// nothing it could refer to: the caller should say so (see NoReferent)
	// rather than guess.
	NeedsMemory bool
}

// Resolved reports whether the message referred back and memory answered.
func (r Reference) Resolved() bool { return r.Kind != RefNone && !r.NeedsMemory }

// NoReferent is what Munshi says when a follow-up cannot be resolved: c is
// the conversation the reference was resolved against.
func NoReferent(c Conversation) string {
	if c.Unavailable {
		return "My conversation memory is unavailable right now, so I can't tell what that refers to. Please name the customer, product or order."
	}
	return "I'm not sure what that refers to. Please name the customer, product or order."
}

// Resolve reads a follow-up deterministically against memory. n is the
// message as a Router normalised it (with the catalog's products and
// customers); a zero n is computed from text without a catalog. The most
// recent turn that names something wins over older turns, and turns over
// the summary.
func Resolve(text string, n intent.Normalized, c Conversation) Reference {
	if len(n.Tokens) == 0 {
		n = intent.Normalize(text)
	}
	m := readMessage(n)
	switch {
	case m.orderRef:
		// "cancel ORDER-12" names its order: nothing to resolve.
		return Reference{Kind: RefNone}
	case m.has(sameWords) && (m.has(orderWords) || m.named && !m.has(customerSlot) && !m.has(productSlot)):
		// "same order for Mehta", "Mehta ke liye bhi same"; not "Sharma ka
		// bhi wahi outstanding hai?" nor "wahi product ka stock".
		r := Reference{Kind: RefSameOrder, Customer: m.customer, Customers: m.customers, Draft: lastDraft(c)}
		r.NeedsMemory = r.Draft == ""
		return r
	case m.has(cancelWords) && (m.has(thatWords) || m.has(pastWords)) && !n.Question:
		// "cancel that", "woh cancel karo"; "was that cancelled?" only asks.
		r := Reference{Kind: RefCancelThat, Draft: lastDraft(c)}
		r.NeedsMemory = r.Draft == ""
		return r
	case m.number && (m.unit || m.product != "") && !m.named && (m.has(addWords) || m.first(andWords)):
		r := Reference{Kind: RefAddToDraft, Draft: lastDraft(c), Product: m.product}
		if r.Product == "" {
			r.Product, _ = productInPlay(c)
		}
		r.NeedsMemory = r.Draft == ""
		return r
	}
	return m.pronoun(c)
}

// message is what Resolve reads from a normalised message.
type message struct {
	words     map[string]bool
	tokens    []string
	customer  string // the first customer the message names unambiguously
	customers []string
	named     bool // the message names a customer, maybe ambiguously
	product   string
	number    bool
	unit      bool
	orderRef  bool
	// pairs holds "that product", "us party", "is item": a demonstrative
	// followed by a noun, mapped to the noun's kind.
	pairs []string
}

func readMessage(n intent.Normalized) message {
	m := message{words: map[string]bool{}}
	for _, t := range n.Tokens {
		m.words[t.Text] = true
		m.tokens = append(m.tokens, t.Text)
	}
	for _, e := range n.Entities {
		switch e.Kind {
		case intent.EntityCustomer:
			m.named = true
			if len(e.IDs) > 1 {
				// A name several customers share: the caller asks which.
				m.customers = append(m.customers, e.IDs...)
				continue
			}
			if m.customer == "" {
				m.customer = e.ID
			}
			m.customers = append(m.customers, e.ID)
		case intent.EntityProduct:
			if m.product == "" {
				m.product = e.ID
			}
		case intent.EntityNumber:
			m.number = true
		case intent.EntityUnit:
			m.unit = true
		case intent.EntityOrderRef:
			m.orderRef = true
		}
	}
	for i := 0; i+1 < len(m.tokens); i++ {
		if demonstratives[m.tokens[i]] {
			if k, ok := nouns[m.tokens[i+1]]; ok {
				m.pairs = append(m.pairs, k)
			}
		}
	}
	return m
}

func (m message) has(set map[string]bool) bool {
	for w := range m.words {
		if set[w] {
			return true
		}
	}
	return false
}

func (m message) first(set map[string]bool) bool { return len(m.tokens) > 0 && set[m.tokens[0]] }

// pronoun resolves "uska stock", "their outstanding", "who bought it".
func (m message) pronoun(c Conversation) Reference {
	none := Reference{Kind: RefNone}
	plural := m.has(pluralPronouns)
	refers := plural || m.has(singularPronouns) || len(m.pairs) > 0
	// A bare "it", "this" or "that" refers back only in a question about
	// something: "who bought it", "is that in stock".
	slot := ""
	switch {
	case len(m.pairs) > 0:
		slot = m.pairs[0]
	case m.has(customerSlot):
		slot = "customer"
	case m.has(productSlot):
		slot = "product"
	}
	if !refers && m.has(bareWords) && slot != "" {
		refers = true
	}
	if !refers {
		return none
	}
	if slot == "customer" && m.named || slot == "product" && m.product != "" {
		return none // the message names what it asks about
	}
	if slot == "" {
		slot = mostRecentKind(c, plural)
	}
	r := Reference{Kind: RefPronoun}
	switch slot {
	case "customer":
		r.Customers = customersInPlay(c)
		if len(r.Customers) > 0 {
			r.Customer = r.Customers[0]
			if !plural {
				r.Customers = r.Customers[:1]
			}
		}
		r.NeedsMemory = r.Customer == ""
	case "product":
		r.Product, _ = productInPlay(c)
		r.NeedsMemory = r.Product == ""
	case "draft":
		r.Draft = lastDraft(c)
		r.NeedsMemory = r.Draft == ""
	default:
		r.NeedsMemory = true
	}
	return r
}

// customersInPlay returns the customers of the most recent turn that names
// any, else the summary's most recent one.
func customersInPlay(c Conversation) []string {
	for i := len(c.Turns) - 1; i >= 0; i-- {
		if len(c.Turns[i].Customers) > 0 {
			return c.Turns[i].Customers
		}
	}
	if len(c.Summary.Customers) > 0 {
		return c.Summary.Customers[:1]
	}
	return nil
}

// productInPlay returns the first product of the most recent turn that
// names any, else the summary's most recent one.
func productInPlay(c Conversation) (string, bool) {
	for i := len(c.Turns) - 1; i >= 0; i-- {
		if len(c.Turns[i].Products) > 0 {
			return c.Turns[i].Products[0], true
		}
	}
	if len(c.Summary.Products) > 0 {
		return c.Summary.Products[0], true
	}
	return "", false
}

// lastDraft returns the most recent draft in memory.
func lastDraft(c Conversation) string {
	for i := len(c.Turns) - 1; i >= 0; i-- {
		if c.Turns[i].DraftID != "" {
			return c.Turns[i].DraftID
		}
	}
	return c.Summary.LastDraft
}

// mostRecentKind says whether a pronoun with nothing to go by means a
// customer or a product: whichever the most recent turn named; when it
// named both, "their" means the customers and "its" the product.
func mostRecentKind(c Conversation, plural bool) string {
	pick := func(customers, products bool) string {
		switch {
		case customers && products && plural, customers && !products:
			return "customer"
		case products:
			return "product"
		}
		return ""
	}
	for i := len(c.Turns) - 1; i >= 0; i-- {
		if k := pick(len(c.Turns[i].Customers) > 0, len(c.Turns[i].Products) > 0); k != "" {
			return k
		}
	}
	return pick(len(c.Summary.Customers) > 0, len(c.Summary.Products) > 0)
}

// Word lists, in the spellings people type; set builds them in the
// canonical form intent.Normalize gives, so that "kansel", "कैंसल" and
// "cancel" are one word.
var (
	singularPronouns = set(`uska uski uske usko usse uspe iska iski iske isko isse ispe its
		उसका उसकी उसके उसको उसे उससे इसका इसकी इसके इसको इसे इससे`)
	pluralPronouns = set(`unka unki unke unko unhe unse inka inki inke inko inhe their theirs them they
		उनका उनकी उनके उनको उन्हें उनसे इनका इनकी इनके इनको इन्हें`)
	// bareWords refer back only beside a question word of a slot.
	bareWords      = set(`it this that`)
	demonstratives = set(`that this those these wo woh vo voh ye yeh us is un in wahi vahi
		वो वह यह ये उस इस उन इन वही`)
	nouns = map[string]string{}

	customerSlot = set(`outstanding baaki udhaar due dues owe owes owed payment balance ledger hisaab
		credit limit paid pay`)
	productSlot = set(`stock available bacha khatam price rate bought buy buys sold bika biki
		kharida kharide kharidi kharidne kharidaa godown inventory mrp
		खरीदा खरीदे खरीदी बिका बिकी`)

	sameWords   = set(`same wahi vahi waisa waise waisi repeat dobara वही वैसा वैसे सेम रिपीट दोबारा`)
	orderWords  = set(`order orders draft`)
	cancelWords = set(`cancel hatao hata radd रद्द हटाओ`)
	thatWords   = set(`that it this wo woh vo voh ye yeh usko isko use ise usse
		वो वह यह ये उसे इसे उसको इसको`)
	pastWords = set(`last pichle previous pichhla`)
	addWords  = set(`add jodo jod joddo daalo dalo daal dal badhao badha plus more extra
		जोड़ो जोड़ डालो डाल बढ़ाओ ऐड`)
	andWords = set(`aur and also plus`)
)

func init() {
	for kind, words := range map[string]string{
		"product":  "product products item items maal sku cheez saamaan samaan प्रोडक्ट आइटम सामान",
		"customer": "customer customers party parties dukaan shop client clients buyer buyers dukaandar दुकान ग्राहक",
		"draft":    "order draft",
	} {
		for w := range set(words) {
			nouns[w] = kind
		}
	}
}

func set(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[w] = true
		for _, t := range intent.Normalize(w).Tokens {
			out[t.Text] = true
		}
	}
	return out
}
