package conversation

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/llmbudget"
	"github.com/munshi/munshi/memory"
	"github.com/munshi/munshi/reports"
)

// Small fakes of the interfaces Service declares. Each records what it was
// asked, so that a test checks what the conversation did, not only what it
// said.

var (
	owner   = domain.User{Phone: "+919900000001", Name: "Vikram Singh", Role: domain.RoleOwner}
	sales   = domain.User{Phone: "+919900000003", Name: "Ravi Kumar", Role: domain.RoleSales}
	unknown = "+919811111111"
)

type fakeUsers struct {
	users map[string]domain.User
	err   error // a failure other than "not found"
}

func (f *fakeUsers) UserByPhone(_ context.Context, phone string) (domain.User, error) {
	if f.err != nil {
		return domain.User{}, f.err
	}
	u, ok := f.users[phone]
	if !ok {
		return domain.User{}, domain.Errorf(domain.ENOTFOUND, "no user %s", phone)
	}
	return u, nil
}

// fakeRefusals remembers the day of each refusal by the clock it is given.
type fakeRefusals struct {
	mu    sync.Mutex
	now   time.Time
	days  map[string]string
	err   error
	zones []*time.Location
}

func (f *fakeRefusals) FirstRefusalToday(_ context.Context, phone string, zone *time.Location) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.zones = append(f.zones, zone)
	if f.err != nil {
		return false, f.err
	}
	day := f.now.In(zone).Format(time.DateOnly)
	if f.days[phone] == day {
		return false, nil
	}
	if f.days == nil {
		f.days = map[string]string{}
	}
	f.days[phone] = day
	return true, nil
}

// fakeRouter decides by a table of texts, normalising the text for real
// (without a catalog) so that follow-ups are read as Munshi reads them.
// It notes the budget and summary each call could spend.
type fakeRouter struct {
	intents   map[string]domain.Intent
	entities  map[string][]intent.Entity // added to the normalised text
	routed    []string
	budgets   []int
	summaries []string
	notOurs   map[string]string
}

func (f *fakeRouter) Route(ctx context.Context, text string) intent.Decision {
	f.routed = append(f.routed, text)
	n, _ := llmbudget.Left(ctx)
	f.budgets = append(f.budgets, n)
	f.summaries = append(f.summaries, llmbudget.Summary(ctx))
	d := intent.Decision{Text: text, Intent: domain.IntentUnknown, Tier: intent.TierRules, Confidence: 1, Normalized: intent.Normalize(text)}
	if in, ok := f.intents[text]; ok {
		d.Intent = in
	}
	d.Normalized.Entities = append(d.Normalized.Entities, f.entities[text]...)
	d.NotOurs = f.notOurs[text]
	return d
}

type fakeOrders struct {
	calls    []string
	question bool              // replies ask something
	taken    []intent.Decision // what Take was given
}

func (f *fakeOrders) reply(call string) domain.Reply {
	f.calls = append(f.calls, call)
	return domain.Reply{Text: "orders: " + call, About: "D-7", Question: f.question}
}

func (f *fakeOrders) Take(_ context.Context, _ domain.User, d intent.Decision) domain.Reply {
	f.taken = append(f.taken, d)
	return f.reply("take " + d.Text)
}
func (f *fakeOrders) Confirm(_ context.Context, _ domain.User, ref string) domain.Reply {
	return f.reply("confirm " + ref)
}
func (f *fakeOrders) Cancel(_ context.Context, _ domain.User, ref, _ string) domain.Reply {
	return f.reply("cancel " + ref)
}
func (f *fakeOrders) Deliver(_ context.Context, _ domain.User, text string) domain.Reply {
	return f.reply("deliver " + text)
}
func (f *fakeOrders) RecordPayment(_ context.Context, _ domain.User, text string) domain.Reply {
	return f.reply("payment " + text)
}
func (f *fakeOrders) ReceiveGoods(_ context.Context, _ domain.User, text string) domain.Reply {
	return f.reply("receive " + text)
}
func (f *fakeOrders) Repeat(_ context.Context, _ domain.User, draftID, customerID string) domain.Reply {
	return f.reply("repeat " + draftID + " for " + customerID)
}
func (f *fakeOrders) AddToDraft(_ context.Context, _ domain.User, draftID, sku, _ string) domain.Reply {
	return f.reply("add " + sku + " to " + draftID)
}

// Answer takes any message as the answer when the pending question is
// "answerable", and asks nothing more.
func (f *fakeOrders) Answer(_ context.Context, _ domain.User, pending string, d intent.Decision) (domain.Reply, bool) {
	if pending != "answerable" {
		return domain.Reply{}, false
	}
	return f.reply("answer " + d.Text), true
}
func (f *fakeOrders) Asked(pending string) (string, bool) {
	return "question " + pending, pending != ""
}

// Correct takes a message that starts with "fix" as a correction.
func (f *fakeOrders) Correct(_ context.Context, _ domain.User, draftID string, d intent.Decision) (domain.Reply, bool) {
	if !strings.HasPrefix(d.Text, "fix") {
		return domain.Reply{}, false
	}
	return f.reply("correct " + draftID + " " + d.Text), true
}

// CorrectPayment takes a message that starts with "amount" as a
// correction of a payment.
func (f *fakeOrders) CorrectPayment(_ context.Context, _ domain.User, _ time.Time, d intent.Decision) (domain.Reply, bool) {
	if !strings.HasPrefix(d.Text, "amount") {
		return domain.Reply{}, false
	}
	return f.reply("correct payment " + d.Text), true
}
func (f *fakeOrders) Reshow(_ context.Context, _ domain.User, ref string) domain.Reply {
	return f.reply("reshow " + ref)
}

func (f *fakeOrders) TakePhoto(_ context.Context, _ domain.User, image domain.InboundMedia, caption string) (domain.Reply, error) {
	return f.reply("photo " + image.ContentType + " " + caption), nil
}

// fakeReports plans a tool for the question intents and answers with the
// product the decision names; Continue pages by the place's offset.
type fakeReports struct {
	planned   []intent.Decision
	calls     []reports.Call
	continued []reports.Place
	keys      reports.Keys // what each answer puts in play
	expired   bool         // Continue finds every place expired
}

func (f *fakeReports) Plan(d intent.Decision) (reports.Call, bool) {
	f.planned = append(f.planned, d)
	if d.Intent != domain.IntentStock && d.Intent != domain.IntentOutstanding {
		return reports.Call{}, false
	}
	args := map[string]any{}
	for _, e := range d.Normalized.Entities {
		if e.Kind == intent.EntityProduct {
			args["product"] = e.ID
		}
	}
	return reports.Call{Tool: string(d.Intent), Args: args}, true
}

func (f *fakeReports) ReplyKeys(_ context.Context, _ domain.User, call reports.Call) (domain.Reply, reports.Keys) {
	f.calls = append(f.calls, call)
	product, _ := call.Args["product"].(string)
	return domain.Reply{Text: "report " + call.Tool + " " + product}, f.keys
}

func (f *fakeReports) Continue(_ context.Context, _ domain.User, p reports.Place) (domain.Reply, reports.Keys, bool) {
	if f.expired {
		return domain.Reply{}, reports.Keys{}, false
	}
	f.continued = append(f.continued, p)
	return domain.Reply{Text: "page from " + p.Tool}, reports.Keys{More: &reports.Place{}}, true
}

type fakeAgent struct{ asked []string }

func (f *fakeAgent) AskKeys(_ context.Context, _ domain.User, question string) (domain.Reply, bool, reports.Keys) {
	f.asked = append(f.asked, question)
	return domain.Reply{Text: "agent: " + question}, true, reports.Keys{Customers: []string{"C03"}}
}

// fakeMemory keeps conversations in a map; it can fail each operation.
type fakeMemory struct {
	convs                       map[string]memory.Conversation
	appended                    map[string][]memory.Turn
	loadErr, appendErr, lockErr error
	loads, locks, unlocks       int
}

func (f *fakeMemory) Load(_ context.Context, phone string) (memory.Conversation, error) {
	f.loads++
	if f.loadErr != nil {
		return memory.Conversation{}, f.loadErr
	}
	c := f.convs[phone]
	c.Phone = phone
	return c, nil
}

func (f *fakeMemory) Append(_ context.Context, phone string, turns ...memory.Turn) error {
	if f.appendErr != nil {
		return f.appendErr
	}
	if f.appended == nil {
		f.appended = map[string][]memory.Turn{}
	}
	f.appended[phone] = append(f.appended[phone], turns...)
	return nil
}

func (f *fakeMemory) Lock(context.Context, string) (func(), error) {
	f.locks++
	if f.lockErr != nil {
		return nil, f.lockErr
	}
	return func() { f.unlocks++ }, nil
}

// entry is one audit record.
type entry struct {
	actor, kind, subject string
	detail               map[string]any
}

type fakeAudit struct{ entries []entry }

func (f *fakeAudit) Record(_ context.Context, actor, kind, subject string, detail map[string]any) {
	f.entries = append(f.entries, entry{actor, kind, subject, detail})
}

func (f *fakeAudit) kind(kind string) []entry {
	var out []entry
	for _, e := range f.entries {
		if e.kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// world is a Service on fakes.
type world struct {
	svc      *Service
	users    *fakeUsers
	refusals *fakeRefusals
	router   *fakeRouter
	orders   *fakeOrders
	reports  *fakeReports
	agent    *fakeAgent
	memory   *fakeMemory
	audit    *fakeAudit
}

func newWorld() *world {
	w := &world{
		users:    &fakeUsers{users: map[string]domain.User{owner.Phone: owner, sales.Phone: sales}},
		refusals: &fakeRefusals{now: time.Date(2026, 3, 8, 18, 0, 0, 0, time.UTC)}, // 23:30 in Kolkata
		router:   &fakeRouter{intents: map[string]domain.Intent{}, entities: map[string][]intent.Entity{}},
		orders:   &fakeOrders{},
		reports:  &fakeReports{},
		agent:    &fakeAgent{},
		memory:   &fakeMemory{convs: map[string]memory.Conversation{}},
		audit:    &fakeAudit{},
	}
	w.svc = &Service{Users: w.users, Router: w.router, Orders: w.orders, Reports: w.reports, Agent: w.agent,
		Memory: w.memory, Audit: w.audit, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Refusals: w.refusals}
	return w
}

var errDown = errors.New("connection refused")

func (w *world) say(from, body string, media ...string) domain.Reply {
	return w.svc.Respond(context.Background(), domain.Inbound{SID: "SM" + body, From: from, Body: body, MediaURLs: media,
		Received: time.Date(2026, 3, 8, 10, 0, 0, 0, time.UTC)})
}
