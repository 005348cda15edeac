package domain

import (
	"errors"
	"strings"
	"unicode"
)

// InboundMedia is one media file of an inbound message (a voice note, a
// photo), fetched from the provider. Data is the file itself; it is never
// logged or audited, only its Size, ContentType and SHA256.
type InboundMedia struct {
	Data        []byte
	ContentType string // lower-case media type without parameters: "audio/ogg"
	Size        int
	SHA256      string // hex
}

// MediaKind is what an attachment is, by its content type.
type MediaKind string

const (
	MediaVoice MediaKind = "voice"
	MediaPhoto MediaKind = "photo"
	MediaOther MediaKind = "other"
)

// voiceTypes and photoTypes are the media types Munshi reads: what
// WhatsApp sends for a voice note or an audio file, and for a photo.
var (
	voiceTypes = []string{"audio/ogg", "audio/mpeg", "audio/amr", "audio/mp4", "audio/aac"}
	photoTypes = []string{"image/jpeg", "image/png", "image/webp"}
)

// KindOf classifies a content type ("audio/ogg; codecs=opus" is voice).
func KindOf(contentType string) MediaKind {
	t := MediaType(contentType)
	for _, v := range voiceTypes {
		if t == v {
			return MediaVoice
		}
	}
	for _, p := range photoTypes {
		if t == p {
			return MediaPhoto
		}
	}
	return MediaOther
}

// MediaType is contentType without its parameters, lower-cased.
func MediaType(contentType string) string {
	t, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(t))
}

// Transcript is what was heard in a voice note.
type Transcript struct {
	Language string // as the model names it: "hi", "en", "hinglish"…
	Text     string
}

// Errors a media fetch wraps, so that the reply can say what was wrong
// without knowing the provider.
var (
	// ErrMediaUnsupported: a content type Munshi does not read.
	ErrMediaUnsupported = errors.New("media type not supported")
	// ErrMediaTooLarge: a file over the size cap.
	ErrMediaTooLarge = errors.New("media file too large")
)

// PlainText is text from outside (a model's transcript, words read off a
// photo) made fit to read as a message: valid UTF-8, a line break or tab
// made a space, other control and format characters (a bidi override, a
// zero-width space) dropped except the joiners Devanagari and emoji need,
// trimmed and clipped to n runes.
func PlainText(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
				return ' '
			}
			return r
		case r == '\u200c' || r == '\u200d':
			return r
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			return -1
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		s = string(r[:n])
	}
	return strings.TrimSpace(s)
}
