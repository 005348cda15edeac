package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"google.golang.org/genai"
)

// Limits on what SuggestField sends: a column's name and a few of its
// values, never a table's rows.
const (
	maxSuggestFields  = 64
	maxSuggestSamples = 5
	maxSampleRunes    = 64
	maxColumnRunes    = 128
)

// SuggestField asks, in one request, which of fields an ERP column holds,
// from its name ("Table.Column") and a few of its values, which the caller
// has already masked. The schema allows only the fields and null, and what
// the model picks is checked again here: a name not in fields is
// ErrMalformed. ok is false when the model named none. The answer is a
// suggestion for a person to review, never a decision.
func (c *Client) SuggestField(ctx context.Context, column string, samples []string, fields []string) (field string, ok bool, err error) {
	distinct := slices.Compact(slices.Sorted(slices.Values(fields)))
	if len(fields) == 0 || len(fields) > maxSuggestFields || len(distinct) != len(fields) || slices.Contains(fields, "") {
		return "", false, fmt.Errorf("gemini: suggest: %d fields; between 1 and %d, each named once", len(fields), maxSuggestFields)
	}
	clipped := []string{}
	for _, s := range samples[:min(len(samples), maxSuggestSamples)] {
		clipped = append(clipped, clip(s, maxSampleRunes))
	}
	known, err := dataPart("Munshi's fields (data)", struct {
		Fields []string `json:"fields"`
	}{fields})
	if err != nil {
		return "", false, fmt.Errorf("gemini: suggest: %w", err)
	}
	col, err := dataPart("ERP column (data)", struct {
		Column  string   `json:"column"`
		Samples []string `json:"samples"`
	}{clip(column, maxColumnRunes), clipped})
	if err != nil {
		return "", false, fmt.Errorf("gemini: suggest: %w", err)
	}
	schema := &genai.Schema{
		Type: genai.TypeObject,
		Properties: map[string]*genai.Schema{
			"field": {Type: genai.TypeString, Enum: slices.Clone(fields), Nullable: genai.Ptr(true)},
		},
		Required: []string{"field"},
	}
	err = c.generate(ctx, PurposeSuggest, []*genai.Content{userTurn(known, col)}, jsonConfig(suggestInstruction, schema),
		func(resp *genai.GenerateContentResponse) error {
			var out struct {
				Field json.RawMessage `json:"field"`
			}
			text, err := answerJSON(resp, &out)
			if err != nil {
				return err
			}
			if out.Field == nil {
				return fmt.Errorf("answer %s has no field", excerpt(text))
			}
			var named *string
			if err := json.Unmarshal(out.Field, &named); err != nil {
				return fmt.Errorf("answer %s: field is neither a name nor null", excerpt(text))
			}
			if named != nil && !slices.Contains(fields, *named) {
				return fmt.Errorf("answer %s named a field not offered", excerpt(text))
			}
			if named != nil {
				field, ok = *named, true
			}
			return nil
		})
	if err != nil {
		return "", false, err
	}
	return field, ok, nil
}
