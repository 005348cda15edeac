package gemini

import (
	"context"
	"fmt"

	"google.golang.org/genai"
)

// noChoice is the answer when the reply means none of the options.
const noChoice = "none"

// maxChoices bounds the options one call offers.
const maxChoices = 12

const chooseInstruction = `You read one short WhatsApp reply for Munshi, a WhatsApp assistant for a small Indian distributor of household and cleaning goods. People write in English, Hindi or Hinglish, often with typos and abbreviations.

` + dataRules + ` Munshi asked the person a question and offered some options. Your only job is to say which one option the reply means.

Answer with the JSON of the response schema: "choice" is exactly one of the options as the schema lists them, or "none" when the reply does not clearly mean exactly one of them (it asks something else, names something that is not offered, or could mean more than one).`

// Choose reads which of options a person's answer to question means: its
// index, or -1 for none. The schema allows only the options and "none", so
// the model picks, it never names; what it picks is checked again here.
func (c *Client) Choose(ctx context.Context, question, reply string, options []string) (int, error) {
	if len(options) == 0 || len(options) > maxChoices {
		return -1, fmt.Errorf("gemini: choose: %d options", len(options))
	}
	part, err := dataPart("Question and reply (data)", struct {
		Question string   `json:"question"`
		Options  []string `json:"options"`
		Reply    string   `json:"reply"`
	}{clip(question, maxMessageRunes), options, clip(reply, maxMessageRunes)})
	if err != nil {
		return -1, fmt.Errorf("gemini: choose: %w", err)
	}
	enum := append(append([]string(nil), options...), noChoice)
	schema := &genai.Schema{
		Type:       genai.TypeObject,
		Properties: map[string]*genai.Schema{"choice": {Type: genai.TypeString, Enum: enum}},
		Required:   []string{"choice"},
	}
	picked := -1
	err = c.generate(ctx, PurposeChoose, []*genai.Content{userTurn(part)}, jsonConfig(chooseInstruction, schema),
		func(resp *genai.GenerateContentResponse) error {
			var out struct {
				Choice *string `json:"choice"`
			}
			text, err := answerJSON(resp, &out)
			if err != nil {
				return err
			}
			if out.Choice == nil {
				return fmt.Errorf("answer %s has no choice", excerpt(text))
			}
			for i, o := range options {
				if *out.Choice == o {
					picked = i
					return nil
				}
			}
			if *out.Choice != noChoice {
				return fmt.Errorf("answer %s chose what was not offered", excerpt(text))
			}
			return nil
		})
	if err != nil {
		return -1, err
	}
	return picked, nil
}
