package conversation

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/memory"
)

// Voice notes and photos: a voice note is heard by the model and its
// transcript read like typed text; a photo of an order slip is read into
// an order that is checked and shown like a typed one. The model's reading
// is data: it never confirms anything on its own.

// MediaFetcher downloads one file of an inbound message from the
// provider. Its errors wrap domain.ErrMediaUnsupported and
// domain.ErrMediaTooLarge when the file is of a kind, or a size, Munshi
// does not read.
type MediaFetcher interface {
	Fetch(ctx context.Context, url, declaredType string) (domain.InboundMedia, error)
}

// Transcriber hears a voice note (an LLM).
type Transcriber interface {
	Transcribe(ctx context.Context, audio domain.InboundMedia) (domain.Transcript, error)
}

// MediaObserver hears how each media message went, for metrics.
type MediaObserver interface {
	MediaHandled(kind domain.MediaKind, outcome MediaOutcome)
}

// MediaOutcome is how a media message ended.
type MediaOutcome string

const (
	MediaRead        MediaOutcome = "read"         // heard or read, and answered
	MediaUnsupported MediaOutcome = "unsupported"  // a kind Munshi does not read
	MediaTooLarge    MediaOutcome = "too_large"    // over the size cap
	MediaFetchFailed MediaOutcome = "fetch_failed" // could not be downloaded
	MediaNoModel     MediaOutcome = "no_model"     // no model to hear or read it
	MediaModelFailed MediaOutcome = "model_failed" // the model failed or was not asked in time
	MediaEmpty       MediaOutcome = "empty"        // no speech heard, or not an order slip
)

// Replies to media Munshi cannot use. None of them changed anything.
const (
	MediaUnsupportedReply = "I can read text, voice notes and photos, but not this kind of file. Please type your message, or send a voice note or a photo."
	MediaTooLargeReply    = "That file is too large for me to open (over 16 MB). Please send a shorter voice note or a smaller photo, or type your message."
	MediaFetchReply       = "I couldn't download that file from WhatsApp. Please send it again, or type your message."
	VoiceUnreadReply      = "I can't listen to voice notes right now. Please type your message — nothing was placed or recorded."
	PhotoUnreadReply      = "I can't read photos right now. Please type the order — nothing was placed or recorded."
	VoiceEmptyReply       = "I couldn't hear any words in that voice note. Please record it again, or type your message."
	SpokenApprovalReply   = "To approve or reject by number, please type it (\"approve D-12\"). A voice note can confirm only the summary I just showed, by saying just \"ok\" or \"haan\"."
)

// mediaGaveUp says, in the office's words, why a file that should have
// been read was not: the steps that gave up hand the conversation over.
var mediaGaveUp = map[MediaOutcome]string{
	MediaFetchFailed: "the voice note or photo could not be downloaded from WhatsApp",
	MediaModelFailed: "the voice note or photo could not be heard or read (the language model did not answer)",
}

// heardShown is how much of a transcript the reply repeats.
const heardShown = 300

// media answers a message that carries files: the first file is heard or
// read, the rest are mentioned.
func (s *Service) media(ctx context.Context, user domain.User, in domain.Inbound, conv memory.Conversation, t *turn) domain.Reply {
	declared := ""
	if len(in.MediaTypes) > 0 {
		declared = in.MediaTypes[0]
	}
	kind := domain.KindOf(declared)
	detail := map[string]any{"kind": string(kind), "declared": domain.MediaType(declared), "files": len(in.MediaURLs)}
	done := func(o MediaOutcome, reply domain.Reply) domain.Reply {
		detail["outcome"] = string(o)
		if why, failed := mediaGaveUp[o]; failed {
			// A file Munshi should have read and could not: the office
			// hears of it, the person still reads why.
			if office, ok := s.GaveUp(ctx, user, in, conv, why); ok {
				reply.Text += "\n\n" + office.Text
			}
		}
		s.Audit.Record(ctx, user.Phone, audit.KindMedia, in.SID, detail)
		if s.MediaObserver != nil {
			s.MediaObserver.MediaHandled(kind, o)
		}
		if len(in.MediaURLs) > 1 && o == MediaRead {
			reply.Text = fmt.Sprintf("_I read the first of the %d files you sent._\n\n%s", len(in.MediaURLs), reply.Text)
		}
		return reply
	}
	if kind == domain.MediaOther {
		t.tool = toolUnread
		return done(MediaUnsupported, domain.Reply{Text: MediaUnsupportedReply})
	}
	unread := VoiceUnreadReply
	if kind == domain.MediaPhoto {
		unread = PhotoUnreadReply
	}
	if s.Media == nil || (kind == domain.MediaVoice && s.Transcriber == nil) {
		t.tool = toolUnread
		return done(MediaNoModel, domain.Reply{Text: unread})
	}
	file, err := s.Media.Fetch(ctx, in.MediaURLs[0], declared)
	if err != nil {
		s.Logger.Warn("conversation: media not fetched", "sid", in.SID, "err", err)
		t.tool = toolUnread
		switch {
		case errors.Is(err, domain.ErrMediaUnsupported):
			return done(MediaUnsupported, domain.Reply{Text: MediaUnsupportedReply})
		case errors.Is(err, domain.ErrMediaTooLarge):
			return done(MediaTooLarge, domain.Reply{Text: MediaTooLargeReply})
		}
		return done(MediaFetchFailed, domain.Reply{Text: MediaFetchReply})
	}
	// The file is known by its size, type and hash; its bytes are never
	// logged or audited.
	detail["type"], detail["bytes"], detail["sha256"] = file.ContentType, file.Size, file.SHA256
	kind = domain.KindOf(file.ContentType)
	detail["kind"] = string(kind)

	switch kind {
	case domain.MediaVoice:
		if s.Transcriber == nil {
			t.tool = toolUnread
			return done(MediaNoModel, domain.Reply{Text: VoiceUnreadReply})
		}
		heard, err := s.Transcriber.Transcribe(ctx, file)
		if err != nil {
			s.Logger.Warn("conversation: voice note not transcribed", "sid", in.SID, "err", err)
			t.tool = toolUnread
			return done(MediaModelFailed, domain.Reply{Text: VoiceUnreadReply})
		}
		text := tidyTranscript(heard.Text)
		detail["language"], detail["transcript"] = heard.Language, text
		if text == "" {
			t.tool = toolUnread
			return done(MediaEmpty, domain.Reply{Text: VoiceEmptyReply})
		}
		spoken := in
		spoken.Body, spoken.MediaURLs, spoken.MediaTypes = text, nil, nil
		t.said = "🎤 " + text
		reply, heardTurn := s.answer(withSpoken(ctx), user, spoken, conv)
		heardTurn.said = t.said
		*t = heardTurn
		reply.Text = "🎤 _" + shown(text) + "_\n\n" + reply.Text
		return done(MediaRead, reply)
	case domain.MediaPhoto:
		caption := strings.TrimSpace(in.Body)
		t.said = strings.TrimSpace("📷 " + caption)
		reply, err := s.Orders.TakePhoto(ctx, user, file, caption)
		if err != nil {
			s.Logger.Warn("conversation: photo not read", "sid", in.SID, "err", err)
			t.tool = toolUnread
			return done(MediaModelFailed, domain.Reply{Text: PhotoUnreadReply})
		}
		at := received(in)
		reply = s.ordered(reply, at, t)
		if reply.About == "" && !reply.Question {
			return done(MediaEmpty, reply)
		}
		return done(MediaRead, reply)
	}
	t.tool = toolUnread
	return done(MediaUnsupported, domain.Reply{Text: MediaUnsupportedReply})
}

// tidyTranscript is a transcript as it is read and repeated: plain text
// (domain.PlainText, whoever transcribed it) on one line, at most
// MaxBodyChars long.
func tidyTranscript(s string) string {
	return strings.Join(strings.Fields(domain.PlainText(s, MaxBodyChars)), " ")
}

// shown is a transcript as the reply repeats it, inside WhatsApp's
// italics: underscores would end them early.
func shown(text string) string {
	text = strings.ReplaceAll(text, "_", " ")
	if r := []rune(text); len(r) > heardShown {
		text = string(r[:heardShown]) + "…"
	}
	return strings.TrimSpace(text)
}

type spokenKey struct{}

// withSpoken marks ctx as answering the transcript of a voice note.
func withSpoken(ctx context.Context) context.Context {
	return context.WithValue(ctx, spokenKey{}, true)
}

// spoken reports whether the message answered is a voice note's
// transcript.
func spoken(ctx context.Context) bool {
	v, _ := ctx.Value(spokenKey{}).(bool)
	return v
}

// maxSpokenConfirmation is the most words a spoken confirmation has
// ("haan ok bhej do").
const maxSpokenConfirmation = 4

// plainConfirmation reports whether a transcript routed as a confirm or
// a cancel is only that: a few words naming no order, customer, product
// or number. A voice note that says more ("ok, approve ORD-1042", "ok aur
// 5 GC add karo") confirms nothing: the model heard it, and the model
// holds no authority.
func plainConfirmation(d intent.Decision) bool {
	return len(d.Normalized.Entities) == 0 && len(d.Normalized.Tokens) <= maxSpokenConfirmation
}
