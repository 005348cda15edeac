package orders

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Books is the part of the store orders need.
type Books interface {
	Snapshot(ctx context.Context, customerID string, skus []string) (Snapshot, error)
	NewOrderID(ctx context.Context) (string, error)
	SaveDraft(ctx context.Context, d Draft) error
	LatestDraft(ctx context.Context, phone string, since time.Time) (Draft, bool, error)
	DraftByID(ctx context.Context, id string) (Draft, bool, error)
	// MoveDraft changes a draft's status if it is in one of from, writing
	// msgs to the outbox in the same transaction.
	MoveDraft(ctx context.Context, id string, from []DraftStatus, to DraftStatus, by string, msgs []domain.Outbound) (bool, error)
	Commit(ctx context.Context, d Draft, by string, msgs []domain.Outbound, mails []domain.Email, notes []AuditNote) error
	UsersByRole(ctx context.Context, role domain.Role) ([]domain.User, error)
	UserByPhone(ctx context.Context, phone string) (domain.User, error)
}

// AuditNote is an audit entry written inside the commit's transaction.
type AuditNote struct {
	Actor, Kind, Subject string
	Detail               map[string]any
}

// Auditor records decisions outside a transaction.
type Auditor interface {
	Record(ctx context.Context, actor, kind, subject string, detail map[string]any)
	Redact(detail map[string]any) map[string]any
}

// Extractor reads an order the parser could not fully resolve (an LLM).
// What it returns is data: Resolve maps every field onto the catalog and
// the customers, and anything unknown becomes a question.
type Extractor interface {
	Extract(ctx context.Context, text string, hints Hints) (Extraction, error)
}

// Service takes, approves and commits orders.
type Service struct {
	Books Books
	// Parser reads orders; UseParser replaces it while serving, when the
	// catalog or the customers change.
	Parser        *Parser
	Extractor     Extractor // optional
	Audit         Auditor
	Logger        *slog.Logger
	MinimumOrder  domain.Paise
	AccountsEmail []string
	Nudge         func() // tells the outbox dispatcher there is work
	Now           func() time.Time

	current atomic.Pointer[Parser]
}

// UseParser makes p the parser for the messages that follow.
func (s *Service) UseParser(p *Parser) { s.current.Store(p) }

// parser is the parser in use.
func (s *Service) parser() *Parser {
	if p := s.current.Load(); p != nil {
		return p
	}
	return s.Parser
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Take parses an order message and, when it is complete, prices it, checks
// the rules and shows the draft. Otherwise it asks what is missing.
func (s *Service) Take(ctx context.Context, user domain.User, text string) domain.Reply {
	if user.Role != domain.RoleSales && user.Role != domain.RoleOwner {
		return domain.Reply{Text: "Orders are placed by the sales team or the owner. Please ask them to send it."}
	}
	parsed := s.parser().Parse(text)
	if !parsed.Complete() && s.Extractor != nil {
		parsed = s.extract(ctx, user, text, parsed)
	}
	if !parsed.Complete() {
		s.Audit.Record(ctx, user.Phone, "order_question", "", map[string]any{"unresolved": parsed.Unresolved, "customer": parsed.CustomerID})
		return domain.Reply{Text: Questions(parsed)}
	}
	return s.show(ctx, user, parsed.CustomerID, parsed.Payment, parsed.Items)
}

// show prices items for a customer, checks the rules, stores the draft as
// the one this person was shown last, and returns its summary.
func (s *Service) show(ctx context.Context, user domain.User, customerID string, payment domain.PaymentMode, items []Item) domain.Reply {
	d, err := s.draft(ctx, customerID, payment, items)
	if err != nil {
		return s.failure(ctx, "draft", err)
	}
	if d.Payment == "" {
		// Asking beats guessing, unless the customer has only one way to pay.
		if len(d.Customer.PaymentModes) != 1 {
			var modes []string
			for _, m := range d.Customer.PaymentModes {
				modes = append(modes, ModeName(m))
			}
			return domain.Reply{Text: fmt.Sprintf("How will %s pay: %s? Please send the order again with the payment mode.", d.Customer.Name, orList(modes))}
		}
		if d, err = s.draft(ctx, customerID, d.Customer.PaymentModes[0], items); err != nil {
			return s.failure(ctx, "draft", err)
		}
	}
	if d.ID, err = s.Books.NewOrderID(ctx); err != nil {
		return s.failure(ctx, "draft", err)
	}
	d.PlacedBy, d.Status, d.CreatedAt = user.Phone, DraftOpen, s.now()
	if err := s.Books.SaveDraft(ctx, d); err != nil {
		return s.failure(ctx, "draft", err)
	}
	s.Audit.Record(ctx, user.Phone, "rules", d.ID, map[string]any{
		"customer": d.Customer.ID, "total_paise": int64(d.Total), "verdict": string(d.Verdict()),
		"results": resultsDetail(d.Results), "fingerprint": d.Fingerprint,
	})
	return domain.Reply{Text: Summary(d, s.parser().Products()), About: d.ID}
}

// extract asks the Extractor when the parser left questions, and keeps its
// reading only if, once resolved against the books, it answers all of them.
// Any failure keeps the parser's questions: the person still gets a useful
// reply, and nothing changes.
func (s *Service) extract(ctx context.Context, user domain.User, text string, parsed Parsed) Parsed {
	ex, err := s.Extractor.Extract(ctx, text, s.parser().Hints())
	if err != nil {
		s.Logger.Info("orders: extraction fallback failed", "err", err)
		return parsed
	}
	resolved := s.parser().Resolve(ex)
	s.Audit.Record(ctx, user.Phone, "order_extraction", "", map[string]any{
		"complete": resolved.Complete(), "unresolved": resolved.Unresolved, "customer": resolved.CustomerID, "items": len(resolved.Items),
	})
	if resolved.Complete() {
		return resolved
	}
	return parsed
}

// draft prices items for a customer and runs the rules against a fresh
// snapshot of the books.
func (s *Service) draft(ctx context.Context, customerID string, payment domain.PaymentMode, items []Item) (Draft, error) {
	skus := make([]string, len(items))
	for i, it := range items {
		skus[i] = it.SKU
	}
	snap, err := s.Books.Snapshot(ctx, customerID, skus)
	if err != nil {
		return Draft{}, err
	}
	snap.MinimumOrder = s.MinimumOrder
	d, err := Price(snap.Customer, payment, items, snap.Products)
	if err != nil {
		return d, err
	}
	if payment != "" {
		d.Results = CheckRules(ctx, d, snap)
	}
	return d, nil
}

// Confirm approves the draft last shown to the person ("ok"), or, for an
// owner naming an order, the escalated draft with that number.
func (s *Service) Confirm(ctx context.Context, user domain.User, ref string) domain.Reply {
	if ref != "" {
		return s.decide(ctx, user, ref, true)
	}
	d, ok, err := s.Books.LatestDraft(ctx, user.Phone, s.now().Add(-ApprovalWindow))
	if err != nil {
		return s.failure(ctx, "confirm", err)
	}
	if !ok || d.Status == DraftCancelled || d.Status == DraftReplaced {
		return domain.Reply{Text: "There is no order waiting for your ok. Send the order first, then reply *ok* to the summary (within 30 minutes)."}
	}
	switch d.Status {
	case DraftCommitted:
		return domain.Reply{Text: fmt.Sprintf("Order %s is already placed.", d.ID)}
	case DraftPendingApproval:
		return domain.Reply{Text: fmt.Sprintf("Order %s is already with the owner for approval.", d.ID)}
	case DraftRejected:
		return domain.Reply{Text: fmt.Sprintf("Order %s was rejected by the owner.", d.ID)}
	}
	switch d.Verdict() {
	case Block:
		return domain.Reply{Text: fmt.Sprintf("Order %s cannot be placed:\n%s\nSend a corrected order, or *cancel*.", d.ID, reasons(d, Block))}
	case Escalate:
		return s.escalate(ctx, user, d)
	}
	return s.commit(ctx, user, d)
}

// commit re-prices the draft against the books as they are now; only if
// nothing changed is it committed.
func (s *Service) commit(ctx context.Context, by domain.User, d Draft) domain.Reply {
	fresh, err := s.draft(ctx, d.Customer.ID, d.Payment, itemsOf(d))
	if err != nil {
		return s.failure(ctx, "commit", err)
	}
	if fresh.Fingerprint != d.Fingerprint {
		s.Audit.Record(ctx, by.Phone, "approval_refused", d.ID, map[string]any{"reason": "changed", "shown": d.Fingerprint, "now": fresh.Fingerprint})
		return domain.Reply{Text: fmt.Sprintf("Order %s changed since the summary was shown (prices or customer details), so it was not placed. Please send the order again.", d.ID)}
	}
	if fresh.Verdict() == Block {
		s.Audit.Record(ctx, by.Phone, "approval_refused", d.ID, map[string]any{"reason": "blocked", "results": resultsDetail(fresh.Results)})
		return domain.Reply{Text: fmt.Sprintf("Order %s cannot be placed now:\n%s", d.ID, reasons(fresh, Block))}
	}
	placer, accounts, err := s.people(ctx, d.PlacedBy)
	if err != nil {
		return s.failure(ctx, "commit", err)
	}
	msgs, mails := s.notifications(d, placer, by, accounts)
	note := AuditNote{Actor: by.Phone, Kind: "commit", Subject: d.ID, Detail: s.Audit.Redact(map[string]any{
		"customer": d.Customer.ID, "total_paise": int64(d.Total), "payment": string(d.Payment),
		"fingerprint": d.Fingerprint, "placed_by": d.PlacedBy, "notifications": len(msgs) + len(mails),
	})}
	if err := s.Books.Commit(ctx, d, by.Phone, msgs, mails, []AuditNote{note}); err != nil {
		if domain.ErrorCode(err) == domain.ECONFLICT {
			return domain.Reply{Text: fmt.Sprintf("Order %s was not placed: %s.", d.ID, domain.ErrorMessage(err))}
		}
		return s.failure(ctx, "commit", err)
	}
	if s.Nudge != nil {
		s.Nudge()
	}
	return domain.Reply{Text: fmt.Sprintf("✅ Order *%s* placed for %s — %s (%s). Accounts have been told.", d.ID, d.Customer.Name, d.Total, ModeName(d.Payment))}
}

// escalate sends a draft that breaks the minimum or the credit limit to the
// owners, with the reasons.
func (s *Service) escalate(ctx context.Context, user domain.User, d Draft) domain.Reply {
	owners, err := s.Books.UsersByRole(ctx, domain.RoleOwner)
	if err != nil {
		return s.failure(ctx, "escalate", err)
	}
	if len(owners) == 0 {
		return domain.Reply{Text: fmt.Sprintf("Order %s needs an owner's approval, but no owner is registered.", d.ID)}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "🔔 *Approval needed: %s* for %s, from %s\n", d.ID, d.Customer.Name, nameOf(user))
	writeLines(&b, d, s.parser().Products())
	fmt.Fprintf(&b, "Payment: %s\n\n%s\n\nReply *approve %s* or *reject %s*.", ModeName(d.Payment), reasons(d, Escalate), d.ID, d.ID)
	var msgs []domain.Outbound
	for _, o := range owners {
		if o.Phone != user.Phone {
			msgs = append(msgs, domain.Outbound{To: o.Phone, Body: b.String()})
		}
	}
	if user.Role == domain.RoleOwner {
		// An owner's own ok is their approval.
		return s.commit(ctx, user, d)
	}
	moved, err := s.Books.MoveDraft(ctx, d.ID, []DraftStatus{DraftOpen}, DraftPendingApproval, user.Phone, msgs)
	if err != nil {
		return s.failure(ctx, "escalate", err)
	}
	if !moved {
		return domain.Reply{Text: fmt.Sprintf("Order %s is no longer waiting for your ok.", d.ID)}
	}
	s.Audit.Record(ctx, user.Phone, "escalation", d.ID, map[string]any{"owners": len(msgs), "reasons": reasons(d, Escalate)})
	if s.Nudge != nil {
		s.Nudge()
	}
	return domain.Reply{Text: fmt.Sprintf("⏳ Order %s needs the owner's approval:\n%s\nI have sent it to them; you'll hear back here.", d.ID, reasons(d, Escalate))}
}

// Cancel drops the draft last shown to the person, or, for an owner naming
// an order, rejects that escalated draft.
func (s *Service) Cancel(ctx context.Context, user domain.User, ref string) domain.Reply {
	if ref != "" {
		return s.decide(ctx, user, ref, false)
	}
	d, ok, err := s.Books.LatestDraft(ctx, user.Phone, s.now().Add(-ApprovalWindow))
	if err != nil {
		return s.failure(ctx, "cancel", err)
	}
	if !ok || d.Status != DraftOpen {
		return domain.Reply{Text: "There is no open order to cancel."}
	}
	moved, err := s.Books.MoveDraft(ctx, d.ID, []DraftStatus{DraftOpen}, DraftCancelled, user.Phone, nil)
	if err != nil {
		return s.failure(ctx, "cancel", err)
	}
	if !moved {
		return domain.Reply{Text: "There is no open order to cancel."}
	}
	s.Audit.Record(ctx, user.Phone, "cancel", d.ID, nil)
	return domain.Reply{Text: fmt.Sprintf("Cancelled order %s for %s. Nothing was placed.", d.ID, d.Customer.Name)}
}

// decide is an owner's "approve ORD-…" or "reject ORD-…".
func (s *Service) decide(ctx context.Context, user domain.User, ref string, approve bool) domain.Reply {
	verb := map[bool]string{true: "approve", false: "reject"}[approve]
	if user.Role != domain.RoleOwner {
		s.Audit.Record(ctx, user.Phone, "refusal", ref, map[string]any{"reason": "only owners may " + verb})
		return domain.Reply{Text: fmt.Sprintf("Only an owner can %s orders.", verb)}
	}
	id := strings.ToUpper(ref)
	d, ok, err := s.Books.DraftByID(ctx, id)
	if err != nil {
		return s.failure(ctx, verb, err)
	}
	if !ok {
		return domain.Reply{Text: fmt.Sprintf("I can't find order %s.", id)}
	}
	if d.Status != DraftPendingApproval {
		return domain.Reply{Text: fmt.Sprintf("Order %s is not waiting for approval (it is %s).", id, strings.ReplaceAll(string(d.Status), "_", " "))}
	}
	if approve {
		return s.commit(ctx, user, d)
	}
	msg := domain.Outbound{To: d.PlacedBy, Body: fmt.Sprintf("❌ Order %s for %s (%s) was rejected by %s.", d.ID, d.Customer.Name, d.Total, nameOf(user))}
	moved, err := s.Books.MoveDraft(ctx, d.ID, []DraftStatus{DraftPendingApproval}, DraftRejected, user.Phone, []domain.Outbound{msg})
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

// people finds who placed the order and who in accounts to tell.
func (s *Service) people(ctx context.Context, placedBy string) (domain.User, []domain.User, error) {
	placer, err := s.Books.UserByPhone(ctx, placedBy)
	if domain.ErrorCode(err) == domain.ENOTFOUND {
		// Removed since placing the order: the notifications use the phone.
		placer, err = domain.User{Phone: placedBy}, nil
	}
	if err != nil {
		return placer, nil, err
	}
	accounts, err := s.Books.UsersByRole(ctx, domain.RoleAccounts)
	return placer, accounts, err
}

func (s *Service) failure(ctx context.Context, step string, err error) domain.Reply {
	s.Logger.Error("orders: "+step+" failed", "err", err)
	return domain.Reply{Text: "Sorry, I could not do that just now. Please try again in a minute."}
}

func itemsOf(d Draft) []Item {
	items := make([]Item, len(d.Lines))
	for i, l := range d.Lines {
		items[i] = Item{SKU: l.SKU, Qty: l.Qty, SaidQty: l.SaidQty, SaidUnit: l.SaidUnit}
	}
	return items
}

func reasons(d Draft, at Outcome) string {
	var lines []string
	for _, r := range d.Results {
		if r.Outcome == at {
			line := "• " + r.Reason
			if r.Suggestion != "" {
				line += " (" + r.Suggestion + ")"
			}
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

func resultsDetail(rs []RuleResult) map[string]any {
	out := map[string]any{}
	for _, r := range rs {
		out[r.Rule] = string(r.Outcome) + ": " + r.Reason
	}
	return out
}

func nameOf(u domain.User) string {
	if u.Name != "" {
		return u.Name
	}
	return u.Phone
}

// Questions turns what the parser could not resolve into one reply.
func Questions(p Parsed) string {
	qs := p.Unresolved
	if len(qs) == 1 {
		return qs[0]
	}
	return "I need a little more to take this order:\n• " + strings.Join(qs, "\n• ")
}
