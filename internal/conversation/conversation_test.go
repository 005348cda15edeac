package conversation

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/memory"
	"github.com/munshi/munshi/reports"
)

// TestUnknownSenderRefusedOncePerDay: a number that is not a user hears
// the refusal on its first message of the day in Asia/Kolkata, then
// silence; every message is audited by its length, never its text, and
// nothing of it reaches routing or memory.
func TestUnknownSenderRefusedOncePerDay(t *testing.T) {
	w := newWorld()
	secret := "मेरा OTP 482913 है 🙏 \u202e and my card 4111 1111 1111 1111"
	if r := w.say(unknown, secret); r.Text != Refusal {
		t.Fatalf("first message: %q, want the refusal", r.Text)
	}
	for _, body := range []string{"hello?", "", strings.Repeat("spam ", 2000)} {
		if r := w.say(unknown, body); r.Text != "" || len(r.MediaURLs) != 0 {
			t.Fatalf("later message %q answered %q, want silence", body[:min(len(body), 10)], r.Text)
		}
	}
	// An hour later it is past midnight in Kolkata: a new day, one refusal more.
	w.refusals.now = w.refusals.now.Add(time.Hour)
	if r := w.say(unknown, "subah ho gayi"); r.Text != Refusal {
		t.Fatalf("first message of the next day: %q", r.Text)
	}
	if w.refusals.zones[0].String() != domain.DefaultLocation().String() {
		t.Errorf("refusal days in %v, want Asia/Kolkata", w.refusals.zones[0])
	}
	refusals := w.audit.kind(audit.KindRefusal)
	if len(refusals) != 5 || len(w.audit.entries) != 5 {
		t.Fatalf("audited %d refusals of %d entries, want 5 of 5", len(refusals), len(w.audit.entries))
	}
	if chars := refusals[0].detail["chars"]; chars != utf8.RuneCountInString(secret) {
		t.Errorf("audited %v characters, want %d", chars, utf8.RuneCountInString(secret))
	}
	for _, e := range refusals {
		for k, v := range e.detail {
			if s, ok := v.(string); ok && (strings.Contains(s, "482913") || strings.Contains(s, "spam")) {
				t.Errorf("the audit kept the text in %s: %q", k, s)
			}
		}
	}
	if silent := refusals[1].detail["silent"]; silent != true {
		t.Errorf("a silent refusal audited silent=%v", silent)
	}
	if len(w.router.routed) != 0 || w.memory.loads != 0 || w.memory.locks != 0 {
		t.Fatalf("an unknown number reached routing (%d) or memory (%d loads, %d locks)", len(w.router.routed), w.memory.loads, w.memory.locks)
	}
}

// TestUnknownSenderWhenRefusalsFail: without a record of refusal days, or
// when it fails, every message of an unknown number is refused: never an
// answer, never an error.
func TestUnknownSenderWhenRefusalsFail(t *testing.T) {
	w := newWorld()
	w.refusals.err = errDown
	for range 2 {
		if r := w.say(unknown, "hi"); r.Text != Refusal {
			t.Fatalf("with refusals failing: %q", r.Text)
		}
	}
	w = newWorld()
	w.svc.Refusals = nil
	for range 2 {
		if r := w.say(unknown, "hi"); r.Text != Refusal {
			t.Fatalf("without refusals: %q", r.Text)
		}
	}
}

// TestUserLookupFailure: when who-is-it cannot be answered, the person is
// told to try again, and nothing else happens.
func TestUserLookupFailure(t *testing.T) {
	w := newWorld()
	w.users.err = errDown
	if r := w.say(owner.Phone, "GC ka stock"); !strings.Contains(r.Text, "something went wrong") {
		t.Fatalf("reply %q", r.Text)
	}
	if len(w.router.routed) != 0 || w.memory.locks != 0 {
		t.Fatal("a message from nobody known was routed")
	}
}

// TestBusyWhenLockNotGranted: a message that cannot get its turn in time
// gets the busy reply, audited, and is neither routed nor remembered.
func TestBusyWhenLockNotGranted(t *testing.T) {
	w := newWorld()
	w.memory.lockErr = errDown
	if r := w.say(owner.Phone, "GC ka stock kitna hai"); r.Text != Busy {
		t.Fatalf("reply %q, want Busy", r.Text)
	}
	if len(w.router.routed) != 0 || w.memory.loads != 0 || len(w.memory.appended) != 0 {
		t.Fatal("a busy message was answered anyway")
	}
	if d := w.audit.kind(audit.KindDecision); len(d) != 1 || d[0].detail["busy"] != true {
		t.Fatalf("audit %+v, want one busy decision", w.audit.entries)
	}
}

// TestDegradedMemoryStillAnswers: with memory unreadable and unwritable,
// questions and greetings are answered as ever, the lock is released, and
// a follow-up says memory is unavailable instead of guessing.
func TestDegradedMemoryStillAnswers(t *testing.T) {
	w := newWorld()
	w.memory.loadErr, w.memory.appendErr = errDown, errDown
	w.router.intents["namaste"] = domain.IntentGreeting
	w.router.intents["GC ka stock kitna hai"] = domain.IntentStock
	w.router.intents["uska stock kitna hai"] = domain.IntentStock
	if r := w.say(owner.Phone, "namaste"); !strings.HasPrefix(r.Text, "Namaste Vikram!") {
		t.Fatalf("greeting: %q", r.Text)
	}
	if r := w.say(owner.Phone, "GC ka stock kitna hai"); !strings.HasPrefix(r.Text, "report stock") {
		t.Fatalf("question: %q", r.Text)
	}
	if r := w.say(owner.Phone, "uska stock kitna hai"); r.Text != memory.NoReferent(memory.Conversation{Unavailable: true}) {
		t.Fatalf("follow-up: %q", r.Text)
	}
	if w.memory.unlocks != w.memory.locks || w.memory.locks != 3 {
		t.Fatalf("%d locks, %d unlocks", w.memory.locks, w.memory.unlocks)
	}
	if len(w.router.summaries) != 3 || w.router.summaries[0] != "" {
		t.Fatalf("a summary %q reached the model without memory", w.router.summaries)
	}
}

// TestFollowUps: "uska stock" after an answer about a product asks about
// that product; the same words with nothing in memory ask the person to
// name it, without a guess; "same order for …" and "cancel that" go to the
// draft memory holds.
func TestFollowUps(t *testing.T) {
	product := intent.Entity{Kind: intent.EntityProduct, ID: "GC500", IDs: []string{"GC500"}}
	customer := intent.Entity{Kind: intent.EntityCustomer, ID: "C04", IDs: []string{"C04"}}
	draftWaits := "\n\n" + fmt.Sprintf(DraftStillWaits, "D-41")
	recent := memory.Conversation{Turns: []memory.Turn{
		{Role: memory.RolePerson, Text: "10 carton GC for Rajesh", Intent: domain.IntentOrder},
		{Role: memory.RoleMunshi, Text: "Draft D-41 …", Tool: "check_stock", DraftID: "D-41", Products: []string{"GC500"}, Customers: []string{"C01"}},
	}}
	for _, tc := range []struct {
		name     string
		conv     memory.Conversation
		text     string
		in       domain.Intent
		entities []intent.Entity
		want     string
		product  string // the product the question was planned with
		ref      string // the reference audited
	}{
		// The answer reminds that the draft shown before it still waits.
		{"pronoun resolves", recent, "uska stock kitna hai", domain.IntentStock, nil, "report stock GC500" + draftWaits, "GC500", memory.RefPronoun},
		{"pronoun without memory", memory.Conversation{}, "uska stock kitna hai", domain.IntentStock, nil, memory.NoReferent(memory.Conversation{}), "", memory.RefPronoun},
		{"named product wins", recent, "GC ka stock kitna hai", domain.IntentStock, []intent.Entity{product}, "report stock GC500" + draftWaits, "GC500", memory.RefNone},
		{"same order", recent, "same order for Sharma ji", domain.IntentOrder, []intent.Entity{customer}, "orders: repeat D-41 for C04", "", memory.RefSameOrder},
		{"same order without a draft", memory.Conversation{}, "same order for Sharma ji", domain.IntentOrder, []intent.Entity{customer}, memory.NoReferent(memory.Conversation{}), "", memory.RefSameOrder},
		{"cancel that", recent, "cancel that", domain.IntentCancel, nil, "orders: cancel ", "", memory.RefCancelThat},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld()
			w.memory.convs[owner.Phone] = tc.conv
			w.router.intents[tc.text] = tc.in
			w.router.entities[tc.text] = tc.entities
			if r := w.say(owner.Phone, tc.text); r.Text != tc.want {
				t.Fatalf("reply %q, want %q", r.Text, tc.want)
			}
			if tc.product != "" {
				if len(w.reports.calls) != 1 || w.reports.calls[0].Args["product"] != tc.product {
					t.Fatalf("planned %+v, want a question about %s", w.reports.calls, tc.product)
				}
			} else if len(w.reports.calls) != 0 {
				t.Fatalf("asked the books %+v", w.reports.calls)
			}
			if ref := w.audit.kind(audit.KindDecision)[0].detail["reference"]; ref != tc.ref {
				t.Errorf("audited reference %v, want %s", ref, tc.ref)
			}
		})
	}
}

// TestAgentFallback: a question about the books that no tool maps goes to
// the agent, and what it put in play is remembered; without an agent the
// person reads what can be asked; chatter never reaches the agent.
func TestAgentFallback(t *testing.T) {
	w := newWorld()
	w.router.intents["Rajesh ka hisaab kab tak clear hoga?"] = domain.IntentReport
	if r := w.say(owner.Phone, "Rajesh ka hisaab kab tak clear hoga?"); r.Text != "agent: Rajesh ka hisaab kab tak clear hoga?" {
		t.Fatalf("reply %q", r.Text)
	}
	turns := w.memory.appended[owner.Phone]
	if len(turns) != 2 || turns[1].Tool != "agent" || len(turns[1].Customers) != 1 || turns[1].Customers[0] != "C03" {
		t.Fatalf("remembered %+v", turns)
	}
	if r := w.say(owner.Phone, "aaj mausam kaisa hai"); !strings.HasPrefix(r.Text, "Sorry, I didn't understand") || len(w.agent.asked) != 1 {
		t.Fatalf("chatter: %q, agent asked %d times", r.Text, len(w.agent.asked))
	}

	w = newWorld()
	w.svc.Agent = nil
	w.router.intents["Rajesh ka hisaab kab tak clear hoga?"] = domain.IntentReport
	if r := w.say(owner.Phone, "Rajesh ka hisaab kab tak clear hoga?"); r.Text != reports.HelpText {
		t.Fatalf("without an agent: %q", r.Text)
	}
}

// TestMoreFromMemory: MORE continues from the place memory holds, and the
// place the page leaves is remembered; with no place, or an expired one,
// MORE is routed like any message.
func TestMoreFromMemory(t *testing.T) {
	expires := time.Date(2026, 3, 8, 10, 30, 0, 0, time.UTC)
	w := newWorld()
	w.memory.convs[owner.Phone] = memory.Conversation{More: &memory.Continuation{Tool: "check_stock", Offset: 10, Expires: expires,
		Args: map[string]any{"product": []string{"GC500", "PH1L"}}}}
	if r := w.say(owner.Phone, "more please"); r.Text != "page from check_stock" {
		t.Fatalf("MORE: %q", r.Text)
	}
	p := w.reports.continued[0]
	if p.Offset != 10 || !p.Expires.Equal(expires) || len(p.Args["product"].([]string)) != 2 {
		t.Fatalf("continued from %+v", p)
	}
	if len(w.router.routed) != 0 {
		t.Fatal("MORE was routed although memory held a place")
	}
	turns := w.memory.appended[owner.Phone]
	if len(turns) != 2 || turns[1].More == nil || turns[1].More.Tool != "" {
		t.Fatalf("remembered %+v, want the last page to end the continuation", turns)
	}

	// A new answer remembers where its MORE continues.
	w.reports.keys = reports.Keys{More: &reports.Place{Tool: "outstanding", Offset: 10, Expires: expires}}
	w.router.intents["who owes us money?"] = domain.IntentOutstanding
	w.say(owner.Phone, "who owes us money?")
	if m := w.memory.appended[owner.Phone][3].More; m == nil || m.Tool != "outstanding" || m.Offset != 10 {
		t.Fatalf("remembered %+v after a long answer", m)
	}

	for name, w := range map[string]*world{"no place": newWorld(), "expired": newWorld()} {
		if name == "expired" {
			w.memory.convs[owner.Phone] = memory.Conversation{More: &memory.Continuation{Tool: "check_stock", Expires: expires}}
			w.reports.expired = true
		}
		w.say(owner.Phone, "MORE")
		if len(w.router.routed) != 1 || w.router.routed[0] != "MORE" {
			t.Errorf("%s: MORE was not routed: %v", name, w.router.routed)
		}
		if turns := w.memory.appended[owner.Phone]; turns[1].More != nil {
			t.Errorf("%s: an unanswered MORE touched the continuation: %+v", name, turns[1].More)
		}
	}
}

// TestMessageShapes: a message too long to read, media without text, an
// empty message and hostile text each get a clear reply, never a panic;
// only the ones that can be read are routed.
func TestMessageShapes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		body   string
		media  []string
		want   string // prefix of the reply
		routed bool
	}{
		{"too long", strings.Repeat("स", MaxBodyChars+1), nil, "That message is too long for me", false},
		{"longest readable", strings.Repeat("स", MaxBodyChars), nil, "Sorry, I didn't understand", true},
		{"media of no declared type", "  \n\t", []string{"https://api.twilio.com/media/ME1"}, "I can read text, voice notes and photos", false},
		{"empty", "", nil, "You can ask:", false},
		{"hostile", "\x00\u202e<script>alert(1)</script>\r\n🙏🏽 ज़्ज़", nil, "Sorry, I didn't understand", true},
		{"invalid utf-8", "GC \xff\xfe stock", nil, "Sorry, I didn't understand", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld()
			r := w.say(owner.Phone, tc.body, tc.media...)
			if !strings.HasPrefix(r.Text, tc.want) {
				t.Fatalf("reply %q, want %q…", r.Text, tc.want)
			}
			if got := len(w.router.routed) == 1; got != tc.routed {
				t.Fatalf("routed %v, want %v", got, tc.routed)
			}
			if w.memory.unlocks != 1 {
				t.Fatalf("the lock was released %d times", w.memory.unlocks)
			}
			if in := w.audit.kind(audit.KindInbound); len(in) != 1 || in[0].detail["media"] != len(tc.media) {
				t.Fatalf("inbound audit %+v", in)
			}
		})
	}
}

// TestOrdersAndBudget: order intents reach the orders service with the
// order a message names, an order with what the router read of it; every
// message may spend two LLM calls, and the memory summary rides along
// once there is one.
func TestOrdersAndBudget(t *testing.T) {
	w := newWorld()
	ref := intent.Entity{Kind: intent.EntityOrderRef, ID: "ORDER-1042"}
	w.router.intents["5 carton GC for Rajesh, COD"] = domain.IntentOrder
	rajesh := intent.Entity{Kind: intent.EntityCustomer, ID: "C01", IDs: []string{"C01"}}
	w.router.entities["5 carton GC for Rajesh, COD"] = []intent.Entity{rajesh}
	w.router.intents["approve ORD-1042"] = domain.IntentConfirm
	w.router.entities["approve ORD-1042"] = []intent.Entity{ref}
	w.router.intents["reject ORD-1042"] = domain.IntentCancel
	w.router.entities["reject ORD-1042"] = []intent.Entity{ref}
	w.router.intents["approve D-57"] = domain.IntentConfirm
	w.router.entities["approve D-57"] = []intent.Entity{{Kind: intent.EntityOrderRef, ID: "DRAFT-57"}}
	for text, want := range map[string]string{
		"5 carton GC for Rajesh, COD": "orders: take 5 carton GC for Rajesh, COD",
		"approve ORD-1042":            "orders: confirm ORD-1042",
		"reject ORD-1042":             "orders: cancel ORD-1042",
		"approve D-57":                "orders: confirm D-57",
	} {
		if r := w.say(sales.Phone, text); r.Text != want {
			t.Errorf("%q: %q, want %q", text, r.Text, want)
		}
	}
	// The router's reading, with the customer only it found: Take reads
	// that, not the text again.
	if taken := w.orders.taken; len(taken) != 1 || taken[0].Text != "5 carton GC for Rajesh, COD" ||
		taken[0].Intent != domain.IntentOrder || !slices.ContainsFunc(taken[0].Normalized.Entities, func(e intent.Entity) bool { return e.ID == rajesh.ID }) {
		t.Errorf("Take was given %+v, want the router's decision", taken)
	}
	for i, n := range w.router.budgets {
		if n != 2 {
			t.Errorf("message %d could spend %d LLM calls, want 2", i+1, n)
		}
	}
	w = newWorld()
	w.memory.convs[owner.Phone] = memory.Conversation{Turns: []memory.Turn{{Role: memory.RolePerson, Text: "GC ka stock", Products: []string{"GC500"}}}}
	w.say(owner.Phone, "namaste")
	if len(w.router.summaries) != 1 || !strings.Contains(w.router.summaries[0], "GC500") {
		t.Fatalf("summaries %q, want the memory's", w.router.summaries)
	}
	if turns := w.memory.appended[owner.Phone]; len(turns) != 2 || turns[0].Text != "namaste" || turns[1].Role != memory.RoleMunshi {
		t.Fatalf("remembered %+v", turns)
	}
}

// TestLifecycleAndOkAfterAQuestion: deliveries, payments and goods
// received go to orders with the whole message; an "ok" right after a
// question repeats the question instead of approving what came before it.
func TestLifecycleAndOkAfterAQuestion(t *testing.T) {
	w := newWorld()
	w.router.intents["ORD-1042 delivered"] = domain.IntentDelivery
	w.router.intents["Mehta ne 50k diya UPI"] = domain.IntentPayment
	w.router.intents["GC 100 carton aaya"] = domain.IntentStockReceived
	w.router.intents["cancel ORD-1042 customer refused"] = domain.IntentCancel
	w.router.entities["cancel ORD-1042 customer refused"] = []intent.Entity{{Kind: intent.EntityOrderRef, ID: "ORDER-1042"}}
	for text, want := range map[string]string{
		"ORD-1042 delivered":               "orders: deliver ORD-1042 delivered",
		"Mehta ne 50k diya UPI":            "orders: payment Mehta ne 50k diya UPI",
		"GC 100 carton aaya":               "orders: receive GC 100 carton aaya",
		"cancel ORD-1042 customer refused": "orders: cancel ORD-1042",
	} {
		if r := w.say(owner.Phone, text); r.Text != want {
			t.Errorf("%q: %q, want %q", text, r.Text, want)
		}
	}

	w = newWorld()
	w.router.intents["ok"] = domain.IntentConfirm
	w.memory.convs[sales.Phone] = memory.Conversation{Turns: []memory.Turn{
		{Role: memory.RolePerson, Text: "Rajesh ke liye 5 carton"},
		{Role: memory.RoleMunshi, Text: "Which product is the 5 carton?", Tool: toolQuestion},
	}}
	r := w.say(sales.Phone, "ok")
	if !strings.Contains(r.Text, "Which product is the 5 carton?") || len(w.orders.calls) != 0 {
		t.Fatalf("ok after a question = %q (orders called %v); want the question again and nothing approved", r.Text, w.orders.calls)
	}
	// After an answer that showed a summary, "ok" goes to orders.
	w.memory.convs[sales.Phone] = memory.Conversation{Turns: []memory.Turn{{Role: memory.RoleMunshi, Text: "*Order ORD-1042* …"}}}
	if r := w.say(sales.Phone, "ok"); r.Text != "orders: confirm " {
		t.Fatalf("ok after a summary = %q", r.Text)
	}
}

// TestQuestionRepliesAreRemembered: a reply that asks is kept as a
// question, so the next "ok" can be answered about it.
func TestQuestionRepliesAreRemembered(t *testing.T) {
	w := newWorld()
	w.router.intents["Rajesh ke liye 5 carton"] = domain.IntentOrder
	w.orders.question = true
	w.say(sales.Phone, "Rajesh ke liye 5 carton")
	turns := w.memory.appended[sales.Phone]
	if len(turns) != 2 || turns[1].Tool != toolQuestion {
		t.Fatalf("remembered %+v, want the reply kept as a question", turns)
	}
}

// TestACustomerSentAloneIsTheNextOrders: a customer's name sent alone,
// which Munshi could not read as anything, is the customer of the order
// sent next that names none; an order naming its own customer keeps it.
func TestACustomerSentAloneIsTheNextOrders(t *testing.T) {
	w := newWorld()
	rajesh := intent.Entity{Kind: intent.EntityCustomer, ID: "C01", IDs: []string{"C01"}}
	w.router.entities["Rajesh"] = []intent.Entity{rajesh}
	w.router.intents["5 carton GC"] = domain.IntentOrder
	w.router.intents["Rajesh: 5 carton GC"] = domain.IntentOrder
	w.router.entities["Rajesh: 5 carton GC"] = []intent.Entity{rajesh}
	w.router.intents["Mehta ko 2 carton TC"] = domain.IntentOrder
	w.router.entities["Mehta ko 2 carton TC"] = []intent.Entity{{Kind: intent.EntityCustomer, ID: "C03", IDs: []string{"C03"}}}
	remembered := func() { w.memory.convs[sales.Phone] = memory.Conversation{Turns: w.memory.appended[sales.Phone]} }
	w.say(sales.Phone, "Rajesh")
	remembered()
	w.say(sales.Phone, "5 carton GC")
	if taken := w.orders.taken; len(taken) != 1 || taken[0].Text != "Rajesh: 5 carton GC" {
		t.Fatalf("Take was given %+v", taken)
	}
	w.say(sales.Phone, "Rajesh")
	remembered()
	w.say(sales.Phone, "Mehta ko 2 carton TC")
	if taken := w.orders.taken; len(taken) != 2 || taken[1].Text != "Mehta ko 2 carton TC" {
		t.Fatalf("an order naming its customer was given %+v", taken[1:])
	}
}
