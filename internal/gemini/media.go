package gemini

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/genai"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/orders"
)

// maxInlineBytes bounds a file sent inline: Gemini takes at most 20 MB
// of request, and base64 makes the file a third larger.
const maxInlineBytes = 14 << 20

// maxLanguageRunes bounds the language a transcript names ("hinglish").
const maxLanguageRunes = 16

var _ orders.SlipReader = (*Client)(nil)

// ErrNoMedia is the error for a voice note or photo with no bytes.
var ErrNoMedia = errors.New("gemini: no media")

// Transcribe hears a voice note in one request: the words as spoken, in
// the language and script spoken, and the language's name. The transcript
// is unchecked text, to be read like a typed message and trusted no
// more: instructions spoken in it are data. Audio that is not a voice note
// (domain.KindOf), empty or too large is refused without a request.
func (c *Client) Transcribe(ctx context.Context, audio domain.InboundMedia) (domain.Transcript, error) {
	part, err := inlinePart(audio, domain.MediaVoice)
	if err != nil {
		return domain.Transcript{}, fmt.Errorf("gemini: %s: %w", PurposeTranscribe, err)
	}
	var tr domain.Transcript
	err = c.generate(ctx, PurposeTranscribe, []*genai.Content{userTurn(part)}, jsonConfig(transcribeInstruction, transcriptSchema()),
		func(resp *genai.GenerateContentResponse) error { return decodeTranscript(resp, &tr) })
	if err != nil {
		return domain.Transcript{}, err
	}
	return tr, nil
}

func transcriptSchema() *genai.Schema {
	return &genai.Schema{
		Type: genai.TypeObject,
		Properties: map[string]*genai.Schema{
			"language":   {Type: genai.TypeString},
			"transcript": {Type: genai.TypeString},
		},
		Required:         []string{"language", "transcript"},
		PropertyOrdering: []string{"language", "transcript"},
	}
}

func decodeTranscript(resp *genai.GenerateContentResponse, tr *domain.Transcript) error {
	var out struct {
		Language   *string `json:"language"`
		Transcript *string `json:"transcript"`
	}
	text, err := answerJSON(resp, &out)
	if err != nil {
		return err
	}
	if out.Language == nil || out.Transcript == nil {
		return fmt.Errorf("answer %s lacks the language or the transcript", excerpt(text))
	}
	tr.Language = strings.ToLower(domain.PlainText(*out.Language, maxLanguageRunes))
	tr.Text = domain.PlainText(*out.Transcript, maxMessageRunes)
	return nil
}

// ReadSlip reads a photo of an order slip in one request, into the same
// extraction as Extract: the customer, payment and lines as written, which
// orders.Parser.Resolve then maps onto the catalog and the customers or
// asks about. A line the model could not read comes back as product
// "unreadable" and qty 0, for Resolve to ask; a photo that is no order
// slip has no items. Extraction.Message is "": there is no text to hold
// the reading to, the photo is the source. caption is what was typed with
// the photo ("" for none); it and the catalog travel as data. A file that
// is not a photo (domain.KindOf), empty or too large is refused without a
// request.
func (c *Client) ReadSlip(ctx context.Context, image domain.InboundMedia, caption string, hints orders.Hints) (orders.Extraction, error) {
	turn, err := slipTurn(image, caption, hints)
	if err != nil {
		return orders.Extraction{}, fmt.Errorf("gemini: %s: %w", PurposeReadSlip, err)
	}
	var ex orders.Extraction
	err = c.generate(ctx, PurposeReadSlip, []*genai.Content{turn}, jsonConfig(readSlipInstruction, extractSchema()),
		func(resp *genai.GenerateContentResponse) error { return decodeExtraction(resp, &ex) })
	if err != nil {
		return orders.Extraction{}, err
	}
	return ex, nil
}

// slipTurn is the catalog (first: it changes rarely, so the provider can
// cache it after the instruction), the caption when there is one, and the
// photo.
func slipTurn(image domain.InboundMedia, caption string, hints orders.Hints) (*genai.Content, error) {
	photo, err := inlinePart(image, domain.MediaPhoto)
	if err != nil {
		return nil, err
	}
	cat, err := dataPart("Catalog and customers (data)", catalogOf(hints))
	if err != nil {
		return nil, err
	}
	var typed *genai.Part
	if caption = strings.TrimSpace(caption); caption != "" {
		if typed, err = dataPart("Caption typed with the photo (data)", struct {
			Caption string `json:"caption"`
		}{clip(caption, maxMessageRunes)}); err != nil {
			return nil, err
		}
	}
	return userTurn(cat, typed, photo), nil
}

// inlinePart is m as an inline part, when it is a file of kind that
// Gemini can take inline.
func inlinePart(m domain.InboundMedia, kind domain.MediaKind) (*genai.Part, error) {
	typ := domain.MediaType(m.ContentType)
	switch {
	case len(m.Data) == 0:
		return nil, ErrNoMedia
	case domain.KindOf(typ) != kind:
		return nil, fmt.Errorf("%w: %q is not a %s", domain.ErrMediaUnsupported, typ, kind)
	case len(m.Data) > maxInlineBytes:
		return nil, fmt.Errorf("%w: %d bytes is more than %d", domain.ErrMediaTooLarge, len(m.Data), maxInlineBytes)
	}
	return &genai.Part{InlineData: &genai.Blob{MIMEType: typ, Data: m.Data}}, nil
}
