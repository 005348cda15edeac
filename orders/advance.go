package orders

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// A payment far beyond the dues is more often a slip of the finger (a
// crore typed for a lakh) than an advance. Accounts may leave an advance
// up to the customer's credit limit, or up to the Service's MaxAdvance
// when the limit is lower; beyond that the payment waits for an owner,
// like an order outside the rules: the proposer's "ok" sends it to the
// owners, "approve PRP-12" records it, judged again in the transaction
// that applies it, and "reject PRP-12" drops it, the proposer told either
// way. An owner recording the payment is their own approval.

// ProposalApprovals is the part of the store a proposal waiting for an
// owner needs.
type ProposalApprovals interface {
	// ProposalByID returns a proposal by its reference, whatever its
	// status.
	ProposalByID(ctx context.Context, id string) (Proposal, bool, error)
	// MoveProposal changes a proposal's status if it is in one of m.From,
	// and reports whether it did; m.Effects go to the outbox in the same
	// transaction.
	MoveProposal(ctx context.Context, m ProposalMove) (bool, error)
}

// ProposalMove is a change of a proposal's status.
type ProposalMove struct {
	ID   string
	From []ProposalStatus
	To   ProposalStatus
	By   string
	// Effects go to the outbox only if the proposal moves.
	Effects []domain.Effect
}

// errNeedsOwnerApproval: the proposer's ok found a change only an owner
// may approve.
var errNeedsOwnerApproval = errors.New("orders: the payment needs an owner's approval")

// advanceNeedsOwner says why an advance needs an owner's approval, or
// nothing when it is within the bound: the customer's credit limit, or
// floor when that is more.
func advanceNeedsOwner(c domain.Customer, advance, floor domain.Paise) string {
	bound, which := c.CreditLimit, possessive(c.Name)+" credit limit"
	if floor > bound {
		bound = floor
		which = fmt.Sprintf("the business's limit for an advance, as %s credit limit of %s is lower", possessive(c.Name), c.CreditLimit)
		if c.CreditLimit <= 0 {
			which = fmt.Sprintf("the business's limit for an advance, as %s has no credit limit", c.Name)
		}
	}
	if advance <= bound {
		return ""
	}
	return fmt.Sprintf("the advance of %s is more than %s (%s), the most an advance may be without an owner.", advance, bound, which)
}

// possessive is "Mehta Traders'" or "Rajesh Kirana Store's".
func possessive(name string) string {
	if strings.HasSuffix(name, "s") {
		return name + "'"
	}
	return name + "'s"
}

// okPrompt ends a summary with what "ok" will do.
func okPrompt(user domain.User, b built) string {
	switch {
	case b.owner == "":
		return "Reply *ok* to record it, or *cancel*."
	case user.Role == domain.RoleOwner:
		return "Reply *ok* to record it (your ok is the owner's approval), or *cancel*."
	}
	return "Reply *ok* to send it to the owner for approval, or *cancel*."
}

// askOwners sends a payment its proposer said ok to, and that needs an
// owner, to the owners, and tells the proposer it waits for them.
func (s *Service) askOwners(ctx context.Context, user domain.User, p Proposal, b built) domain.Reply {
	owners, err := s.Books.UsersByRole(ctx, domain.RoleOwner)
	if err != nil {
		return s.failure(ctx, "escalate", err)
	}
	if len(owners) == 0 {
		return domain.Reply{Text: fmt.Sprintf("Payment %s needs an owner's approval, but no owner is registered. Nothing was recorded.", p.ID)}
	}
	body := fmt.Sprintf("🔔 *Approval needed: payment %s*, from %s\n\n%s\n\nReply *approve %s* or *reject %s*.", p.ID, nameOf(user), b.summary, p.ID, p.ID)
	var asks []domain.Effect
	for _, o := range owners {
		asks = append(asks, domain.WhatsApp(domain.Outbound{To: o.Phone, Body: body, Notice: domain.Notice{About: p.ID, TellOnFailure: p.ProposedBy}}))
	}
	moved, err := s.Books.MoveProposal(ctx, ProposalMove{ID: p.ID, From: []ProposalStatus{ProposalOpen}, To: ProposalPendingApproval,
		By: user.Phone, Effects: asks})
	if err != nil {
		return s.failure(ctx, "escalate", err)
	}
	if !moved {
		return domain.Reply{Text: "That is already recorded, or no longer waiting for your ok."}
	}
	s.Audit.Record(ctx, user.Phone, "escalation", p.ID, map[string]any{"kind": string(p.Kind), "subject": p.Subject,
		"owners": len(asks), "reason": b.owner, "fingerprint": p.Fingerprint})
	if s.Nudge != nil {
		s.Nudge()
	}
	return domain.Reply{Text: fmt.Sprintf("⏳ Not recorded yet: payment %s needs the owner's approval, as %s\nI have sent it to them; you'll hear back here.",
		p.ID, b.owner), About: p.Subject}
}

// decideProposal is an owner's "approve PRP-12" or "reject PRP-12" of a
// payment waiting for them.
func (s *Service) decideProposal(ctx context.Context, owner domain.User, id string, approve bool) domain.Reply {
	verb := map[bool]string{true: "approve", false: "reject"}[approve]
	p, ok, err := s.Books.ProposalByID(ctx, id)
	if err != nil {
		return s.failure(ctx, verb, err)
	}
	switch {
	case !ok:
		return domain.Reply{Text: fmt.Sprintf("I can't find %s.", id)}
	case p.Status == ProposalApplied:
		return domain.Reply{Text: fmt.Sprintf("%s is already recorded.", id)}
	case p.Status != ProposalPendingApproval:
		return domain.Reply{Text: fmt.Sprintf("%s is not waiting for approval (it is %s).", id, statusWords(p.Status))}
	}
	if approve {
		return s.approveProposal(ctx, owner, p)
	}
	told := domain.WhatsApp(domain.Outbound{To: p.ProposedBy, Notice: domain.Notice{About: p.ID}, Body: fmt.Sprintf("❌ Payment %s%s was rejected by %s. Nothing was recorded.",
		p.ID, s.paymentWords(p), nameOf(owner))})
	moved, err := s.Books.MoveProposal(ctx, ProposalMove{ID: p.ID, From: []ProposalStatus{ProposalPendingApproval}, To: ProposalRejected,
		By: owner.Phone, Effects: []domain.Effect{told}})
	if err != nil {
		return s.failure(ctx, verb, err)
	}
	if !moved {
		return domain.Reply{Text: fmt.Sprintf("%s is no longer waiting for approval.", p.ID)}
	}
	s.Audit.Record(ctx, owner.Phone, "rejection", p.ID, map[string]any{"kind": string(p.Kind), "subject": p.Subject, "proposed_by": p.ProposedBy})
	if s.Nudge != nil {
		s.Nudge()
	}
	return domain.Reply{Text: fmt.Sprintf("Rejected %s. Nothing was recorded, and %s has been told.", p.ID, s.placerName(ctx, p.ProposedBy))}
}

// approveProposal records a payment an owner approved, judged again
// inside the transaction that applies it against the books as they are
// then: if they moved since the owner was asked, it is closed and its
// proposer told to send it again.
func (s *Service) approveProposal(ctx context.Context, owner domain.User, p Proposal) domain.Reply {
	proposer, err := s.Books.UserByPhone(ctx, p.ProposedBy)
	if domain.ErrorCode(err) == domain.ENOTFOUND {
		proposer, err = domain.User{Phone: p.ProposedBy}, nil
	}
	if err != nil {
		return s.failure(ctx, "approve", err)
	}
	var fresh built
	judge := func(l Ledger) (Settled, error) {
		l.MaxAdvance = s.MaxAdvance
		b, err := build(p, l, proposer)
		if err != nil {
			return Settled{}, err
		}
		fresh = b
		if b.fingerprint() != p.Fingerprint {
			return Settled{}, errLedgerChanged
		}
		detail := s.Audit.Redact(b.detail)
		detail["fingerprint"], detail["proposal"], detail["approval"], detail["proposed_by"] = p.Fingerprint, p.ID, true, p.ProposedBy
		note := AuditNote{Actor: owner.Phone, Kind: string(p.Kind), Subject: p.Subject, Detail: detail}
		var effects []domain.Effect
		if p.ProposedBy != owner.Phone {
			effects = append(effects, domain.WhatsApp(domain.Outbound{To: p.ProposedBy, Notice: domain.Notice{About: p.ID}, Body: fmt.Sprintf("Payment %s was approved by %s.\n%s",
				p.ID, nameOf(owner), b.done)}))
		}
		return Settled{Changes: b.changes, Effects: append(effects, b.effects...), Notes: []AuditNote{note}}, nil
	}
	err = s.Books.Settle(ctx, Settlement{ProposalID: p.ID, From: ProposalPendingApproval, By: owner.Phone, At: s.now(), Query: p.query(), Judge: judge})
	var no refusal
	switch {
	case err == nil:
	case errors.As(err, &no):
		s.Audit.Record(ctx, owner.Phone, string(p.Kind)+"_refused", p.Subject, map[string]any{"reason": no.reason, "at": "approve", "proposal": p.ID})
		return s.closeProposal(ctx, owner, p, "it cannot be recorded now: "+no.reason, "")
	case errors.Is(err, errLedgerChanged):
		s.Audit.Record(ctx, owner.Phone, string(p.Kind)+"_changed", p.Subject, map[string]any{"shown": p.Fingerprint, "now": fresh.fingerprint(),
			"at": "approve", "proposal": p.ID})
		return s.closeProposal(ctx, owner, p, "the books changed since it was sent for approval (another payment or order for the customer).",
			"\n\nAs they stand now:\n\n"+fresh.summary)
	case domain.ErrorCode(err) == domain.ECONFLICT:
		return domain.Reply{Text: fmt.Sprintf("%s is already recorded, or no longer waiting for approval.", p.ID)}
	default:
		return s.failure(ctx, "approve", err)
	}
	if s.Nudge != nil {
		s.Nudge()
	}
	done := fmt.Sprintf("Approved %s. %s", p.ID, fresh.done)
	if p.ProposedBy != owner.Phone {
		done += " " + nameOf(proposer) + " has been told."
	}
	return domain.Reply{Text: done, About: p.Subject}
}

// closeProposal closes a payment waiting for approval that can no longer
// be recorded as it was shown, and tells its proposer why.
func (s *Service) closeProposal(ctx context.Context, owner domain.User, p Proposal, because, more string) domain.Reply {
	told := domain.WhatsApp(domain.Outbound{To: p.ProposedBy, Notice: domain.Notice{About: p.ID}, Body: fmt.Sprintf(
		"⚠️ Payment %s%s was not recorded: %s\nPlease send it again if it is still right.", p.ID, s.paymentWords(p), because)})
	moved, err := s.Books.MoveProposal(ctx, ProposalMove{ID: p.ID, From: []ProposalStatus{ProposalPendingApproval}, To: ProposalDropped,
		By: owner.Phone, Effects: []domain.Effect{told}})
	if err != nil {
		return s.failure(ctx, "approve", err)
	}
	if !moved {
		return domain.Reply{Text: fmt.Sprintf("%s is no longer waiting for approval.", p.ID)}
	}
	s.Audit.Record(ctx, owner.Phone, "superseded", p.ID, map[string]any{"kind": string(p.Kind), "subject": p.Subject, "because": because})
	if s.Nudge != nil {
		s.Nudge()
	}
	return domain.Reply{Text: fmt.Sprintf("%s was not recorded: %s%s\n\nIt is now closed, and %s has been told to send it again if it is still right.",
		p.ID, because, more, s.placerName(ctx, p.ProposedBy))}
}

// reshowProposal answers an owner's approval that followed a message
// Munshi could not read: it approves nothing and shows the payment again.
func (s *Service) reshowProposal(ctx context.Context, user domain.User, id string) domain.Reply {
	p, ok, err := s.Books.ProposalByID(ctx, id)
	if err != nil {
		return s.failure(ctx, "confirm", err)
	}
	if !ok || p.Status != ProposalPendingApproval {
		return domain.Reply{Text: "Your last message was not applied. Nothing was approved."}
	}
	l, err := s.ledger(ctx, p.query())
	if err != nil {
		return s.failure(ctx, "confirm", err)
	}
	b, err := build(p, l, user)
	if err != nil {
		return domain.Reply{Text: "Your last message was not applied. Nothing was approved."}
	}
	return domain.Reply{Text: notApplied + b.summary + fmt.Sprintf("\n\nTo approve it, reply *approve %s* again.", p.ID), About: p.Subject}
}

// paymentWords names a proposal's payment for a message about it: " of
// ₹1,20,00,000 from Rajesh Kirana Store".
func (s *Service) paymentWords(p Proposal) string {
	if p.Payment == nil {
		return ""
	}
	who := p.Payment.CustomerID
	if c, ok := s.parser().customers[who]; ok {
		who = c.Name
	}
	return fmt.Sprintf(" of %s from %s", p.Payment.Amount, who)
}

func statusWords(st ProposalStatus) string {
	switch st {
	case ProposalOpen:
		return "still waiting for its proposer's ok"
	case ProposalPendingApproval:
		return "waiting for approval"
	}
	return string(st)
}
