package conversation

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/memory"
)

// sentAt1042 is 10:42 in Kolkata.
var sentAt1042 = time.Date(2026, 3, 8, 5, 12, 0, 0, time.UTC)

func (w *world) recovered(in domain.Inbound) domain.Reply {
	in.Recovered, in.From = true, sales.Phone
	if in.Received.IsZero() {
		in.Received = sentAt1042
	}
	return w.svc.Respond(context.Background(), in)
}

// TestRecoveredMessageOvertaken: a recovered message whose sender has
// written since, by the inbox or by the conversation (a later turn of
// theirs), is not acted on: the reply says it was not processed, when it
// was sent and what it said, shortened, and nothing reaches the router,
// the orders or memory.
func TestRecoveredMessageOvertaken(t *testing.T) {
	body := "Rajesh ke liye 10 carton glass cleaner aur 10 pack *phenyl* bhej do, cash on delivery"
	for name, setup := range map[string]func(w *world, in *domain.Inbound){
		"by the inbox": func(_ *world, in *domain.Inbound) { in.Overtaken = true },
		"by the conversation": func(w *world, _ *domain.Inbound) {
			w.memory.convs[sales.Phone] = memory.Conversation{Turns: []memory.Turn{
				{Role: memory.RolePerson, Text: "ok", At: sentAt1042.Add(2 * time.Minute)},
				{Role: memory.RoleMunshi, Text: "✅ Order placed", At: sentAt1042.Add(2 * time.Minute)},
			}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			w := newWorld()
			w.router.intents[body] = domain.IntentOrder
			in := domain.Inbound{SID: "SMlate", Body: body}
			setup(w, &in)
			r := w.recovered(in)
			if !r.Stale || !strings.Contains(r.Text, "8 Mar, 10:42") || !strings.Contains(r.Text, "was not processed") ||
				!strings.Contains(r.Text, "(“Rajesh ke liye 10 carton glass cleaner aur 10 pack phenyl bh…”)") {
				t.Fatalf("reply %+v", r)
			}
			if len(w.router.routed) != 0 || len(w.orders.calls) != 0 || len(w.memory.appended) != 0 {
				t.Fatalf("acted on: routed %v, orders %v, memory %v", w.router.routed, w.orders.calls, w.memory.appended)
			}
		})
	}
}

// TestRecoveredMessageAnsweredLate: a recovered message with nothing said
// since (the conversation's last turn is older, or is this very message,
// remembered before the crash) is answered as usual, marked as a late
// answer to it.
func TestRecoveredMessageAnsweredLate(t *testing.T) {
	w := newWorld()
	w.router.intents["ok"] = domain.IntentConfirm
	w.memory.convs[sales.Phone] = memory.Conversation{Turns: []memory.Turn{
		{Role: memory.RolePerson, Text: "10 carton GC for Rajesh", At: sentAt1042.Add(-time.Minute)},
		{Role: memory.RoleMunshi, Text: "summary", At: sentAt1042.Add(-time.Minute)},
		{Role: memory.RolePerson, Text: "ok", At: sentAt1042},
	}}
	r := w.recovered(domain.Inbound{SID: "SMok", Body: "ok"})
	if r.Stale || !strings.HasPrefix(r.Text, "⏱ _A late answer to your message of 8 Mar, 10:42 (“ok”)") || !strings.HasSuffix(r.Text, "\n\norders: confirm ") {
		t.Fatalf("reply %+v", r)
	}
	// A message that is not recovered is never marked.
	if r := w.say(sales.Phone, "ok"); strings.Contains(r.Text, "late answer") {
		t.Fatalf("a live answer marked late: %q", r.Text)
	}
}

// TestThanksIsAcknowledged: thanks gets a short acknowledgement; a
// greeting still gets the welcome and the menu.
func TestThanksIsAcknowledged(t *testing.T) {
	w := newWorld()
	for _, text := range []string{"thanks", "thank you munshi", "shukriya", "🙏"} {
		w.router.intents[text] = domain.IntentGreeting
		if r := w.say(sales.Phone, text); r.Text != Welcome {
			t.Errorf("%q: %q", text, r.Text)
		}
	}
	// Thanks after a draft's summary says the draft still waits.
	w.memory.convs[sales.Phone] = memory.Conversation{Turns: []memory.Turn{
		{Role: memory.RolePerson, Text: "10 carton GC for Rajesh", At: sentAt1042},
		{Role: memory.RoleMunshi, Text: "summary", DraftID: "D-7", At: sentAt1042},
	}}
	if r := w.say(sales.Phone, "thanks"); r.Text != Welcome+"\n\n"+fmt.Sprintf(DraftStillWaits, "D-7") {
		t.Errorf("thanks after a summary: %q", r.Text)
	}
	// Thanks while a question waits says that it still waits.
	at := time.Date(2026, 3, 8, 10, 0, 0, 0, time.UTC)
	w.memory.convs[sales.Phone] = memory.Conversation{Frame: &memory.Frame{Data: "other", Expires: at.Add(FrameTTL)}}
	if r := w.say(sales.Phone, "thanks"); r.Text != Welcome+"\n\n_I'm still waiting for your answer to: question other_" {
		t.Errorf("thanks while a question waits: %q", r.Text)
	}
	w.memory.convs[sales.Phone] = memory.Conversation{}
	w.router.intents["namaste"] = domain.IntentGreeting
	if r := w.say(sales.Phone, "namaste"); !strings.Contains(r.Text, "You can") {
		t.Errorf("namaste: %q", r.Text)
	}
	// A greeting after a summary says so too; a greeting after a reply
	// that showed no draft (the draft sent on) does not.
	for _, c := range []struct {
		draftID string
		waits   bool
	}{{"D-7", true}, {"ORD-1405", false}, {"", false}} {
		w.memory.convs[sales.Phone] = memory.Conversation{Turns: []memory.Turn{
			{Role: memory.RolePerson, Text: "10 carton GC for Rajesh", At: sentAt1042},
			{Role: memory.RoleMunshi, Text: "reply", DraftID: c.draftID, At: sentAt1042},
		}}
		r := w.say(sales.Phone, "namaste")
		if got := strings.Contains(r.Text, "is still waiting: reply *ok*"); got != c.waits || !strings.Contains(r.Text, "You can") {
			t.Errorf("namaste after a reply showing %q: %q", c.draftID, r.Text)
		}
	}
}

// TestNotOursAnswered: a request for a discount is answered as the
// owner's to give (to the owner: theirs), and a parcel or a booking of another service as not
// the business's, with no business figure.
func TestNotOursAnswered(t *testing.T) {
	for text, c := range map[string]struct{ notOurs, reply string }{
		"kitna discount de sakte hain Rajesh ko?": {intent.NotOursDiscount, NotOursDiscount},
		"mera myntra order kab aayega":            {intent.NotOursService, NotOursService},
	} {
		w := newWorld()
		w.router.notOurs = map[string]string{text: c.notOurs}
		if r := w.say(sales.Phone, text); r.Text != c.reply {
			t.Errorf("%q: %q", text, r.Text)
		}
	}
	// The owner asking is told the discount is theirs to give.
	w := newWorld()
	text := "kitna discount de sakte hain Rajesh ko?"
	w.router.notOurs = map[string]string{text: intent.NotOursDiscount}
	if r := w.say(owner.Phone, text); r.Text != OwnersDiscount {
		t.Errorf("owner: %q: %q", text, r.Text)
	}
}
