package orders

import (
	"context"
	"errors"
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
	// MoveDraft changes a draft's status if it is in one of m.From, and
	// reports whether it did; m.Effects go to the outbox in the same
	// transaction.
	MoveDraft(ctx context.Context, m DraftMove) (bool, error)
	// Commit puts an approved draft into the books in one transaction,
	// calling c.Judge inside it with the books as they are then. It returns
	// Judge's error as it is, and an ECONFLICT error when the draft is no
	// longer open or waiting for approval.
	Commit(ctx context.Context, c Commitment) error
	UsersByRole(ctx context.Context, role domain.Role) ([]domain.User, error)
	UserByPhone(ctx context.Context, phone string) (domain.User, error)
}

// DraftMove is a change of a draft's status.
type DraftMove struct {
	ID   string
	From []DraftStatus
	To   DraftStatus
	By   string
	// Draft, when set, replaces the stored draft: the rules were run again
	// and this is what the next person is shown.
	Draft *Draft
	// Effects go to the outbox only if the draft moves.
	Effects []domain.Effect
}

// Commitment is an approved draft on its way into the books.
type Commitment struct {
	Draft Draft
	By    string
	// Judge is called inside the commit's transaction with a snapshot of
	// the books as they are then (MinimumOrder is left to Judge); the
	// order is written only if it returns nil.
	Judge func(Snapshot) error
	// Effects (the notifications) go to the outbox with the order.
	Effects []domain.Effect
	Notes   []AuditNote
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
	Channels      Channels // optional: whether accounts can be told right now
	Nudge         func()   // tells the outbox dispatcher there is work
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
	ex, err := s.Extractor.Extract(ctx, text, s.parser().HintsFor(text))
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
		d = Judge(ctx, d, snap)
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
// it: approval is the placer's "ok" on the summary, or, with approval set,
// an owner's "approve ORD-…" of an escalated draft. An exception (the
// minimum, the credit limit) is allowed only when an owner has read it
// exactly as it stands now.
func (s *Service) commit(ctx context.Context, by domain.User, d Draft, approval bool) domain.Reply {
	placer, accounts, err := s.people(ctx, d.PlacedBy)
	if err != nil {
		return s.failure(ctx, "commit", err)
	}
	effects := s.notifications(d, placer, by, accounts)
	note := AuditNote{Actor: by.Phone, Kind: "commit", Subject: d.ID, Detail: s.Audit.Redact(map[string]any{
		"customer": d.Customer.ID, "total_paise": int64(d.Total), "payment": string(d.Payment),
		"fingerprint": d.Fingerprint, "placed_by": d.PlacedBy, "notifications": len(effects),
		"approval": approval,
	})}
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
		switch {
		case identity(fresh) != identity(d):
			return errChanged
		case fresh.Verdict() == Block:
			return errBlocked
		case fresh.Verdict() == Escalate && !(ownerRead && covers(d, fresh)):
			return errNeedsOwner
		}
		note.Detail["fingerprint"] = fresh.Fingerprint
		return nil
	}
	err = s.Books.Commit(ctx, Commitment{Draft: d, By: by.Phone, Judge: judge, Effects: effects, Notes: []AuditNote{note}})
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
	return domain.Reply{Text: fmt.Sprintf("✅ Order *%s* placed for %s — %s (%s). %s", d.ID, d.Customer.Name, d.Total, ModeName(d.Payment), told)}
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
	fmt.Fprintf(&b, "Payment: %s\n\n%s\n\nReply *approve %s* or *reject %s*.", ModeName(fresh.Payment), reasons(fresh, Escalate), fresh.ID, fresh.ID)
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
