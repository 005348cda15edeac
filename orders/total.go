package orders

import (
	"context"
	"fmt"
	"slices"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// asksTotal reports a question of what the draft comes to, between its
// summary and its ok: "total kitna hua?", "total ketla thaya?", "GST
// serisi total eshtu aaytu?". A product or a customer named asks about
// them instead.
func asksTotal(n intent.Normalized) bool {
	if len(n.Tokens) > 10 || !slices.ContainsFunc(n.Tokens, func(t intent.Token) bool { return totalWords[t.Text] }) {
		return false // most messages, before the question is read
	}
	for _, e := range n.Entities {
		if e.Kind == intent.EntityProduct || e.Kind == intent.EntityCustomer {
			return false
		}
	}
	return n.Asks()
}

var totalWords = words(`total`)

// draftTotal answers what the shown draft comes to, and shows it again:
// it still waits for its ok.
func (s *Service) draftTotal(ctx context.Context, user domain.User, draftID string) (domain.Reply, bool) {
	dr, ok := s.openDraft(ctx, user, draftID, "its total")
	if !ok {
		return domain.Reply{}, false
	}
	text := fmt.Sprintf("Order %s comes to *%s* including GST (%s and GST %s).\n\n", dr.ID, dr.Total, dr.Subtotal, dr.GST)
	return domain.Reply{Text: text + Summary(dr, s.parser().Products()), About: dr.ID}, true
}

// openDraft is the draft shown to user that still waits for their ok:
// theirs, open and within the approval window. what names the reading,
// for the log.
func (s *Service) openDraft(ctx context.Context, user domain.User, draftID, what string) (Draft, bool) {
	dr, ok, err := s.Books.DraftByID(ctx, draftID)
	if err != nil {
		s.Logger.Warn("orders: draft not read for "+what, "draft", draftID, "err", err)
		return Draft{}, false
	}
	if !ok || dr.PlacedBy != user.Phone || dr.Status != DraftOpen || s.now().Sub(dr.CreatedAt) > ApprovalWindow {
		return Draft{}, false
	}
	return dr, true
}
