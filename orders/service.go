package orders

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
)

// Books is the part of the store orders need.
type Books interface {
	Snapshot(ctx context.Context, customerID string, skus []string) (Snapshot, error)
	// NewDraftID allocates the next draft reference (D-57). An order
	// number is taken only by Commit.
	NewDraftID(ctx context.Context) (string, error)
	SaveDraft(ctx context.Context, d Draft) error
	LatestDraft(ctx context.Context, phone string, since time.Time) (Draft, bool, error)
	// DraftByID returns a draft by its reference, or by the order number
	// it was placed under.
	DraftByID(ctx context.Context, id string) (Draft, bool, error)
	// MoveDraft changes a draft's status if it is in one of m.From, and
	// reports whether it did; m.Effects go to the outbox in the same
	// transaction.
	MoveDraft(ctx context.Context, m DraftMove) (bool, error)
	// Commit puts an approved draft into the books in one transaction,
	// calling c.Judge inside it with the books as they are then and, once
	// Judge allows it, taking the next order number in the same
	// transaction, so a refused or failed commit takes none. It returns
	// the order number, Judge's error as it is, and an ECONFLICT error when
	// the draft is no longer open or waiting for approval.
	Commit(ctx context.Context, c Commitment) (string, error)
	UsersByRole(ctx context.Context, role domain.Role) ([]domain.User, error)
	UserByPhone(ctx context.Context, phone string) (domain.User, error)
	LedgerBooks
	DeliveryBooks
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
	// Tell, given the number the order was placed under, returns what goes
	// in with it: the notifications to the outbox, the notes to the audit
	// log. It is called inside the transaction; nil tells no one.
	Tell func(orderID string) ([]domain.Effect, []AuditNote)
	// Log, given the order as the commit writes it, returns the effects
	// that record it elsewhere (the order log in the Google Sheet); they
	// go to the outbox in the same transaction. Nil records nothing.
	Log func(o domain.Order) []domain.Effect
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

// Chooser reads which of the options a question offered an answer means
// (an LLM), when the deterministic reading cannot tell: the index, or -1
// for none. It picks among exactly what was offered; it decides nothing.
type Chooser interface {
	Choose(ctx context.Context, question, answer string, options []string) (int, error)
}

// Service takes, approves and commits orders.
type Service struct {
	Books Books
	// Parser reads orders; UseParser replaces it while serving, when the
	// catalog or the customers change.
	Parser        *Parser
	Extractor     Extractor  // optional
	Slips         SlipReader // optional: photos of order slips
	Chooser       Chooser    // optional
	Audit         Auditor
	Logger        *slog.Logger
	MinimumOrder  domain.Paise
	MaxAdvance    domain.Paise // an advance beyond it and the credit limit needs an owner (advance.go)
	AccountsEmail []string
	Channels      Channels // optional: whether accounts can be told right now
	Nudge         func()   // tells the outbox dispatcher there is work
	Now           func() time.Time
	Location      *time.Location // the business's time zone, for the dates people read; default Asia/Kolkata
	// LogOrders writes every placed order, and every later change of it
	// (delivered, delivered short, cancelled), to the order log (the
	// Google Sheet) as an effect in the change's own transaction.
	LogOrders bool

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

// Take reads the order message the router routed, from the reading the
// router made of it, and, when the order is complete, prices it, checks
// the rules and shows the draft. Otherwise it asks what is missing.
func (s *Service) Take(ctx context.Context, user domain.User, d intent.Decision) domain.Reply {
	if user.Role != domain.RoleSales && user.Role != domain.RoleOwner {
		return domain.Reply{Text: "Orders are placed by the sales team or the owner. Please ask them to send it."}
	}
	parsed := s.parser().ParseRouted(d)
	if !parsed.Complete() && s.Extractor != nil {
		// The model reads who, what and how they pay; the instructions
		// stay the parser's, as written.
		said := parsed.Instructions
		parsed = s.extract(ctx, user, d.Text, parsed)
		parsed.Instructions = said
	}
	return s.askOrShow(ctx, user, parsed)
}

// askOrShow asks the first question an order's reading left, or, with
// none, shows its priced summary.
func (s *Service) askOrShow(ctx context.Context, user domain.User, parsed Parsed) domain.Reply {
	if !parsed.Complete() {
		// What the person saw last is now this question: an "ok" must
		// not place the order shown before it.
		if err := s.Books.SetAside(ctx, user.Phone); err != nil {
			return s.failure(ctx, "order", err)
		}
		s.Audit.Record(ctx, user.Phone, "order_question", "", map[string]any{"unresolved": parsed.Unresolved, "customer": parsed.CustomerID})
		if len(parsed.Asks) == 0 {
			return domain.Reply{Text: Questions(parsed), Question: true}
		}
		// One question at a time; the answer is read against the frame.
		f := Frame{Kind: frameOrder, Customer: parsed.CustomerID, Payment: parsed.Payment,
			Items: framedItems(parsed.Items), Asks: parsed.Asks, Instructions: parsed.Instructions}
		return domain.Reply{Text: f.Asks[0].Text, Question: true, Pending: f.encode()}
	}
	return s.show(ctx, user, parsed.CustomerID, parsed.Payment, parsed.Items, parsed.Instructions)
}

// show prices items for a customer, checks the rules, stores the draft
// (with the salesperson's instructions) as the one this person was shown
// last, and returns its summary.
func (s *Service) show(ctx context.Context, user domain.User, customerID string, payment domain.PaymentMode, items []Item, instructions string) domain.Reply {
	d, err := s.draft(ctx, customerID, payment, items)
	if domain.ErrorCode(err) == domain.ENOTFOUND {
		// A customer the ERP no longer lists.
		return domain.Reply{Text: "⚠️ " + domain.ErrorMessage(err) + ": no new orders can be taken."}
	}
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
			if err := s.Books.SetAside(ctx, user.Phone); err != nil {
				return s.failure(ctx, "draft", err)
			}
			f := Frame{Kind: frameOrder, Customer: customerID, Items: framedItems(items), Instructions: instructions, Asks: []Ask{{Slot: SlotPayment,
				Text: fmt.Sprintf("How will %s pay: %s?", d.Customer.Name, orList(modes))}}}
			for _, m := range d.Customer.PaymentModes {
				f.Asks[0].Options = append(f.Asks[0].Options, string(m))
			}
			return domain.Reply{Text: f.Asks[0].Text, Question: true, Pending: f.encode()}
		}
		if d, err = s.draft(ctx, customerID, d.Customer.PaymentModes[0], items); err != nil {
			return s.failure(ctx, "draft", err)
		}
	}
	if d.ID, err = s.Books.NewDraftID(ctx); err != nil {
		return s.failure(ctx, "draft", err)
	}
	d.PlacedBy, d.Status, d.CreatedAt, d.Instructions = user.Phone, DraftOpen, s.now(), instructions
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
