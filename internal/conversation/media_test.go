package conversation

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/llmbudget"
)

// FuzzTidyTranscript: whatever the model sends back as a transcript, what
// is read and repeated is valid UTF-8 on one line, with no control or
// format characters, no longer than a message, and tidy already.
func FuzzTidyTranscript(f *testing.F) {
	for _, seed := range []string{
		"Rajesh ke liye 15 carton GC, cash", "  मेहता का outstanding\nkitna hai  ", "\x00\u202eapprove ORD-1042\u202c",
		"ok\r\n\tok", strings.Repeat("स", MaxBodyChars+3), "\xff\xfe GC", "", "क्\u200dष 5 carton",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := tidyTranscript(s)
		if !utf8.ValidString(got) || utf8.RuneCountInString(got) > MaxBodyChars || strings.TrimSpace(got) != got {
			t.Fatalf("tidyTranscript(%q) = %q", s, got)
		}
		for _, r := range got {
			// The joiners are Devanagari's (क्‍ष) and emoji's: kept.
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) && r != '\u200c' && r != '\u200d' {
				t.Fatalf("tidyTranscript(%q) keeps %U", s, r)
			}
		}
		if again := tidyTranscript(got); again != got {
			t.Fatalf("not tidy: %q → %q", got, again)
		}
		if sh := shown(got); strings.Contains(sh, "_") || utf8.RuneCountInString(sh) > heardShown+1 {
			t.Fatalf("shown(%q) = %q", got, sh)
		}
	})
}

// TestTranscriptKeepsTheJoiners: a Devanagari transcript keeps the
// zero-width joiners its spelling needs, and loses a bidi override.
func TestTranscriptKeepsTheJoiners(t *testing.T) {
	if got := tidyTranscript("राजेश के लिए क्\u200dष\u202e\n5 कार्टन"); got != "राजेश के लिए क्\u200dष 5 कार्टन" {
		t.Fatalf("tidyTranscript = %q", got)
	}
}

// TestPlainConfirmation: only a few words that name nothing confirm when
// spoken.
func TestPlainConfirmation(t *testing.T) {
	words := func(ws ...string) intent.Decision {
		var d intent.Decision
		for _, w := range ws {
			d.Normalized.Tokens = append(d.Normalized.Tokens, intent.Token{Text: w})
		}
		return d
	}
	if !plainConfirmation(words("haan", "ok")) || !plainConfirmation(words("ok")) {
		t.Fatal("a plain ok was refused")
	}
	if plainConfirmation(words("ok", "ok", "ignore", "rules", "place")) {
		t.Fatal("five words confirmed")
	}
	named := words("ok", "approve", "d-12")
	named.Normalized.Entities = []intent.Entity{{Kind: intent.EntityOrderRef, ID: "D-12"}}
	if plainConfirmation(named) {
		t.Fatal("an ok naming an order confirmed")
	}
}

type fakeFetcher struct{ fetched []string }

func (f *fakeFetcher) Fetch(_ context.Context, url, declared string) (domain.InboundMedia, error) {
	f.fetched = append(f.fetched, url)
	return domain.InboundMedia{Data: []byte("OggS…"), ContentType: domain.MediaType(declared), Size: 5, SHA256: strings.Repeat("ab", 32)}, nil
}

// fakeEars hears transcript, spending one of the message's model calls
// as the real transcriber does.
type fakeEars struct {
	transcript string
	took       []bool
}

func (f *fakeEars) Transcribe(ctx context.Context, _ domain.InboundMedia) (domain.Transcript, error) {
	f.took = append(f.took, llmbudget.Take(ctx))
	return domain.Transcript{Language: "hinglish", Text: f.transcript}, nil
}

func hearingWorld(transcript string) (*world, *fakeEars) {
	w := newWorld()
	ears := &fakeEars{transcript: transcript}
	w.svc.Media, w.svc.Transcriber = &fakeFetcher{}, ears
	return w, ears
}

func (w *world) sayVoice(from string) domain.Reply {
	return w.svc.Respond(context.Background(), domain.Inbound{SID: "SMvoice", From: from,
		MediaURLs: []string{"https://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM1/Media/ME1"}, MediaTypes: []string{"audio/ogg"},
		Received: time.Date(2026, 3, 8, 10, 0, 0, 0, time.UTC)})
}

// TestVoiceNoteSharesTheMessagesTwoCalls: the transcription is one of the
// message's two model calls; routing and reading the transcript have the
// other.
func TestVoiceNoteSharesTheMessagesTwoCalls(t *testing.T) {
	w, ears := hearingWorld("Rajesh ke liye 15 carton GC")
	w.router.intents["Rajesh ke liye 15 carton GC"] = domain.IntentOrder
	reply := w.sayVoice(sales.Phone)
	if len(ears.took) != 1 || !ears.took[0] {
		t.Fatalf("the transcriber took %v", ears.took)
	}
	if len(w.router.budgets) != 1 || w.router.budgets[0] != 1 {
		t.Fatalf("routing the transcript had %v calls left, want 1", w.router.budgets)
	}
	if !strings.HasPrefix(reply.Text, "🎤 _Rajesh ke liye 15 carton GC_\n\n") || len(w.orders.taken) != 1 {
		t.Fatalf("reply %q, orders %v", reply.Text, w.orders.calls)
	}
	// Memory keeps what was heard, for the next message to refer to.
	if turns := w.memory.appended[sales.Phone]; len(turns) != 2 || turns[0].Text != "🎤 Rajesh ke liye 15 carton GC" {
		t.Fatalf("memory %+v", turns)
	}
}

// TestSpokenOkConfirmsOnlyWhenItIsAll: a transcript that is only an ok
// confirms; one naming an order does not reach Confirm.
func TestSpokenOkConfirmsOnlyWhenItIsAll(t *testing.T) {
	w, _ := hearingWorld("haan ok")
	w.router.intents["haan ok"] = domain.IntentConfirm
	w.sayVoice(sales.Phone)
	if len(w.orders.calls) != 1 || !strings.HasPrefix(w.orders.calls[0], "confirm") {
		t.Fatalf("a plain spoken ok: %v", w.orders.calls)
	}

	w, _ = hearingWorld("approve D-12")
	w.router.intents["approve D-12"] = domain.IntentConfirm
	w.router.entities["approve D-12"] = []intent.Entity{{Kind: intent.EntityOrderRef, ID: "D-12"}}
	if reply := w.sayVoice(owner.Phone); !strings.HasSuffix(reply.Text, SpokenApprovalReply) || len(w.orders.calls) != 0 {
		t.Fatalf("a spoken approval: %q, %v", reply.Text, w.orders.calls)
	}
}
