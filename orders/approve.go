package orders

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// Confirm approves the draft last shown to the person ("ok"), or, for an
// owner naming an order, the escalated draft with that number.
func (s *Service) Confirm(ctx context.Context, user domain.User, ref string) domain.Reply {
	if ref != "" {
		return s.decide(ctx, user, ref, "", true)
	}
	d, ok, p, shown, err := s.lastShown(ctx, user)
	if err != nil {
		return s.failure(ctx, "confirm", err)
	}
	if shown {
		switch p.Status {
		case ProposalOpen:
			return s.settle(ctx, user, p)
		case ProposalApplied:
			return domain.Reply{Text: "That is already recorded."}
		case ProposalPendingApproval:
			return domain.Reply{Text: fmt.Sprintf("Payment %s is already with the owner for approval.", p.ID)}
		case ProposalRejected:
			return domain.Reply{Text: fmt.Sprintf("Payment %s was rejected by the owner. Nothing was recorded.", p.ID)}
		}
		return domain.Reply{Text: "There is nothing waiting for your ok. Send the payment, delivery or order again."}
	}
	if !ok || d.Status == DraftCancelled || d.Status == DraftReplaced {
		return domain.Reply{Text: "There is no order waiting for your ok. Send the order first, then reply *ok* to the summary (within 30 minutes)."}
	}
	switch d.Status {
	case DraftCommitted:
		return domain.Reply{Text: fmt.Sprintf("Order %s is already placed.", d.Number())}
	case DraftPendingApproval:
		return domain.Reply{Text: fmt.Sprintf("Order %s is already with the owner for approval.", d.ID)}
	case DraftRejected:
		return domain.Reply{Text: fmt.Sprintf("Order %s was rejected by the owner.", d.ID)}
	case DraftSuperseded:
		return domain.Reply{Text: fmt.Sprintf("Order %s was closed because the books changed before the owner approved it. Please send the order again.", d.ID)}
	}
	return s.commit(ctx, user, d, false)
}

// Reasons a commit did not go ahead, from the judgement inside its
// transaction.
var (
	errChanged    = errors.New("orders: the order changed since it was shown")
	errBlocked    = errors.New("orders: a rule blocks the order")
	errNeedsOwner = errors.New("orders: the order needs an owner's approval")
)

// commit judges the draft again inside the commit's transaction, against
// the books as they are then, and places it only if the rules still allow
// it, under the next order number: approval is the placer's "ok" on the
// summary, or, with approval set, an owner's "approve D-…" of an
// escalated draft. An exception (the
// minimum, the credit limit) is allowed only when an owner has read it
// exactly as it stands now.
func (s *Service) commit(ctx context.Context, by domain.User, d Draft, approval bool) domain.Reply {
	placer, accounts, err := s.people(ctx, d.PlacedBy)
	if err != nil {
		return s.failure(ctx, "commit", err)
	}
	ownerRead := approval || (by.Role == domain.RoleOwner && by.Phone == d.PlacedBy)
	var fresh Draft
	judge := func(snap Snapshot) error {
		snap.MinimumOrder = s.MinimumOrder
		f, err := Price(snap.Customer, d.Payment, itemsOf(d), snap.Products)
		if err != nil {
			return err
		}
		fresh = Judge(ctx, f, snap)
		fresh.ID, fresh.PlacedBy, fresh.Status, fresh.CreatedAt = d.ID, d.PlacedBy, d.Status, d.CreatedAt
		fresh.Instructions = d.Instructions
		switch {
		case identity(fresh) != identity(d):
			return errChanged
		case fresh.Verdict() == Block:
			return errBlocked
		case fresh.Verdict() == Escalate && !(ownerRead && covers(d, fresh)):
			return errNeedsOwner
		}
		return nil
	}
	// The notifications name the order by the number the commit takes.
	tell := func(id string) ([]domain.Effect, []AuditNote) {
		effects := s.notifications(id, d, placer, by, accounts)
		return effects, []AuditNote{{Actor: by.Phone, Kind: "commit", Subject: id, Detail: s.Audit.Redact(map[string]any{
			"draft": d.ID, "customer": d.Customer.ID, "total_paise": int64(d.Total), "payment": string(d.Payment),
			"fingerprint": fresh.Fingerprint, "placed_by": d.PlacedBy, "notifications": len(effects),
			"approval": approval,
		})}}
	}
	c := Commitment{Draft: d, By: by.Phone, Judge: judge, Tell: tell}
	if s.LogOrders {
		products := s.parser().Products()
		c.Log = func(o domain.Order) []domain.Effect {
			return []domain.Effect{domain.OrderLogged(domain.LogOrder(o, d.Customer.Name, products, o.CommittedAt))}
		}
	}
	id, err := s.Books.Commit(ctx, c)
	switch {
	case err == nil:
	case errors.Is(err, errChanged), errors.Is(err, errBlocked), errors.Is(err, errNeedsOwner):
		return s.rejudged(ctx, by, d, fresh, approval, err)
	case domain.ErrorCode(err) == domain.ECONFLICT:
		return domain.Reply{Text: fmt.Sprintf("Order %s was not placed: %s.", d.ID, domain.ErrorMessage(err))}
	default:
		return s.failure(ctx, "commit", err)
	}
	if s.Nudge != nil {
		s.Nudge()
	}
	told := NotifiedLine(s.Channels, len(accounts) > 0, len(s.AccountsEmail) > 0)
	return domain.Reply{Text: fmt.Sprintf("✅ Order *%s* placed for %s — %s (%s). %s", id, d.Customer.Name, d.Total, ModeName(d.Payment), told)}
}

// rejudged answers a commit that the books as they are now did not allow.
// An owner's approval that no longer holds closes the draft; the placer's
// "ok" leaves it to be corrected, or sends it to the owners.
func (s *Service) rejudged(ctx context.Context, by domain.User, shown, fresh Draft, approval bool, why error) domain.Reply {
	reason := map[error]string{errChanged: "changed", errBlocked: "blocked", errNeedsOwner: "needs_owner"}
	var kind string
	for e, k := range reason {
		if errors.Is(why, e) {
			kind = k
		}
	}
	s.Audit.Record(ctx, by.Phone, "approval_refused", shown.ID, map[string]any{
		"reason": kind, "shown": shown.Fingerprint, "now": fresh.Fingerprint, "results": resultsDetail(fresh.Results), "approval": approval,
	})
	if approval {
		return s.supersede(ctx, by, shown, fresh, why)
	}
	switch {
	case errors.Is(why, errChanged):
		return domain.Reply{Text: fmt.Sprintf("Order %s changed since the summary was shown (prices or customer details), so it was not placed. Please send the order again.", shown.ID)}
	case errors.Is(why, errBlocked):
		return domain.Reply{Text: fmt.Sprintf("Order %s cannot be placed now:\n%s\nSend a corrected order, or *cancel*.", shown.ID, reasons(fresh, Block))}
	}
	if by.Role == domain.RoleOwner {
		// The owner's own draft: show what changed and let them decide.
		moved, err := s.Books.MoveDraft(ctx, DraftMove{ID: shown.ID, From: []DraftStatus{DraftOpen}, To: DraftOpen, By: by.Phone, Draft: &fresh})
		if err != nil {
			return s.failure(ctx, "confirm", err)
		}
		if !moved {
			return domain.Reply{Text: fmt.Sprintf("Order %s is no longer waiting for your ok.", shown.ID)}
		}
		return domain.Reply{Text: fmt.Sprintf("Order %s was not placed: since the summary,\n%s\nReply *ok* again to place it anyway, or *cancel*.", shown.ID, reasons(fresh, Escalate)), About: shown.ID}
	}
	return s.escalate(ctx, by, shown, fresh)
}

// supersede closes an escalated draft whose approval no longer holds, and
// tells the person who placed it why and what to do.
func (s *Service) supersede(ctx context.Context, owner domain.User, shown, fresh Draft, why error) domain.Reply {
	var because string
	switch {
	case errors.Is(why, errChanged):
		because = "its prices or the customer's details changed"
	case errors.Is(why, errBlocked):
		because = "it can no longer be placed:\n" + reasons(fresh, Block)
	default:
		because = "the books changed since the owner was asked:\n" + reasons(fresh, Escalate)
	}
	told := domain.WhatsApp(domain.Outbound{To: shown.PlacedBy, Body: fmt.Sprintf(
		"⚠️ Order %s for %s was not placed: %s\nIt is closed. Please send the order again if it is still needed.", shown.ID, shown.Customer.Name, because)})
	moved, err := s.Books.MoveDraft(ctx, DraftMove{ID: shown.ID, From: []DraftStatus{DraftPendingApproval}, To: DraftSuperseded,
		By: owner.Phone, Draft: &fresh, Effects: []domain.Effect{told}})
	if err != nil {
		return s.failure(ctx, "approve", err)
	}
	if !moved {
		return domain.Reply{Text: fmt.Sprintf("Order %s is no longer waiting for approval.", shown.ID)}
	}
	s.Audit.Record(ctx, owner.Phone, "superseded", shown.ID, map[string]any{"fingerprint": fresh.Fingerprint})
	if s.Nudge != nil {
		s.Nudge()
	}
	return domain.Reply{Text: fmt.Sprintf("Order %s was not placed: %s\nIt is now closed, and %s has been told to send it again if it is still needed.",
		shown.ID, because, s.placerName(ctx, shown.PlacedBy))}
}

// placerName names who placed an order, for a reply.
func (s *Service) placerName(ctx context.Context, phone string) string {
	if u, err := s.Books.UserByPhone(ctx, phone); err == nil {
		return nameOf(u)
	}
	return "the salesperson"
}

// escalate sends a draft that needs an owner (the minimum, the credit
// limit) to the owners, with the reasons as the books give them now, and
// tells the placer why.
func (s *Service) escalate(ctx context.Context, user domain.User, shown, fresh Draft) domain.Reply {
	owners, err := s.Books.UsersByRole(ctx, domain.RoleOwner)
	if err != nil {
		return s.failure(ctx, "escalate", err)
	}
	if len(owners) == 0 {
		return domain.Reply{Text: fmt.Sprintf("Order %s needs an owner's approval, but no owner is registered.", shown.ID)}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "🔔 *Approval needed: %s* for %s, from %s\n", fresh.ID, fresh.Customer.Name, nameOf(user))
	writeLines(&b, fresh, s.parser().Products())
	fmt.Fprintf(&b, "Payment: %s\n", ModeName(fresh.Payment))
	writeInstructions(&b, fresh)
	fmt.Fprintf(&b, "\n%s\n\nReply *approve %s* or *reject %s*.", reasons(fresh, Escalate), fresh.ID, fresh.ID)
	var asks []domain.Effect
	for _, o := range owners {
		asks = append(asks, domain.WhatsApp(domain.Outbound{To: o.Phone, Body: b.String()}))
	}
	moved, err := s.Books.MoveDraft(ctx, DraftMove{ID: shown.ID, From: []DraftStatus{DraftOpen}, To: DraftPendingApproval,
		By: user.Phone, Draft: &fresh, Effects: asks})
	if err != nil {
		return s.failure(ctx, "escalate", err)
	}
	if !moved {
		return domain.Reply{Text: fmt.Sprintf("Order %s is no longer waiting for your ok.", shown.ID)}
	}
	s.Audit.Record(ctx, user.Phone, "escalation", shown.ID, map[string]any{"owners": len(asks), "reasons": reasons(fresh, Escalate)})
	if s.Nudge != nil {
		s.Nudge()
	}
	lead := fmt.Sprintf("⏳ Order %s needs the owner's approval", shown.ID)
	if !covers(shown, fresh) {
		lead = fmt.Sprintf("⏳ The books changed since the summary (another order or payment for %s), so order %s now needs the owner's approval",
			fresh.Customer.Name, shown.ID)
	}
	return domain.Reply{Text: fmt.Sprintf("%s:\n%s\nI have sent it to them; you'll hear back here.", lead, reasons(fresh, Escalate))}
}

// lastShown is what the person was shown last and may say ok or cancel
// to: their latest draft, or (shown set) their latest proposal when it is
// newer.
func (s *Service) lastShown(ctx context.Context, user domain.User) (d Draft, ok bool, p Proposal, shown bool, err error) {
	since := s.now().Add(-ApprovalWindow)
	if d, ok, err = s.Books.LatestDraft(ctx, user.Phone, since); err != nil {
		return
	}
	if p, shown, err = s.Books.LatestProposal(ctx, user.Phone, since); err != nil {
		return
	}
	shown = shown && (!ok || p.CreatedAt.After(d.CreatedAt))
	return
}

// Cancel drops what was last shown to the person (a draft, or a payment,
// delivery or stock summary), or, for an owner naming an order, rejects
// that escalated draft or cancels that placed order; text is the whole
// message, whose other words are the reason.
func (s *Service) Cancel(ctx context.Context, user domain.User, ref, text string) domain.Reply {
	if ref != "" {
		return s.decide(ctx, user, ref, text, false)
	}
	d, ok, p, shown, err := s.lastShown(ctx, user)
	if err != nil {
		return s.failure(ctx, "cancel", err)
	}
	if shown {
		if p.Status == ProposalOpen {
			dropped, err := s.Books.DropProposal(ctx, p.ID, user.Phone)
			if err != nil {
				return s.failure(ctx, "cancel", err)
			}
			if dropped {
				s.Audit.Record(ctx, user.Phone, "cancel", p.Subject, map[string]any{"proposal": p.ID, "kind": string(p.Kind)})
				return domain.Reply{Text: "Dropped. Nothing was recorded."}
			}
		}
		if p.Status == ProposalPendingApproval {
			return domain.Reply{Text: fmt.Sprintf("Payment %s is with the owner for approval, and nothing is recorded until they approve it; they can *reject %s*.", p.ID, p.ID)}
		}
		return domain.Reply{Text: "There is nothing waiting to cancel."}
	}
	if !ok || d.Status != DraftOpen {
		return domain.Reply{Text: "There is no open order to cancel."}
	}
	moved, err := s.Books.MoveDraft(ctx, DraftMove{ID: d.ID, From: []DraftStatus{DraftOpen}, To: DraftCancelled, By: user.Phone})
	if err != nil {
		return s.failure(ctx, "cancel", err)
	}
	if !moved {
		return domain.Reply{Text: "There is no open order to cancel."}
	}
	s.Audit.Record(ctx, user.Phone, "cancel", d.ID, nil)
	return domain.Reply{Text: fmt.Sprintf("Cancelled order %s for %s. Nothing was placed.", d.ID, d.Customer.Name)}
}

// decide is an owner's "approve D-57" or "reject D-57" of a draft waiting
// for them (or of one numbered ORD-… when it was shown); "cancel ORD-…"
// of an order already placed, or of the draft it was placed from, cancels
// it, after a summary and an ok.
func (s *Service) decide(ctx context.Context, user domain.User, ref, text string, approve bool) domain.Reply {
	verb := map[bool]string{true: "approve", false: "reject"}[approve]
	if user.Role != domain.RoleOwner {
		s.Audit.Record(ctx, user.Phone, "refusal", ref, map[string]any{"reason": "only owners may " + verb})
		if domain.IsProposalRef(domain.OrderRef(ref)) {
			return domain.Reply{Text: "Only an owner can approve or reject a payment waiting for approval."}
		}
		if !approve {
			return domain.Reply{Text: "Only an owner can reject or cancel orders."}
		}
		return domain.Reply{Text: fmt.Sprintf("Only an owner can %s orders.", verb)}
	}
	id := domain.OrderRef(ref)
	if domain.IsProposalRef(id) {
		return s.decideProposal(ctx, user, id, approve)
	}
	d, ok, err := s.Books.DraftByID(ctx, id)
	if err != nil {
		return s.failure(ctx, verb, err)
	}
	if !approve && (!ok || d.Status == DraftCommitted) {
		reason := cancelReason(text, id)
		if ok {
			id = d.Number()
		}
		return s.CancelOrder(ctx, user, id, reason)
	}
	if !ok {
		return domain.Reply{Text: fmt.Sprintf("I can't find order %s.", id)}
	}
	if d.Status == DraftCommitted {
		return domain.Reply{Text: fmt.Sprintf("Order %s is already placed.", d.Number())}
	}
	if d.Status != DraftPendingApproval {
		return domain.Reply{Text: fmt.Sprintf("Order %s is not waiting for approval (it is %s).", id, strings.ReplaceAll(string(d.Status), "_", " "))}
	}
	if approve {
		return s.commit(ctx, user, d, true)
	}
	told := domain.WhatsApp(domain.Outbound{To: d.PlacedBy, Body: fmt.Sprintf("❌ Order %s for %s (%s) was rejected by %s.", d.ID, d.Customer.Name, d.Total, nameOf(user))})
	moved, err := s.Books.MoveDraft(ctx, DraftMove{ID: d.ID, From: []DraftStatus{DraftPendingApproval}, To: DraftRejected,
		By: user.Phone, Effects: []domain.Effect{told}})
	if err != nil {
		return s.failure(ctx, verb, err)
	}
	if !moved {
		return domain.Reply{Text: fmt.Sprintf("Order %s is no longer waiting for approval.", id)}
	}
	s.Audit.Record(ctx, user.Phone, "rejection", d.ID, nil)
	if s.Nudge != nil {
		s.Nudge()
	}
	return domain.Reply{Text: fmt.Sprintf("Rejected order %s. The salesperson has been told.", d.ID)}
}

// cancelWords are the words of "cancel ORD-1042" itself, not its reason.
var cancelWords = map[string]bool{"cancel": true, "cancelled": true, "canceled": true, "reject": true, "radd": true,
	"kar": true, "karo": true, "do": true, "order": true, "please": true, "pls": true, "because": true, "kyunki": true,
	"reason": true, "as": true, "since": true}

// cancelReason is what a cancellation message says besides cancelling:
// "cancel ORD-1042 — customer refused" gives "customer refused".
func cancelReason(text, id string) string {
	var keep []string
	for _, w := range strings.Fields(text) {
		bare := strings.ToLower(strings.Trim(w, ".,;:!?-—–()\"'"))
		if bare == "" || cancelWords[bare] || domain.OrderRef(bare) == id {
			continue
		}
		keep = append(keep, strings.Trim(w, "—–-:;,"))
	}
	return strings.TrimSpace(strings.Join(keep, " "))
}

// notApplied leads a summary shown again because the message before the
// "ok" was not understood.
const notApplied = "Your last message was not applied, so nothing was placed or recorded. This is still what waits for your *ok*:\n\n"

// Reshow answers an "ok" (or an owner's approval, ref) that follows a
// message Munshi could not read: it confirms nothing, and shows again
// what the ok would have approved, so that the person sees it unchanged.
func (s *Service) Reshow(ctx context.Context, user domain.User, ref string) domain.Reply {
	if domain.IsProposalRef(domain.OrderRef(ref)) {
		return s.reshowProposal(ctx, user, domain.OrderRef(ref))
	}
	if ref != "" {
		d, ok, err := s.Books.DraftByID(ctx, domain.OrderRef(ref))
		if err != nil {
			return s.failure(ctx, "confirm", err)
		}
		if !ok || d.Status != DraftPendingApproval {
			return domain.Reply{Text: "Your last message was not applied. Nothing was approved."}
		}
		return domain.Reply{Text: notApplied + Summary(d, s.parser().Products()) + fmt.Sprintf("\n\nTo approve it, reply *approve %s* again.", d.ID), About: d.ID}
	}
	d, ok, p, shown, err := s.lastShown(ctx, user)
	if err != nil {
		return s.failure(ctx, "confirm", err)
	}
	if shown && p.Status == ProposalOpen {
		l, err := s.ledger(ctx, p.query())
		if err != nil {
			return s.failure(ctx, "confirm", err)
		}
		if b, err := build(p, l, user); err == nil {
			return domain.Reply{Text: notApplied + b.summary + "\n\n" + okPrompt(user, b), About: p.Subject}
		}
	}
	if !shown && ok && d.Status == DraftOpen {
		return domain.Reply{Text: notApplied + Summary(d, s.parser().Products()), About: d.ID}
	}
	return domain.Reply{Text: "Your last message was not applied, and nothing is waiting for your ok. Please send the order again."}
}
