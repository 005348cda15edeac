package conversation

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/llmbudget"
	"github.com/munshi/munshi/memory"
	"github.com/munshi/munshi/reports"
)

// Refusal is all an unknown number ever hears: once a day, and silence
// after that.
const Refusal = "Namaste! This WhatsApp number is not registered with Munshi, so I can't help here. Please ask your company's administrator to add you."

// Busy is the reply when the person's previous message is still being
// answered for longer than this one's budget.
const Busy = "I'm still working on your previous message — I'll answer this one after it. Please send it again in a moment if you don't hear back."

// MaxBodyChars is the longest message Munshi reads; WhatsApp allows 4,096.
const MaxBodyChars = 4096

// Users finds who sent a message.
type Users interface {
	UserByPhone(ctx context.Context, phone string) (domain.User, error)
}

// Refusals remembers which day each unknown number was last refused.
type Refusals interface {
	// FirstRefusalToday records a refusal of phone today (the calendar day
	// in zone) and reports whether it is the first of that day.
	FirstRefusalToday(ctx context.Context, phone string, zone *time.Location) (bool, error)
}

// Router decides what a message is about.
type Router interface {
	Route(ctx context.Context, text string) intent.Decision
}

// variants is what a Router that can tell a product's other sizes and
// kinds, and one of several customers, from their names offers
// (intent.Router.Variant and CustomerAmong).
type variants interface {
	Variant(sku string, said []string) (string, bool)
	CustomerAmong(ids, said []string) (string, bool)
}

// variant is the Router's Variant, or nil when it has none.
func (s *Service) variant() func(string, []string) (string, bool) {
	if v, ok := s.Router.(variants); ok {
		return v.Variant
	}
	return nil
}

// among is the Router's CustomerAmong, or nil when it has none.
func (s *Service) among() func([]string, []string) (string, bool) {
	if v, ok := s.Router.(variants); ok {
		return v.CustomerAmong
	}
	return nil
}

// RoutingObserver hears every routing decision, for metrics.
type RoutingObserver interface {
	Routed(d intent.Decision)
}

// Orders takes, confirms and cancels orders.
type Orders interface {
	// Take reads the order from what the router read of the message.
	Take(ctx context.Context, user domain.User, d intent.Decision) domain.Reply
	Confirm(ctx context.Context, user domain.User, ref string) domain.Reply
	// Cancel drops what the person was shown last, or, naming an order,
	// rejects or cancels it; text is the whole message (its reason).
	Cancel(ctx context.Context, user domain.User, ref, text string) domain.Reply
	Repeat(ctx context.Context, user domain.User, draftID, customerID string) domain.Reply
	AddToDraft(ctx context.Context, user domain.User, draftID, sku, text string) domain.Reply
	// The books after an order: each reads its message, shows a summary
	// and waits for "ok".
	Deliver(ctx context.Context, user domain.User, text string) domain.Reply
	RecordPayment(ctx context.Context, user domain.User, text string) domain.Reply
	ReceiveGoods(ctx context.Context, user domain.User, text string) domain.Reply
	// Answer reads a message as the answer to the question pending
	// (Reply.Pending of the question); false when it is not one.
	Answer(ctx context.Context, user domain.User, pending string, d intent.Decision) (domain.Reply, bool)
	// Asked is the question pending waits on, as it was asked.
	Asked(pending string) (string, bool)
	// Correct reads a message as a correction of the draft shown; false
	// when it is not one.
	Correct(ctx context.Context, user domain.User, draftID string, d intent.Decision) (domain.Reply, bool)
	// CorrectPayment reads a message as a correction of the payment shown
	// at or after since and waiting for its ok; false when it is not one.
	CorrectPayment(ctx context.Context, user domain.User, since time.Time, d intent.Decision) (domain.Reply, bool)
	// Reshow answers an ok after a message that was not understood: it
	// confirms nothing and shows what is open again.
	Reshow(ctx context.Context, user domain.User, ref string) domain.Reply
	// TakePhoto reads an order from a photo of its slip and its caption,
	// and shows it or asks, as Take does; the error is the reader's, and
	// nothing changed.
	TakePhoto(ctx context.Context, user domain.User, image domain.InboundMedia, caption string) (domain.Reply, error)
}

// Reports answers questions from the books.
type Reports interface {
	Plan(d intent.Decision) (reports.Call, bool)
	ReplyKeys(ctx context.Context, user domain.User, call reports.Call) (domain.Reply, reports.Keys)
	// Continue answers MORE from where an earlier answer left off; false
	// when that place has expired.
	Continue(ctx context.Context, user domain.User, p reports.Place) (domain.Reply, reports.Keys, bool)
}

// Memory is what the conversation keeps of each person between messages,
// and the turnstile that lets one message of a person in at a time;
// memory.Store is one.
type Memory interface {
	Load(ctx context.Context, phone string) (memory.Conversation, error)
	Append(ctx context.Context, phone string, turns ...memory.Turn) error
	Lock(ctx context.Context, phone string) (unlock func(), err error)
}

// Recorder writes the audit log; *audit.Log is one (it redacts secrets).
type Recorder interface {
	Record(ctx context.Context, actor, kind, subject string, detail map[string]any)
}

// Agent answers questions the deterministic path cannot map.
type Agent interface {
	AskKeys(ctx context.Context, user domain.User, question string) (domain.Reply, bool, reports.Keys)
}

// Service answers messages.
type Service struct {
	Users    Users
	Router   Router
	Orders   Orders
	Reports  Reports
	Agent    Agent // optional: only with an LLM
	Memory   Memory
	Audit    Recorder
	Logger   *slog.Logger
	Observer RoutingObserver
	// Refusals limits an unknown number to one refusal a day; without it
	// every message of one is refused.
	Refusals Refusals
	// Zone is where a day starts for Refusals (default Asia/Kolkata).
	Zone *time.Location
	// Media fetches the files of voice notes and photos, and Transcriber
	// hears voice notes; without them such a message is asked to be typed.
	Media         MediaFetcher
	Transcriber   Transcriber
	MediaObserver MediaObserver
	// Handoffs hands a conversation over to the office when Munshi cannot
	// help (handoff.go); without it the person is told to call them.
	Handoffs Handoffs
}

// turn is what one exchange leaves in memory.
type turn struct {
	decision  intent.Decision
	customers []string
	products  []string
	tool      string
	rows      []string
	more      *reports.Place // where MORE continues after it (see reports.Keys)
	// frame is the question the reply leaves waiting: nil keeps the one
	// that waited, an empty one clears it.
	frame *memory.Frame
	// said is what memory keeps of a message that was not text: the
	// transcript of a voice note, a photo's caption.
	said string
}

// Respond answers one inbound message.
func (s *Service) Respond(ctx context.Context, in domain.Inbound) domain.Reply {
	user, err := s.Users.UserByPhone(ctx, in.From)
	if domain.ErrorCode(err) == domain.ENOTFOUND {
		return s.refuse(ctx, in)
	} else if err != nil {
		s.Logger.Error("conversation: user lookup failed", "err", err)
		return domain.Reply{Text: "Sorry, something went wrong on my side. Please try again in a minute."}
	}
	// One message of a person at a time, in the order they arrived.
	unlock, err := s.Memory.Lock(ctx, user.Phone)
	if err != nil {
		s.Audit.Record(ctx, user.Phone, audit.KindDecision, in.SID, map[string]any{"busy": true})
		return domain.Reply{Text: Busy}
	}
	defer unlock()
	conv, err := s.Memory.Load(ctx, user.Phone)
	if err != nil {
		s.Logger.Warn("conversation: memory not loaded", "err", err)
		conv = memory.Conversation{Unavailable: true}
	}
	// At most two LLM calls per inbound message, whatever asks for them; the
	// memory summary travels in the request, never in the system prompt.
	ctx = llmbudget.WithCallBudget(ctx, 2)
	if !conv.Empty() {
		ctx = llmbudget.WithSummaryFunc(ctx, conv.Context)
	}
	s.Audit.Record(ctx, user.Phone, audit.KindInbound, in.SID, s.inbound(user, in))
	if in.Recovered && overtaken(in, conv) {
		reply := s.notProcessed(in)
		s.Audit.Record(ctx, user.Phone, audit.KindOutbound, in.SID, map[string]any{"channel": "reply", "body": reply.Text, "stale": true})
		return reply
	}
	reply, t := s.answer(ctx, user, in, conv)
	if in.Recovered {
		reply = s.late(in, reply)
	}
	s.Audit.Record(ctx, user.Phone, audit.KindOutbound, in.SID, map[string]any{"channel": "reply", "body": reply.Text, "media": reply.MediaURLs})
	s.remember(ctx, user, in, reply, t)
	return reply
}

// inbound is the audit's record of a message: its text, or only the start
// and the length of one too long to read.
func (s *Service) inbound(user domain.User, in domain.Inbound) map[string]any {
	detail := map[string]any{"role": string(user.Role), "body": in.Body, "media": len(in.MediaURLs)}
	if n := chars(in); n > MaxBodyChars {
		detail["body"], detail["chars"] = string([]rune(in.Body)[:keptChars]), n
	}
	return detail
}

// keptChars is how much of a message too long to read the audit keeps.
const keptChars = 160

// chars is the length of in's body as it was sent.
func chars(in domain.Inbound) int { return max(in.Chars, utf8.RuneCountInString(in.Body)) }

// refuse answers an unknown number: the refusal on its first message of
// the day, then silence, so that a stranger (or a flood) costs one reply a
// day. Every message is audited, by its length, never its text.
func (s *Service) refuse(ctx context.Context, in domain.Inbound) domain.Reply {
	first := true
	if s.Refusals != nil {
		zone := s.Zone
		if zone == nil {
			zone = domain.DefaultLocation()
		}
		var err error
		if first, err = s.Refusals.FirstRefusalToday(ctx, in.From, zone); err != nil {
			s.Logger.Error("conversation: refusal day not recorded; refusing anyway", "err", err)
			first = true
		}
	}
	s.Audit.Record(ctx, in.From, audit.KindRefusal, in.SID, map[string]any{
		"reason": "unknown sender", "chars": utf8.RuneCountInString(in.Body), "silent": !first,
	})
	if !first {
		return domain.Reply{}
	}
	return domain.Reply{Text: Refusal}
}

func (s *Service) answer(ctx context.Context, user domain.User, in domain.Inbound, conv memory.Conversation) (domain.Reply, turn) {
	text := strings.TrimSpace(in.Body)
	var t turn
	if len(in.MediaURLs) > 0 {
		return s.media(ctx, user, in, conv, &t), t
	}
	if text == "" {
		return domain.Reply{Text: Menu(user)}, t
	}
	if chars(in) > MaxBodyChars {
		return domain.Reply{Text: fmt.Sprintf("That message is too long for me (over %d characters). Please send one request at a time.", MaxBodyChars)}, t
	}
	if reply, ok := s.officeReply(ctx, user, text); ok {
		return reply, t
	}
	if reports.IsMore(text) && conv.More != nil {
		if reply, keys, ok := s.Reports.Continue(ctx, user, placeOf(conv.More)); ok {
			t.more = keys.More
			return reply, t
		}
	}
	at := received(in)
	// While a question or a summary waits, the message is first read
	// locally as its answer or correction: no LLM call is spent on
	// routing "Gupta Brothers" or "harpic hata do".
	waiting := conv.Frame.Live(at) || shownDraft(conv) != ""
	rctx := ctx
	if waiting {
		rctx = llmbudget.WithCallBudget(ctx, 0)
	}
	d := s.Router.Route(rctx, text)
	ref := memory.Resolve(text, d.Normalized, conv)
	if waiting {
		if reply, ok := s.waited(ctx, user, conv, d, ref, at, &t); ok {
			s.decided(ctx, user, in, d, ref)
			return reply, t
		}
		if d.Tier == intent.TierNone {
			d = s.Router.Route(ctx, text)
			ref = memory.Resolve(text, d.Normalized, conv)
		}
	} else if reply, ok := s.correctedPayment(ctx, user, conv, d, at, &t); ok {
		s.decided(ctx, user, in, d, ref)
		return reply, t
	}
	routeAgain := func(text string) intent.Decision {
		return s.Router.Route(llmbudget.WithCallBudget(ctx, 0), text)
	}
	if f, ok := asFile(ctx, s.Router, d, conv); ok {
		d, ref = f, memory.Reference{}
	} else if f, ok := variantFollowUp(d, conv, routeAgain, s.variant()); ok {
		d, ref = f, memory.Reference{}
	} else if f, ok := oneOfThoseFollowUp(d, conv, routeAgain, s.among()); ok {
		d, ref = f, memory.Reference{}
	} else if f, ok := followUp(d, conv, routeAgain); ok {
		d = f
		ref = memory.Resolve(text, d.Normalized, conv)
	}
	s.decided(ctx, user, in, d, ref)
	t.decision = d
	if ref.NeedsMemory && d.Intent != domain.IntentHandoff { // "ye order maine nahi diya" needs the office, not a referent
		return domain.Reply{Text: memory.NoReferent(conv)}, t
	}
	switch ref.Kind {
	case memory.RefSameOrder:
		if ref.Customer == "" && len(ref.Customers) > 1 {
			return domain.Reply{Text: "Which customer do you mean? Please send their full name."}, t
		}
		return s.ordered(s.Orders.Repeat(ctx, user, ref.Draft, ref.Customer), at, &t), t
	case memory.RefAddToDraft:
		return s.ordered(s.Orders.AddToDraft(ctx, user, ref.Draft, ref.Product, text), at, &t), t
	case memory.RefCancelThat:
		return s.Orders.Cancel(ctx, user, "", text), t
	}
	// An order is read from the message as routed: the referents a
	// follow-up adds are for questions, and name no words of it.
	routed := d
	if ref.Kind == memory.RefPronoun {
		d = withReferents(d, ref)
		t.decision = d
	}
	if (d.Intent == domain.IntentConfirm || d.Intent == domain.IntentCancel) && spoken(ctx) &&
		(orderRef(d) != "" || !plainConfirmation(d)) {
		// What the model heard approves or rejects nothing but what was
		// just shown, and only when that is all it heard.
		t.tool = toolUnread
		return domain.Reply{Text: SpokenApprovalReply}, t
	}
	switch d.Intent {
	case domain.IntentGreeting:
		if thanked(d) {
			return s.stillWaiting(domain.Reply{Text: Welcome}, conv, at), t
		}
		return s.stillWaiting(domain.Reply{Text: Greeting(user)}, conv, at), t
	case domain.IntentHelp:
		return domain.Reply{Text: Menu(user)}, t
	case domain.IntentOrder:
		if name, ok := customerSentAlone(conv, at); ok && !routed.Normalized.Has(intent.EntityCustomer) {
			// "Annapurna", then "5 tin wala oil": the name sent just
			// before, alone, is the order's customer.
			if with := s.Router.Route(llmbudget.WithCallBudget(ctx, 0), name+": "+text); with.Intent == domain.IntentOrder {
				routed = with
			}
		}
		return s.ordered(s.Orders.Take(ctx, user, routed), at, &t), t
	case domain.IntentConfirm:
		ref := orderRef(d)
		if q, ok := pendingQuestion(conv); ok && ref == "" {
			// The last thing said was a question: "ok" does not answer it,
			// and must not approve what was shown before it.
			return domain.Reply{Text: stillNeed(q)}, t
		}
		if lastUnread(conv) {
			// "ok" after a message that was not understood: it may have
			// been a correction, so nothing is confirmed.
			return s.ordered(s.Orders.Reshow(ctx, user, ref), at, &t), t
		}
		return s.ordered(s.Orders.Confirm(ctx, user, ref), at, &t), t
	case domain.IntentCancel:
		return s.ordered(s.Orders.Cancel(ctx, user, orderRef(d), text), at, &t), t
	case domain.IntentDelivery:
		return s.ordered(s.Orders.Deliver(ctx, user, text), at, &t), t
	case domain.IntentPayment:
		return s.ordered(s.Orders.RecordPayment(ctx, user, text), at, &t), t
	case domain.IntentStockReceived:
		return s.ordered(s.Orders.ReceiveGoods(ctx, user, text), at, &t), t
	case domain.IntentHandoff:
		return s.handOverAsked(ctx, user, in, d, conv), t
	}
	if reply, ok := s.question(ctx, user, text, d, &t); ok {
		return s.stillWaiting(reply, conv, at), t
	}
	t.tool = toolUnread
	if reply, ok := s.unread(ctx, user, in, d, conv); ok {
		return reply, t
	}
	switch d.NotOurs {
	case intent.NotOursDiscount:
		if user.Role == domain.RoleOwner {
			return domain.Reply{Text: OwnersDiscount}, t
		}
		return domain.Reply{Text: NotOursDiscount}, t
	case intent.NotOursService:
		return domain.Reply{Text: NotOursService}, t
	}
	if q, ok := s.waitingOn(conv, at); ok {
		return domain.Reply{Text: "Sorry, I didn't understand that. I'm still waiting for your answer:\n\n" + q}, t
	}
	if shownDraft(conv) != "" {
		return domain.Reply{Text: "Sorry, I didn't understand that, so I changed nothing. You can correct the order (\"GC 15 carton\", \"harpic hata do\", \"payment cheque se\"), reply *ok* to the summary, or *cancel*."}, t
	}
	return domain.Reply{Text: "Sorry, I didn't understand that — could you say it another way?\n\n" + Menu(user)}, t
}

// decided counts and audits the routing decision a message was answered on.
func (s *Service) decided(ctx context.Context, user domain.User, in domain.Inbound, d intent.Decision, ref memory.Reference) {
	if s.Observer != nil {
		s.Observer.Routed(d)
	}
	s.Audit.Record(ctx, user.Phone, audit.KindDecision, in.SID, map[string]any{
		"intent": string(d.Intent), "tier": string(d.Tier), "confidence": d.Confidence,
		"latency_us": d.Latency.Microseconds(), "reason": d.Reason, "reference": ref.Kind,
	})
}

// question answers from the books: the deterministic tools when the
// message maps onto one, else the agent when there is one.
func (s *Service) question(ctx context.Context, user domain.User, text string, d intent.Decision, t *turn) (domain.Reply, bool) {
	if call, ok := s.Reports.Plan(d); ok {
		reply, keys := s.Reports.ReplyKeys(ctx, user, call)
		t.tool, t.products, t.customers, t.rows, t.more = call.Tool, keys.Products, keys.Customers, keys.Rows, keys.More
		return reply, true
	}
	// Out-of-scope chatter never reaches the agent: only questions the
	// router recognised as about the books.
	if s.Agent != nil && d.Intent != domain.IntentUnknown {
		reply, used, keys := s.Agent.AskKeys(ctx, user, text)
		if !used && reply.Text == reports.HelpText && s.Handoffs != nil {
			return domain.Reply{}, false // the agent gave up: the office is asked (unread)
		}
		t.tool, t.products, t.customers, t.rows, t.more = "agent", keys.Products, keys.Customers, keys.Rows, keys.More
		return reply, true
	}
	if d.Intent == domain.IntentUnknown {
		return domain.Reply{}, false
	}
	return domain.Reply{Text: reports.HelpText}, true
}

// withReferents adds the customer or product a follow-up refers to ("uska
// stock", "their outstanding") to the decision's entities, as if the person
// had named it.
func withReferents(d intent.Decision, ref memory.Reference) intent.Decision {
	n := d.Normalized
	ents := append([]intent.Entity(nil), n.Entities...)
	if ref.Product != "" && !n.Has(intent.EntityProduct) {
		ents = append(ents, intent.Entity{Kind: intent.EntityProduct, ID: ref.Product, IDs: []string{ref.Product}})
	}
	if ref.Customer != "" && !n.Has(intent.EntityCustomer) {
		ids := ref.Customers
		if len(ids) == 0 {
			ids = []string{ref.Customer}
		}
		ents = append(ents, intent.Entity{Kind: intent.EntityCustomer, ID: ref.Customer, IDs: ids})
	}
	n.Entities = ents
	d.Normalized = n
	return d
}

// remember appends the exchange to memory. Memory is a convenience: a
// failure is logged and the reply still goes out.
func (s *Service) remember(ctx context.Context, user domain.User, in domain.Inbound, reply domain.Reply, t turn) {
	at := received(in)
	said := in.Body
	if t.said != "" {
		said = t.said
	}
	person := memory.Turn{Role: memory.RolePerson, Text: said, At: at, Intent: t.decision.Intent}
	for _, e := range t.decision.Normalized.Entities {
		if e.Weak && t.decision.Intent == domain.IntentGreeting {
			continue // "jai shri krishna" names no one
		}
		switch e.Kind {
		case intent.EntityCustomer:
			person.Customers = appendNew(person.Customers, e.ID)
		case intent.EntityProduct:
			person.Products = appendNew(person.Products, e.ID)
		}
	}
	munshi := memory.Turn{Role: memory.RoleMunshi, Text: reply.Text, At: at, Tool: t.tool, DraftID: reply.About,
		Customers: t.customers, Products: t.products, Rows: t.rows, More: continuationOf(t.more), Frame: t.frame}
	if err := s.Memory.Append(context.WithoutCancel(ctx), user.Phone, person, munshi); err != nil {
		s.Logger.Warn("conversation: memory not written", "err", err)
	}
}

// continuationOf is a reports place as memory keeps it: nil says nothing,
// an empty place ends the continuation.
func continuationOf(p *reports.Place) *memory.Continuation {
	if p == nil {
		return nil
	}
	return &memory.Continuation{Tool: p.Tool, Args: p.Args, Offset: p.Offset, Expires: p.Expires}
}

// placeOf is a remembered continuation as reports reads it.
func placeOf(c *memory.Continuation) reports.Place {
	return reports.Place{Tool: c.Tool, Args: c.Args, Offset: c.Offset, Expires: c.Expires}
}

func appendNew(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// orderRef is the order or draft a message names ("approve D-57"), in
// the form Munshi writes it.
func orderRef(d intent.Decision) string {
	for _, e := range d.Normalized.Entities {
		if e.Kind == intent.EntityOrderRef {
			return domain.OrderRef(e.ID)
		}
	}
	return ""
}

// NotOursDiscount answers a request for a discount: the owner gives them.
const NotOursDiscount = "Discounts are decided by the owner, not by me, so I can't offer one. Please ask the office; I can show prices, stock and dues."

// OwnersDiscount answers the owner's own question about a discount:
// theirs to decide, with what Munshi can show to decide it.
const OwnersDiscount = "Discounts are yours to decide; I don't suggest one. I can show the customer's dues, past orders and your prices to help you decide."

// NotOursService answers a question about a parcel, a ride or a booking
// of another service.
const NotOursService = "I keep this business's books: orders, deliveries, stock, dues and payments. I can't track parcels, rides, food orders or tickets of other services."

// Welcome answers thanks: a short acknowledgement, not the menu again.
const Welcome = "🙏 You're welcome! Send anything else whenever you need."

// DraftStillWaits follows a thanks, a greeting or a question's answer
// given just after a draft's summary, the draft not yet answered.
const DraftStillWaits = "Draft %s is still waiting: reply *ok* to send it, or *cancel*."

// thanked reports a greeting that thanks ("thanks", "shukriya", "🙏",
// "thank you munshi").
func thanked(d intent.Decision) bool {
	for _, tok := range d.Normalized.Tokens {
		if tok.Text == "thanks" {
			return true
		}
	}
	return false
}

// Greeting welcomes a known person by name.
func Greeting(u domain.User) string {
	first := u.Name
	if name := strings.Fields(u.Name); len(name) > 0 {
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
			"• orders: \"pending orders dikhao\"; *approve D-12* / *reject D-12* (a draft waiting for you), *approve PRP-12* / *reject PRP-12* (a payment beyond the advance limit)\n" +
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
