package orders

import (
	"context"
	"fmt"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// QuantityOf reads the first quantity of text ("aur 5 carton add karo") as
// an item of the product with that SKU, or says why it cannot.
func (p *Parser) QuantityOf(text, sku string) (Item, string) {
	prod, ok := p.products[sku]
	if !ok {
		return Item{}, "Which product should I add?"
	}
	ents := p.norm.Normalize(text).Entities
	for i, e := range ents {
		if e.Kind != intent.EntityNumber {
			continue
		}
		q := &quantity{value: e.Value}
		if unitAfter(ents, i) {
			q.unit = ents[i+1].ID
		}
		return p.toItem(prod, q)
	}
	return Item{}, fmt.Sprintf("How many %s should I add? (%s)", prod.Name, unitChoices(prod))
}

// unknownUnit is the question for a count said with a word after it that
// is no unit Munshi knows ("20 thaila"): taking the count in base units
// would be a guess. "" when the count's next word is a unit, the
// product's own name or a word of the order's talk.
func (p *Parser) unknownUnit(d intent.Decision, prod domain.Product) string {
	r := newReading(d.Text, d.Normalized)
	for _, e := range d.Normalized.Entities {
		if e.Kind != intent.EntityNumber {
			continue
		}
		if w := r.word(e.End); r.plain(e.End) && !namedBy(prod, []string{w}) {
			return fmt.Sprintf("I don't know the unit %q. How many %s? (%s)", r.span(e.End, e.End+1), prod.Name, unitChoices(prod))
		}
		return ""
	}
	return ""
}

// Repeat shows a new draft with the items of an earlier one for another
// customer: "same order for Sharma ji". The payment mode carries over; the
// rules say if the new customer may not use it.
func (s *Service) Repeat(ctx context.Context, user domain.User, draftID, customerID string) domain.Reply {
	if user.Role != domain.RoleSales && user.Role != domain.RoleOwner {
		return domain.Reply{Text: "Orders are placed by the sales team or the owner. Please ask them to send it."}
	}
	d, ok, err := s.Books.DraftByID(ctx, draftID)
	if err != nil {
		return s.failure(ctx, "repeat", err)
	}
	if !ok || d.PlacedBy != user.Phone {
		return domain.Reply{Text: "I can't find the order to repeat. Please send the order in full."}
	}
	if customerID == "" {
		return domain.Reply{Text: "Which customer is the same order for? Please name them."}
	}
	// Another customer's order: the first one's instructions were its own.
	return s.show(ctx, user, customerID, d.Payment, itemsOf(d), "")
}

// AddToDraft adds the quantity in text of a product to the person's open
// draft and shows the new draft in its place: "aur 5 carton add karo".
func (s *Service) AddToDraft(ctx context.Context, user domain.User, draftID, sku, text string) domain.Reply {
	d, ok, err := s.Books.DraftByID(ctx, draftID)
	if err != nil {
		return s.failure(ctx, "add", err)
	}
	if !ok || d.PlacedBy != user.Phone || d.Status != DraftOpen || s.now().Sub(d.CreatedAt) > ApprovalWindow {
		return domain.Reply{Text: "There is no open order to add to. Please send the whole order."}
	}
	if sku == "" && len(d.Lines) == 1 {
		sku = d.Lines[0].SKU
	}
	if sku == "" {
		return domain.Reply{Text: "Which product should I add? Please name it, e.g. \"aur 5 carton GC\"."}
	}
	item, problem := s.parser().QuantityOf(text, sku)
	if problem != "" {
		return domain.Reply{Text: problem}
	}
	items := itemsOf(d)
	added := false
	for i := range items {
		if items[i].SKU == item.SKU {
			items[i].Qty += item.Qty
			items[i].SaidQty, items[i].SaidUnit = 0, ""
			added = true
		}
	}
	if !added {
		items = append(items, item)
	}
	return s.show(ctx, user, d.Customer.ID, d.Payment, items, d.Instructions)
}
