package orders

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// The books after an order. A delivery, a cancellation of a placed order,
// a payment or goods received is read from a message, shown as a summary
// with the figures before and after, and applied only on "ok" — judged
// again inside the transaction that applies it, against the books as they
// are then, and bound to what was shown by a fingerprint, exactly like an
// order's approval.

// ProposalKind is what a proposal changes in the books.
type ProposalKind string

const (
	ProposeDelivery     ProposalKind = "delivery"
	ProposeCancellation ProposalKind = "cancellation"
	ProposePayment      ProposalKind = "payment"
	ProposeReceipt      ProposalKind = "receipt"
)

// ProposalStatus is where a proposal is in its life.
type ProposalStatus string

const (
	ProposalOpen     ProposalStatus = "open"     // shown, waiting for ok
	ProposalApplied  ProposalStatus = "applied"  // in the books
	ProposalDropped  ProposalStatus = "dropped"  // the person said cancel
	ProposalReplaced ProposalStatus = "replaced" // something newer was shown
	// A payment whose advance is beyond the bound (advance.go) waits for
	// an owner after its proposer's ok.
	ProposalPendingApproval ProposalStatus = "pending_approval"
	ProposalRejected        ProposalStatus = "rejected" // an owner said reject
)

// Proposal is a change to the books waiting for its proposer's "ok": what
// was asked (to be judged again at "ok") and the fingerprint of what was
// shown.
type Proposal struct {
	ID          string         `json:"id"`
	Kind        ProposalKind   `json:"kind"`
	ProposedBy  string         `json:"proposed_by"`
	Subject     string         `json:"subject"`
	Status      ProposalStatus `json:"status"`
	Fingerprint string         `json:"fingerprint"`
	CreatedAt   time.Time      `json:"created_at"`

	OrderID string       `json:"order_id,omitempty"` // delivery, cancellation
	Short   []Item       `json:"short,omitempty"`    // delivery: base units not delivered
	Only    []Item       `json:"only,omitempty"`     // delivery: base units delivered, when said so
	Reason  string       `json:"reason,omitempty"`   // cancellation
	Payment *PaymentNote `json:"payment,omitempty"`
	Receipt *ReceiptNote `json:"receipt,omitempty"`

	// Units is, for a delivery, the unit each product's quantity was said
	// in, so the summary judged again at "ok" is the one shown.
	Units map[string]string `json:"units,omitempty"`
}

// LedgerQuery names what a proposal must read of the books.
type LedgerQuery struct {
	OrderID    string
	CustomerID string
	Reference  string // a payment's reference, to refuse a duplicate
	SKUs       []string
}

// Ledger is what a proposal is judged against, read in one transaction.
type Ledger struct {
	Order       *domain.Order // with its lines; nil when there is none
	OrderSource string        // 'munshi', 'import', 'demo'
	Customer    *domain.Customer
	Products    map[string]domain.Product
	// ReferenceUsed: a payment with that reference is already recorded for
	// the customer (compared without regard to case).
	ReferenceUsed bool
	// MaxAdvance is the Service's, set by it and not read from the books:
	// the judgement of a payment needs it inside the transaction too.
	MaxAdvance domain.Paise
}

// ChangeKind is one kind of change to the books.
type ChangeKind string

const (
	ChangeDeliver ChangeKind = "deliver" // an order delivered, with its lines as delivered
	ChangeCancel  ChangeKind = "cancel"  // a placed order cancelled
	ChangeDue     ChangeKind = "due"     // a customer's outstanding moves by Amount
	ChangePayment ChangeKind = "payment" // a payment recorded
	ChangeStock   ChangeKind = "stock"   // a product's ready and WIP stock move
)

// Change is one change to the books; the store applies a settlement's
// changes in one transaction.
type Change struct {
	Kind ChangeKind
	// Deliver, Cancel.
	OrderID              string
	Lines                []domain.OrderLine // Deliver: every line of the order, in its order, with its Short
	Subtotal, GST, Total domain.Paise
	Note                 string
	// Due, Payment.
	CustomerID string
	Amount     domain.Paise
	Mode       domain.PaymentMode
	Reference  string
	// Stock: deltas in base units.
	SKU        string
	Ready, WIP int64
}

// Settled is what a settlement's judgement lets through: the changes, the
// messages they cause, and the audit entry.
type Settled struct {
	Changes []Change
	Effects []domain.Effect
	Notes   []AuditNote
}

// Settlement is a proposal on its way into the books.
type Settlement struct {
	ProposalID string
	// From is the status the proposal is claimed from: open (the
	// proposer's ok) when empty, pending approval for an owner's approve.
	From  ProposalStatus
	By    string
	At    time.Time
	Query LedgerQuery
	// Judge is called inside the transaction with the books as they are
	// then; nothing is written unless it returns nil.
	Judge func(Ledger) (Settled, error)
}

// LedgerBooks is the part of the store the books after an order need.
type LedgerBooks interface {
	NewProposalID(ctx context.Context) (string, error)
	// SaveProposal stores a proposal just shown; the person's other open
	// proposals and drafts are replaced, so "ok" is about what they saw
	// last.
	SaveProposal(ctx context.Context, p Proposal) error
	// SetAside replaces the person's open drafts and proposals: what they
	// saw last was a question, which "ok" must not skip.
	SetAside(ctx context.Context, phone string) error
	LatestProposal(ctx context.Context, phone string, since time.Time) (Proposal, bool, error)
	// DropProposal moves an open proposal to dropped, reporting whether it did.
	DropProposal(ctx context.Context, id, by string) (bool, error)
	Ledger(ctx context.Context, q LedgerQuery) (Ledger, error)
	// Settle applies a proposal in one transaction: it claims the proposal
	// in s.From (an ECONFLICT error when it is not in it any more), reads the
	// ledger, calls Judge and applies what it returns, with its effects and
	// audit notes. Judge's error is returned as it is.
	Settle(ctx context.Context, s Settlement) error
	ProposalApprovals
}

// errLedgerChanged says the books moved since the summary was shown.
var errLedgerChanged = errors.New("orders: the books changed since the summary was shown")

// refusal is a proposal the books do not allow, with the reason to tell.
type refusal struct{ reason string }

func (r refusal) Error() string { return "orders: " + r.reason }

// keepers may record what happens after an order: who can, by kind.
var keepers = map[ProposalKind][]domain.Role{
	// Deliveries are reported by whoever saw the goods handed over, the
	// salesperson on the route as often as the office.
	ProposeDelivery:     {domain.RoleOwner, domain.RoleAccounts, domain.RoleSales},
	ProposeCancellation: {domain.RoleOwner},
	ProposePayment:      {domain.RoleOwner, domain.RoleAccounts},
	ProposeReceipt:      {domain.RoleOwner, domain.RoleAccounts},
}

var kindWords = map[ProposalKind]string{
	ProposeDelivery: "mark orders delivered", ProposeCancellation: "cancel a placed order",
	ProposePayment: "record payments", ProposeReceipt: "record goods received",
}

// allowed refuses, politely and audited, a person whose role may not make
// this kind of change, naming who can.
func (s *Service) allowed(ctx context.Context, user domain.User, kind ProposalKind) (domain.Reply, bool) {
	for _, r := range keepers[kind] {
		if user.Role == r {
			return domain.Reply{}, true
		}
	}
	s.Audit.Record(ctx, user.Phone, "refusal", string(kind), map[string]any{"reason": "role", "role": string(user.Role)})
	var who []string
	for _, r := range keepers[kind] {
		us, err := s.Books.UsersByRole(ctx, r)
		if err != nil {
			continue
		}
		for _, u := range us {
			who = append(who, nameOf(u))
		}
	}
	roles := "the accounts team or an owner"
	if len(keepers[kind]) == 1 {
		roles = "an owner"
	}
	text := fmt.Sprintf("Only %s can %s.", roles, kindWords[kind])
	if len(who) > 0 {
		text += " Please ask " + orList(who) + "."
	}
	return domain.Reply{Text: text}, false
}

// Deliver reads "ORD-1042 delivered" (with any shortfall) and shows what
// it will change; "D-57 delivered" is the order draft D-57 was placed as.
func (s *Service) Deliver(ctx context.Context, user domain.User, text string) domain.Reply {
	return s.note(ctx, user, ProposeDelivery, text)
}

// placedAs is the order a reference names: for a draft's reference, the
// order it was placed as, if it was; otherwise the reference as it is.
func (s *Service) placedAs(ctx context.Context, ref string) string {
	if !domain.IsDraftRef(ref) {
		return ref
	}
	d, ok, err := s.Books.DraftByID(ctx, ref)
	if err != nil {
		s.Logger.Warn("orders: draft not read", "draft", ref, "err", err)
	}
	if !ok || d.Number() == "" {
		return ref
	}
	return d.Number()
}

// CancelOrder is an owner's cancellation of a placed order ("cancel
// ORD-1042 — customer refused").
func (s *Service) CancelOrder(ctx context.Context, user domain.User, orderID, reason string) domain.Reply {
	if reply, ok := s.allowed(ctx, user, ProposeCancellation); !ok {
		return reply
	}
	return s.propose(ctx, user, Proposal{Kind: ProposeCancellation, Subject: orderID, OrderID: orderID, Reason: clip(reason, 200)})
}

// RecordPayment reads "Mehta ne 50,000 diya cheque 123456" and shows it
// with the outstanding before and after.
func (s *Service) RecordPayment(ctx context.Context, user domain.User, text string) domain.Reply {
	return s.note(ctx, user, ProposePayment, text)
}

// ReceiveGoods reads "GC 100 carton aaya" or "production se 20 carton
// phenyl ready" and shows the stock before and after.
func (s *Service) ReceiveGoods(ctx context.Context, user domain.User, text string) domain.Reply {
	return s.note(ctx, user, ProposeReceipt, text)
}

// note reads a payment, delivery or receipt message: the way every change
// to the books from a message starts, the person's role first.
func (s *Service) note(ctx context.Context, user domain.User, kind ProposalKind, text string) domain.Reply {
	if reply, ok := s.allowed(ctx, user, kind); !ok {
		return reply
	}
	f := Frame{Kind: string(kind), Text: text}
	return s.noted(ctx, user, kind, f, s.noteReader(ctx, kind)(s.parser(), f))
}

// noteRead is a note as read from its message so far.
type noteRead struct {
	prop Proposal
	// unresolved is what the message leaves unsettled, the first to be
	// asked now; ask what that question offers (its slot and options).
	unresolved []string
	ask        Ask
	// said are a delivery's quantities named with no word of short or
	// only.
	said []Item
	// refusal says why there is nothing to show, when the books leave
	// nothing ("Rajesh has no open order"); err that they could not be read.
	refusal string
	err     error
}

// noted shows the summary of a note read from its frame, or asks what it
// leaves unsettled, keeping the message so far for the answer.
func (s *Service) noted(ctx context.Context, user domain.User, kind ProposalKind, f Frame, nr noteRead) domain.Reply {
	switch {
	case nr.err != nil:
		return s.failure(ctx, string(kind), nr.err)
	case nr.refusal != "":
		s.Audit.Record(ctx, user.Phone, string(kind)+"_refused", nr.prop.Subject, map[string]any{"reason": nr.refusal})
		if err := s.Books.SetAside(ctx, user.Phone); err != nil {
			return s.failure(ctx, string(kind), err)
		}
		return domain.Reply{Text: nr.refusal}
	case len(nr.unresolved) > 0:
		return s.noteQuestion(ctx, user, kind, f, nr)
	}
	p := nr.prop
	p.Kind = kind
	return s.propose(ctx, user, p)
}

// noteQuestion asks the first thing a note leaves unsettled, and keeps the
// note's message for the answer.
func (s *Service) noteQuestion(ctx context.Context, user domain.User, kind ProposalKind, f Frame, nr noteRead) domain.Reply {
	r := s.ask(ctx, user, string(kind), nr.unresolved[:1])
	if r.Question {
		a := nr.ask
		a.Text = nr.unresolved[0]
		r.Pending = Frame{Kind: string(kind), Customer: f.Customer, Text: clip(f.Text, maxNoteText), Asks: []Ask{a}}.encode()
	}
	return r
}

// maxNoteText bounds the message a note's question keeps.
const maxNoteText = 600

// ask replies with what a message left unsettled, and sets aside what the
// person was shown before: the "ok" that follows is about this question.
func (s *Service) ask(ctx context.Context, user domain.User, what string, questions []string) domain.Reply {
	if err := s.Books.SetAside(ctx, user.Phone); err != nil {
		return s.failure(ctx, what, err)
	}
	s.Audit.Record(ctx, user.Phone, what+"_question", "", map[string]any{"unresolved": questions})
	return domain.Reply{Text: strings.Join(questions, "\n"), Question: true}
}

// propose judges a proposal against the books, stores it and shows it.
func (s *Service) propose(ctx context.Context, user domain.User, p Proposal) domain.Reply {
	l, err := s.ledger(ctx, p.query())
	if err != nil {
		return s.failure(ctx, string(p.Kind), err)
	}
	p.ProposedBy, p.Status, p.CreatedAt = user.Phone, ProposalOpen, s.now()
	b, err := build(p, l, user)
	var no refusal
	if errors.As(err, &no) {
		s.Audit.Record(ctx, user.Phone, string(p.Kind)+"_refused", p.Subject, map[string]any{"reason": no.reason})
		if err := s.Books.SetAside(ctx, user.Phone); err != nil {
			return s.failure(ctx, string(p.Kind), err)
		}
		return domain.Reply{Text: no.reason}
	} else if err != nil {
		return s.failure(ctx, string(p.Kind), err)
	}
	if p.ID, err = s.Books.NewProposalID(ctx); err != nil {
		return s.failure(ctx, string(p.Kind), err)
	}
	p.Fingerprint = b.fingerprint()
	if err := s.Books.SaveProposal(ctx, p); err != nil {
		return s.failure(ctx, string(p.Kind), err)
	}
	detail := map[string]any{"kind": string(p.Kind), "id": p.ID, "fingerprint": p.Fingerprint}
	if b.owner != "" {
		detail["needs_owner"] = b.owner
	}
	s.Audit.Record(ctx, user.Phone, "proposal", p.Subject, detail)
	return domain.Reply{Text: b.summary + "\n\n" + okPrompt(user, b), About: p.Subject}
}

// ledger reads what a proposal is judged against, with the Service's
// bound on an advance.
func (s *Service) ledger(ctx context.Context, q LedgerQuery) (Ledger, error) {
	l, err := s.Books.Ledger(ctx, q)
	l.MaxAdvance = s.MaxAdvance
	return l, err
}

func (p Proposal) query() LedgerQuery {
	q := LedgerQuery{OrderID: p.OrderID}
	if p.Payment != nil {
		q.CustomerID, q.Reference = p.Payment.CustomerID, p.Payment.Reference
	}
	if p.Receipt != nil {
		for _, it := range p.Receipt.Items {
			q.SKUs = append(q.SKUs, it.SKU)
		}
	}
	return q
}

// settle applies the proposal the person was shown last, judged again
// against the books as they are now.
func (s *Service) settle(ctx context.Context, user domain.User, p Proposal) domain.Reply {
	var fresh built
	at := s.now()
	judge := func(l Ledger) (Settled, error) {
		l.MaxAdvance = s.MaxAdvance
		b, err := build(p, l, user)
		if err != nil {
			return Settled{}, err
		}
		fresh = b
		if b.fingerprint() != p.Fingerprint {
			return Settled{}, errLedgerChanged
		}
		if b.owner != "" && user.Role != domain.RoleOwner {
			return Settled{}, errNeedsOwnerApproval
		}
		detail := s.Audit.Redact(b.detail)
		detail["fingerprint"], detail["proposal"] = p.Fingerprint, p.ID
		if b.owner != "" {
			detail["needs_owner"], detail["approval"] = b.owner, "the owner's own ok"
		}
		note := AuditNote{Actor: user.Phone, Kind: string(p.Kind), Subject: p.Subject, Detail: detail}
		effects := b.effects
		if s.LogOrders && b.after != nil {
			effects = append(effects[:len(effects):len(effects)],
				domain.OrderLogged(domain.LogOrder(*b.after, customerName(l, b.after.CustomerID), l.Products, at)))
		}
		return Settled{Changes: b.changes, Effects: effects, Notes: []AuditNote{note}}, nil
	}
	err := s.Books.Settle(ctx, Settlement{ProposalID: p.ID, By: user.Phone, At: at, Query: p.query(), Judge: judge})
	var no refusal
	switch {
	case err == nil:
	case errors.As(err, &no):
		s.Audit.Record(ctx, user.Phone, string(p.Kind)+"_refused", p.Subject, map[string]any{"reason": no.reason, "at": "ok"})
		if _, err := s.Books.DropProposal(ctx, p.ID, user.Phone); err != nil {
			// Still open: a second "ok" is judged again and refused again.
			s.Logger.Warn("orders: refused proposal not dropped", "proposal", p.ID, "err", err)
		}
		return domain.Reply{Text: "Not recorded: " + no.reason}
	case errors.Is(err, errLedgerChanged):
		// Show the summary as the books now stand, for a fresh "ok".
		s.Audit.Record(ctx, user.Phone, string(p.Kind)+"_changed", p.Subject, map[string]any{"shown": p.Fingerprint, "now": fresh.fingerprint()})
		next := p
		if next.ID, err = s.Books.NewProposalID(ctx); err != nil {
			return s.failure(ctx, "settle", err)
		}
		next.Fingerprint, next.CreatedAt = fresh.fingerprint(), s.now()
		if err := s.Books.SaveProposal(ctx, next); err != nil {
			return s.failure(ctx, "settle", err)
		}
		return domain.Reply{Text: "Not recorded yet: the books changed since the summary. As they stand now:\n\n" + fresh.summary +
			"\n\n" + okPrompt(user, fresh), About: p.Subject}
	case errors.Is(err, errNeedsOwnerApproval):
		return s.askOwners(ctx, user, p, fresh)
	case domain.ErrorCode(err) == domain.ECONFLICT:
		return domain.Reply{Text: "That is already recorded, or no longer waiting for your ok."}
	default:
		return s.failure(ctx, "settle", err)
	}
	done := fresh.done
	if fresh.placer != "" {
		done += " " + s.placerName(ctx, fresh.placer) + " has been told."
	}
	if s.Nudge != nil && len(fresh.effects) > 0 {
		s.Nudge()
	}
	return domain.Reply{Text: done, About: p.Subject}
}

// built is a proposal judged against the books: what to show, what to
// change, whom to tell.
type built struct {
	summary string
	owner   string // why it needs an owner's approval, when it does (advance.go)
	done    string // the reply once recorded
	placer  string // who placed the order the change is about, when they are told
	changes []Change
	effects []domain.Effect
	detail  map[string]any
	// after is the order a delivery or cancellation is about, as the
	// change leaves it, for the order log.
	after *domain.Order
}

// fingerprint binds an "ok" to exactly what was shown: the summary holds
// every figure before and after.
func (b built) fingerprint() string {
	h := sha256.New()
	h.Write([]byte(b.summary))
	for _, c := range b.changes {
		fmt.Fprintf(h, "|%s:%s:%s:%d:%s:%d:%d", c.Kind, c.OrderID, c.CustomerID, c.Amount, c.SKU, c.Ready, c.WIP)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
