package conversation

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/gemini"
)

// Refusal is all an unknown number ever hears.
const Refusal = "Namaste! This WhatsApp number is not registered with Munshi, so I can't help here. Please ask your company's administrator to add you."

// MaxBodyChars is the longest message Munshi reads; WhatsApp allows 4,096.
const MaxBodyChars = 4096

// Users finds who sent a message.
type Users interface {
	UserByPhone(ctx context.Context, phone string) (domain.User, error)
}

// Router decides what a message is about.
type Router interface {
	Route(ctx context.Context, text string) intent.Decision
}

// RoutingObserver hears every routing decision, for metrics.
type RoutingObserver interface {
	Routed(d intent.Decision)
}

// Orders takes, confirms and cancels orders.
type Orders interface {
	Take(ctx context.Context, user domain.User, text string) domain.Reply
	Confirm(ctx context.Context, user domain.User, ref string) domain.Reply
	Cancel(ctx context.Context, user domain.User, ref string) domain.Reply
}

// Service answers messages.
type Service struct {
	Users    Users
	Router   Router
	Orders   Orders
	Audit    *audit.Log
	Logger   *slog.Logger
	Observer RoutingObserver
}

// Respond answers one inbound message.
func (s *Service) Respond(ctx context.Context, in domain.Inbound) domain.Reply {
	user, err := s.Users.UserByPhone(ctx, in.From)
	if domain.ErrorCode(err) == domain.ENOTFOUND {
		s.Audit.Record(ctx, in.From, audit.KindRefusal, in.SID, map[string]any{"reason": "unknown sender", "chars": utf8.RuneCountInString(in.Body)})
		return domain.Reply{Text: Refusal}
	} else if err != nil {
		s.Logger.Error("conversation: user lookup failed", "err", err)
		return domain.Reply{Text: "Sorry, something went wrong on my side. Please try again in a minute."}
	}
	// At most two LLM calls per inbound message, whatever asks for them.
	ctx = gemini.WithCallBudget(ctx, 2)
	s.Audit.Record(ctx, user.Phone, audit.KindInbound, in.SID, map[string]any{
		"role": string(user.Role), "body": in.Body, "media": len(in.MediaURLs),
	})
	reply := s.answer(ctx, user, in)
	s.Audit.Record(ctx, user.Phone, audit.KindOutbound, in.SID, map[string]any{"channel": "reply", "body": reply.Text, "media": reply.MediaURLs})
	return reply
}

func (s *Service) answer(ctx context.Context, user domain.User, in domain.Inbound) domain.Reply {
	text := strings.TrimSpace(in.Body)
	if text == "" {
		if len(in.MediaURLs) > 0 {
			return domain.Reply{Text: "I can only read text messages for now. Please type your request."}
		}
		return domain.Reply{Text: Menu(user)}
	}
	if utf8.RuneCountInString(text) > MaxBodyChars {
		return domain.Reply{Text: fmt.Sprintf("That message is too long for me (over %d characters). Please send one request at a time.", MaxBodyChars)}
	}
	d := s.Router.Route(ctx, text)
	if s.Observer != nil {
		s.Observer.Routed(d)
	}
	s.Audit.Record(ctx, user.Phone, audit.KindDecision, in.SID, map[string]any{
		"intent": string(d.Intent), "tier": string(d.Tier), "confidence": d.Confidence,
		"latency_us": d.Latency.Microseconds(),
	})
	switch d.Intent {
	case domain.IntentGreeting:
		return domain.Reply{Text: Greeting(user)}
	case domain.IntentHelp:
		return domain.Reply{Text: Menu(user)}
	case domain.IntentUnknown:
		return domain.Reply{Text: "Sorry, I didn't understand that — could you say it another way?\n\n" + Menu(user)}
	case domain.IntentOrder:
		if s.Orders != nil {
			return s.Orders.Take(ctx, user, text)
		}
	case domain.IntentConfirm:
		if s.Orders != nil {
			return s.Orders.Confirm(ctx, user, orderRef(d))
		}
	case domain.IntentCancel:
		if s.Orders != nil {
			return s.Orders.Cancel(ctx, user, orderRef(d))
		}
	}
	return domain.Reply{Text: Holding(d)}
}

// orderRef is the order number a message names ("approve ORD-1042"), in
// the form Munshi writes it.
func orderRef(d intent.Decision) string {
	for _, e := range d.Normalized.Entities {
		if e.Kind == intent.EntityOrderRef {
			num := strings.TrimPrefix(e.ID, "ORDER-")
			return "ORD-" + num
		}
	}
	return ""
}

// Greeting welcomes a known person by name.
func Greeting(u domain.User) string {
	name := strings.Fields(u.Name)
	first := u.Name
	if len(name) > 0 {
		first = name[0]
	}
	return fmt.Sprintf("Namaste %s! 🙏 I'm Munshi.\n\n%s", first, Menu(u))
}

// Menu is a short list of what this person can ask, by role.
func Menu(u domain.User) string {
	switch u.Role {
	case domain.RoleSales:
		return "You can:\n" +
			"• place an order: \"5 carton GC aur 10 phenyl for Rajesh, COD\"\n" +
			"• reply *ok* to confirm the summary, or *cancel*\n" +
			"• check stock: \"GC ka stock kitna hai?\"\n" +
			"• see your pending orders: \"pending orders\""
	case domain.RoleOwner:
		return "You can ask:\n" +
			"• stock: \"GC ka stock kitna hai?\", \"can we commit 200 cartons of phenyl?\"\n" +
			"• dues: \"who owes us money?\", \"Mehta ji ka outstanding\"\n" +
			"• orders: \"pending orders dikhao\"; *approve ORD-1234* / *reject ORD-1234*\n" +
			"• sales: \"last week ki sales\", \"top customers this month\""
	case domain.RoleAccounts:
		return "You can ask:\n" +
			"• dues: \"who owes us money?\", \"Sharma ji ka outstanding\"\n" +
			"• orders: \"pending orders\"\n" +
			"• sales: \"this month's sales by customer\"\n" +
			"Approved orders reach you here and by email."
	}
	return "Type *help* to see what I can do."
}

// Holding names what was understood for intents whose handlers are not
// wired in yet.
func Holding(d intent.Decision) string {
	what := map[domain.Intent]string{
		domain.IntentOrder:         "an order",
		domain.IntentConfirm:       "a confirmation",
		domain.IntentCancel:        "a cancellation",
		domain.IntentStock:         "a stock question",
		domain.IntentOutstanding:   "a question about dues",
		domain.IntentPendingOrders: "a question about pending orders",
		domain.IntentReport:        "a sales report request",
	}[d.Intent]
	return fmt.Sprintf("Looks like %s — that part of Munshi is coming soon.", what)
}
