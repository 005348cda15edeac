package orders

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// A payment shown for its ok takes a correction as a draft does: "nahi
// 12000 tha", "amount 12,000 hai", "cheque se tha", "10000 nahi 12000",
// or the number of its cheque or transfer ("cheque no 445566").
// The payment is shown again with what changed, and only an ok to the new
// summary records it.

// paymentFixWords may stand beside the amount or the way of paying that a
// correction of a shown payment says; any other word makes the message
// one of its own ("5000 aur aaya" is another payment).
var paymentFixWords = words(`tha thi the hai amount mode payment galat sahi actually sorry wrong was is it not se by in ka ki ke`)

// maxPaymentFix bounds the words of a correction of a payment.
const maxPaymentFix = 10

// paymentFix is what a correction of a payment changes.
type paymentFix struct {
	amount    domain.Paise
	mode      domain.PaymentMode
	reference string
}

// CorrectPayment reads a message as a correction of the payment the person
// was shown at or after since, still waiting for their ok; false when it is
// not one.
func (s *Service) CorrectPayment(ctx context.Context, user domain.User, since time.Time, d intent.Decision) (domain.Reply, bool) {
	n := d.Normalized
	if n.Tokens == nil {
		n = s.parser().norm.Normalize(d.Text)
	}
	if !mayFixPayment(n) {
		return domain.Reply{}, false
	}
	_, _, p, shown, err := s.lastShown(ctx, user)
	if err != nil || !shown || p.Kind != ProposePayment || p.Status != ProposalOpen || p.Payment == nil ||
		p.ProposedBy != user.Phone || p.CreatedAt.Before(since) {
		return domain.Reply{}, false
	}
	fix, ok := s.parser().readPaymentFix(d.Text, n, p.Payment.Mode)
	if !ok {
		return domain.Reply{}, false
	}
	next := *p.Payment
	var changes []string
	if fix.amount > 0 && fix.amount != next.Amount {
		changes = append(changes, fmt.Sprintf("amount %s → %s", next.Amount, fix.amount))
		next.Amount = fix.amount
	}
	if fix.mode != "" && fix.mode != next.Mode {
		changes = append(changes, fmt.Sprintf("by %s → %s", ModeName(next.Mode), ModeName(fix.mode)))
		next.Mode, next.Reference = fix.mode, "" // a cheque's number is no UPI's
	}
	if fix.reference != "" && fix.reference != next.Reference {
		changes = append(changes, "reference "+fix.reference)
		next.Reference = fix.reference
	}
	if len(changes) == 0 {
		return domain.Reply{}, false
	}
	dropped, err := s.Books.DropProposal(ctx, p.ID, user.Phone)
	if err != nil {
		return s.failure(ctx, string(ProposePayment), err), true
	}
	if !dropped {
		return domain.Reply{}, false
	}
	s.Audit.Record(ctx, user.Phone, "correction", p.Subject, map[string]any{"proposal": p.ID, "changes": changes})
	r := s.propose(ctx, user, Proposal{Kind: ProposePayment, Subject: p.Subject, Payment: &next})
	if r.About != "" {
		r.Text = "✏️ Changed: " + strings.Join(changes, "; ") + "\n\n" + r.Text
	}
	return r, true
}

// readPaymentFix reads the amount and the way of paying a correction
// says: one amount, or two with a negation between them (the second is
// meant), and nothing but the words of a correction beside them. No
// product, order or customer is named: those make a message of its own.
func (p *Parser) readPaymentFix(text string, n intent.Normalized, shown domain.PaymentMode) (paymentFix, bool) {
	if !mayFixPayment(n) {
		return paymentFix{}, false
	}
	r := newReading(text, n)
	var fix paymentFix
	inAmount := make([]bool, len(n.Tokens))
	ref := p.reference(r)
	if ref < 0 && shown != "" && shown != domain.PayCOD {
		// "no 123987" after a payment shown by cheque: its number.
		for i, t := range r.toks {
			if referenceFillers[t.Text] && i+1 < len(r.toks) && len(r.toks[i+1].Text) >= 6 && looksLikeReference(r.toks[i+1].Text) {
				ref = i + 1
				break
			}
		}
	}
	if ref >= 0 {
		fix.reference = strings.ToUpper(strings.Trim(r.source(r.toks[ref].Start, r.toks[ref].End), ".,;:#-"))
		r.used[ref], inAmount[ref] = true, true
	}
	var as []amount
	for _, a := range amounts(r) {
		if !r.used[a.start] {
			as = append(as, a)
		}
	}
	switch {
	case len(as) == 1:
		fix.amount = as[0].paise
	case len(as) == 2 && negations[strings.TrimSpace(r.word(as[0].end))] && as[0].end+1 == as[1].start:
		fix.amount = as[1].paise // "10000 nahi 12000"
	case len(as) > 0:
		return paymentFix{}, false
	}
	for _, a := range as {
		for i := a.start; i < a.end; i++ {
			inAmount[i] = true
		}
	}
	fix.mode = paymentIn(n)
	for _, t := range n.Tokens {
		// "cheque no 445566": the no is the number's, not a cheque
		// turned down.
		if m, ok := modeWord(t.Text); ok && fix.mode == "" && fix.reference != "" && modeReferenceWords[t.Text] {
			fix.mode = m
		}
	}
	if fix.amount == 0 && fix.mode == "" && fix.reference == "" {
		return paymentFix{}, false
	}
	for i, t := range n.Tokens {
		if inAmount[i] || paymentFixWords[t.Text] || negations[t.Text] || currencyWords[t.Text] || isModeWord(t.Text) ||
			referenceFillers[t.Text] || referenceWords[t.Text] || modeReferenceWords[t.Text] {
			continue
		}
		return paymentFix{}, false
	}
	return fix, true
}

// mayFixPayment reports a message that may correct a payment: a few
// words, with a number or a way of paying, naming no product, order or
// customer.
func mayFixPayment(n intent.Normalized) bool {
	return len(n.Tokens) > 0 && len(n.Tokens) <= maxPaymentFix && !n.Has(intent.EntityProduct) && !n.Has(intent.EntityOrderRef) &&
		!n.Has(intent.EntityCustomer) && (n.Has(intent.EntityNumber) || paymentIn(n) != "")
}

// modeWord is the way of paying a word names by itself ("check" only
// beside a word about paying).
func modeWord(w string) (domain.PaymentMode, bool) {
	m, ok := paymentWords[w]
	return m, ok && !weakPaymentWords[w]
}

func isModeWord(w string) bool { _, ok := modeWord(w); return ok }
