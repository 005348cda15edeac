package orders

import (
	"context"
	"errors"
	"slices"

	"github.com/munshi/munshi/internal/domain"
)

// SlipReader reads a photo of an order slip (an LLM) into the same
// extraction as a text message: what is written, trusted for nothing
// until Resolve has checked it against the catalog and the customers.
type SlipReader interface {
	ReadSlip(ctx context.Context, image domain.InboundMedia, caption string, hints Hints) (Extraction, error)
}

// ErrNoSlipReader is TakePhoto's error when no model reads photos (the
// demo, or no GEMINI_API_KEY).
var ErrNoSlipReader = errors.New("orders: no reader of order slips")

// NotASlip answers a photo that holds no order lines.
const NotASlip = "That photo doesn't look like an order slip to me, so I did nothing with it. Send a photo of the order slip, or type the order (\"5 carton GC for Rajesh, cash\")."

// TakePhoto reads an order from a photo of its slip, with the caption
// typed beside it, and goes on as Take does: every line is resolved
// against the catalog, what cannot be read or is unknown becomes a
// question, and a complete order shows its priced summary, which waits
// for the person's "ok". The error is the reader's: the caller tells the
// person to type the order instead, and nothing has changed.
func (s *Service) TakePhoto(ctx context.Context, user domain.User, image domain.InboundMedia, caption string) (domain.Reply, error) {
	if user.Role != domain.RoleSales && user.Role != domain.RoleOwner {
		return domain.Reply{Text: "Orders are placed by the sales team or the owner. Please ask them to send it."}, nil
	}
	if s.Slips == nil {
		return domain.Reply{}, ErrNoSlipReader
	}
	p := s.parser()
	ex, err := s.Slips.ReadSlip(ctx, image, caption, p.Hints())
	if err != nil {
		return domain.Reply{}, err
	}
	ex.Message, ex.FromSlip = "", true
	if len(ex.Items) == 0 {
		s.Audit.Record(ctx, user.Phone, "order_extraction", "", map[string]any{"source": "photo", "items": 0, "slip": false})
		return domain.Reply{Text: NotASlip}, nil
	}
	parsed := p.Resolve(ex)
	// The caption is the person's own typing: the customer or payment it
	// names is theirs, over what the model read off the slip.
	if caption != "" {
		typed := p.Parse(caption)
		if typed.CustomerID != "" {
			parsed.CustomerID = typed.CustomerID
			parsed.dropAsks(SlotCustomer)
		}
		if typed.Payment != "" {
			parsed.Payment = typed.Payment
			parsed.dropAsks(SlotPayment)
		}
	}
	s.Audit.Record(ctx, user.Phone, "order_extraction", "", map[string]any{
		"source": "photo", "complete": parsed.Complete(), "unresolved": parsed.Unresolved,
		"customer": parsed.CustomerID, "items": len(parsed.Items), "lines": len(ex.Items),
	})
	return s.askOrShow(ctx, user, parsed), nil
}

// dropAsks removes the questions about slot, once something else settled
// it.
func (p *Parsed) dropAsks(slot Slot) {
	var asks []Ask
	var texts []string
	for _, a := range p.Asks {
		if a.Slot == slot {
			continue
		}
		asks = append(asks, a)
		if !slices.Contains(texts, a.Text) {
			texts = append(texts, a.Text)
		}
	}
	p.Asks, p.Unresolved = asks, texts
	if p.Unresolved == nil {
		p.Unresolved = []string{}
	}
}
