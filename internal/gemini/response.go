package gemini

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"google.golang.org/genai"
)

// maxAnswerBytes bounds a JSON answer: the schemas allow nothing near it.
const maxAnswerBytes = 64 << 10

// answer returns the first candidate's text and function calls, refusing
// a response that was blocked or cut short: half an answer is no answer.
func answer(resp *genai.GenerateContentResponse) (string, []*genai.FunctionCall, error) {
	if resp == nil || len(resp.Candidates) == 0 || resp.Candidates[0] == nil {
		if resp != nil && resp.PromptFeedback != nil && resp.PromptFeedback.BlockReason != "" {
			return "", nil, fmt.Errorf("prompt blocked (%s)", resp.PromptFeedback.BlockReason)
		}
		return "", nil, errors.New("no candidate")
	}
	cand := resp.Candidates[0]
	if cand.FinishReason != "" && cand.FinishReason != genai.FinishReasonStop {
		return "", nil, fmt.Errorf("finished with %s", cand.FinishReason)
	}
	if cand.Content == nil {
		return "", nil, errors.New("no content")
	}
	var text strings.Builder
	var calls []*genai.FunctionCall
	for _, part := range cand.Content.Parts {
		switch {
		case part == nil || part.Thought:
		case part.FunctionCall != nil:
			calls = append(calls, part.FunctionCall)
		default:
			text.WriteString(part.Text)
		}
	}
	return text.String(), calls, nil
}

// answerJSON reads a structured answer into v: text, no function call,
// exactly the schema's JSON. It returns the text for the caller's checks.
func answerJSON(resp *genai.GenerateContentResponse, v any) (string, error) {
	text, calls, err := answer(resp)
	if err != nil {
		return text, err
	}
	if len(calls) > 0 {
		return text, errors.New("answered with a function call")
	}
	return text, decodeJSON(text, v)
}

// decodeJSON reads exactly one JSON value into v, refusing fields v does
// not have and anything after the value.
func decodeJSON(text string, v any) error {
	if len(text) > maxAnswerBytes {
		return fmt.Errorf("answer of %d bytes is too long", len(text))
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("answer %s is not the schema's JSON: %w", excerpt(text), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("answer %s has more after its JSON", excerpt(text))
	}
	return nil
}

// excerpt quotes the start of model text for an error, so that a log line
// stays short whatever the model wrote.
func excerpt(s string) string {
	const n = 60
	if utf8.RuneCountInString(s) <= n {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q…", string([]rune(s)[:n]))
}
