package gemini

import (
	"context"
	"fmt"
	"math"
	"slices"

	"google.golang.org/genai"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/llmbudget"
)

// intentLabels are the only answers Classify accepts.
var intentLabels = func() []string {
	labels := make([]string, len(domain.Intents))
	for i, in := range domain.Intents {
		labels[i] = string(in)
	}
	return labels
}()

func classifySchema() *genai.Schema {
	return &genai.Schema{
		Type: genai.TypeObject,
		Properties: map[string]*genai.Schema{
			"intent":     {Type: genai.TypeString, Enum: intentLabels},
			"confidence": {Type: genai.TypeNumber, Minimum: genai.Ptr(0.0), Maximum: genai.Ptr(1.0)},
		},
		Required:         []string{"intent", "confidence"},
		PropertyOrdering: []string{"intent", "confidence"},
	}
}

// recognised is an entity the router found, shown to the model as a hint.
type recognised struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Classify asks for the intent of a message the local tiers were unsure
// of, in one request. The answer is one of domain.Intents with a
// confidence in [0, 1]; anything else is ErrMalformed. The router decides
// what a low confidence, a confirm or a cancel is worth. A summary set
// with llmbudget.WithSummary on ctx is sent along.
func (c *Client) Classify(ctx context.Context, text string, n intent.Normalized) (domain.Intent, float64, error) {
	ents := []recognised{}
	for _, e := range n.Entities {
		ents = append(ents, recognised{Kind: string(e.Kind), Text: e.Text})
	}
	sum, err := summaryPart(llmbudget.Summary(ctx))
	if err != nil {
		return "", 0, fmt.Errorf("gemini: classify: %w", err)
	}
	msg, err := dataPart("Message to classify (data)", struct {
		Message    string       `json:"message"`
		Recognised []recognised `json:"recognised"`
	}{clip(text, maxMessageRunes), ents})
	if err != nil {
		return "", 0, fmt.Errorf("gemini: classify: %w", err)
	}

	var got domain.Intent
	var conf float64
	err = c.generate(ctx, PurposeClassify, []*genai.Content{userTurn(sum, msg)}, jsonConfig(classifyInstruction, classifySchema()),
		func(resp *genai.GenerateContentResponse) error {
			var err error
			got, conf, err = decodeIntent(resp)
			return err
		})
	if err != nil {
		return "", 0, err
	}
	return got, conf, nil
}

func decodeIntent(resp *genai.GenerateContentResponse) (domain.Intent, float64, error) {
	var out struct {
		Intent     *string  `json:"intent"`
		Confidence *float64 `json:"confidence"`
	}
	text, err := answerJSON(resp, &out)
	if err != nil {
		return "", 0, err
	}
	switch {
	case out.Intent == nil || out.Confidence == nil:
		return "", 0, fmt.Errorf("answer %s lacks the intent or the confidence", excerpt(text))
	case !slices.Contains(intentLabels, *out.Intent):
		return "", 0, fmt.Errorf("intent %s is not one of Munshi's", excerpt(*out.Intent))
	case math.IsNaN(*out.Confidence) || *out.Confidence < 0 || *out.Confidence > 1:
		return "", 0, fmt.Errorf("confidence %v is outside [0, 1]", *out.Confidence)
	}
	return domain.Intent(*out.Intent), *out.Confidence, nil
}
