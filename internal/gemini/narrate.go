package gemini

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/genai"

	"github.com/munshi/munshi/reports/digest"
)

// PurposeDigest is the digest's opening.
const PurposeDigest Purpose = "digest"

var _ digest.Narrator = (*Client)(nil)

// narrateInstruction is the digest's own static prompt and the rules on
// data, the same bytes on every call.
const narrateInstruction = digest.NarrativePrompt + "\n\n" + dataRules

// Narrate writes the digest's opening from the facts (digest.FactsJSON),
// in one request. The digest package checks the text before using it.
func (c *Client) Narrate(ctx context.Context, facts []byte) (string, error) {
	if !json.Valid(facts) {
		return "", errors.New("gemini: digest: the facts are not JSON")
	}
	part, err := dataPart("Facts of the day (data)", json.RawMessage(facts))
	if err != nil {
		return "", fmt.Errorf("gemini: digest: %w", err)
	}
	cfg := &genai.GenerateContentConfig{
		SystemInstruction:     instruction(narrateInstruction),
		Temperature:           genai.Ptr[float32](0),
		AutomaticContinuation: genai.Ptr(false),
	}
	var text string
	err = c.generate(ctx, PurposeDigest, []*genai.Content{userTurn(part)}, cfg, func(resp *genai.GenerateContentResponse) error {
		t, calls, err := answer(resp)
		if err != nil {
			return err
		}
		if len(calls) > 0 || strings.TrimSpace(t) == "" {
			return errors.New("no text")
		}
		text = strings.TrimSpace(t)
		return nil
	})
	return text, err
}
