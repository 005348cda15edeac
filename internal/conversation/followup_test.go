package conversation

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/memory"
)

// TestFollowUpWordsComeFromDevelopment: every word that opens or fills a
// follow-up is written in a development conversation, so that none was
// taken from the held-out ones.
func TestFollowUpWordsComeFromDevelopment(t *testing.T) {
	f, err := os.Open("../dialogs/testdata/dev/dialogs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var d struct{ Turns []string }
		if json.Unmarshal(sc.Bytes(), &d) != nil {
			continue
		}
		for _, turn := range d.Turns {
			for _, tok := range intent.Normalize(turn).Tokens {
				seen[tok.Text] = true
			}
		}
	}
	for _, words := range []map[string]bool{continuers, followUpFillers} {
		for w := range words {
			if !seen[intent.Normalize(w).Text] {
				t.Errorf("%q is in no development conversation", w)
			}
		}
	}
}

// TestAFollowUpMayNameItsPeriodInTwoWords: "aur is mahine ki?" after a
// period's sales asks the sales of this month; a word that is no period
// nor a follow-up's filler makes it no follow-up.
func TestAFollowUpMayNameItsPeriodInTwoWords(t *testing.T) {
	conv := memory.Conversation{Turns: []memory.Turn{
		{Role: memory.RolePerson, Text: "last week ki sales batao", Intent: domain.IntentReport},
		{Role: memory.RoleMunshi, Text: "Sales last week …", Tool: "sales_summary"},
	}}
	for text, want := range map[string]bool{"aur is mahine ki?": true, "aur kal ka?": true, "aur is cricket ki?": false} {
		d := intent.Decision{Intent: domain.IntentUnknown, Text: text, Normalized: intent.Normalize(text)}
		got, ok := followUp(d, conv)
		if ok != want || ok && got.Intent != domain.IntentReport {
			t.Errorf("%q: follow-up %v (%s), want %v", text, ok, got.Intent, want)
		}
	}
}

// TestACancelThatNamesAnotherIsOfferedAsTheAnswer: while a question
// waits, a message read as a cancel goes to the orders side first, which
// takes "Ashok nahi, Rajesh" as an answer; one it does not take drops the
// question.
func TestACancelThatNamesAnotherIsOfferedAsTheAnswer(t *testing.T) {
	at := time.Date(2026, 3, 8, 10, 0, 0, 0, time.UTC)
	for pending, want := range map[string]string{"answerable": "orders: answer Ashok nahi, Rajesh", "other": "OK, dropped. Nothing was placed or recorded."} {
		w := newWorld()
		w.router.intents["Ashok nahi, Rajesh"] = domain.IntentCancel
		w.memory.convs[sales.Phone] = memory.Conversation{Frame: &memory.Frame{Data: pending, Expires: at.Add(FrameTTL)}}
		if r := w.say(sales.Phone, "Ashok nahi, Rajesh"); r.Text != want {
			t.Errorf("pending %s: %q, want %q", pending, r.Text, want)
		}
	}
}
