package dialogs

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Result is how one conversation went.
type Result struct {
	ID   string `json:"id"`
	Line int    `json:"line"`
	As   string `json:"as"`
	Kind string `json:"kind"`
	// Succeeded: the state after the last turn is the expected one.
	Succeeded bool `json:"succeeded"`
	// TurnsToSuccess is the first turn after which the expected state
	// held, for a conversation that succeeded; 0 otherwise.
	TurnsToSuccess int `json:"turns_to_success,omitempty"`
	// WrongEntry: the conversation left an order, payment or other entry
	// that is not the expected one.
	WrongEntry bool       `json:"wrong_entry"`
	Expected   string     `json:"expected"`
	Found      string     `json:"found"`
	Turns      []Exchange `json:"turns,omitempty"`
	// Error is why the conversation could not be run to its end (the
	// books or the pipeline failed); such a conversation failed.
	Error string `json:"error,omitempty"`
}

// Exchange is one message and Munshi's reply.
type Exchange struct {
	Said  string   `json:"said"`
	Reply string   `json:"reply"`
	Media []string `json:"media,omitempty"`
}

// Report adds up the results of a dialog file.
type Report struct {
	Results []Result
	// Messages is how many turns were sent.
	Messages int
	// LLMCalls is how many calls reached the LLM, when LLMCounted (with no
	// LLM configured it is counted, and 0).
	LLMCalls   int64
	LLMCounted bool
}

// Add records one conversation's result and the turns it sent.
func (r *Report) Add(res Result) {
	r.Results = append(r.Results, res)
	r.Messages += len(res.Turns)
}

// Summary is a report's figures.
type Summary struct {
	Total     int     `json:"total"`
	Succeeded int     `json:"succeeded"`
	Percent   float64 `json:"success_pct"`
	// MeanTurns is the mean turns to success over the conversations that
	// succeeded; 0 when none did.
	MeanTurns float64 `json:"mean_turns_to_success"`
	// WrongEntries counts the conversations that left an entry that is
	// not the expected one.
	WrongEntries int   `json:"wrong_entries"`
	Messages     int   `json:"messages"`
	LLMCalls     int64 `json:"llm_calls"`
	// LLMPer100 is LLM calls per 100 messages; nil when not counted.
	LLMPer100 *float64 `json:"llm_calls_per_100_messages"`
	// ByKind counts each kind of expectation: run and succeeded.
	ByKind map[string]KindCount `json:"by_kind"`
}

// KindCount is how conversations of one kind went.
type KindCount struct {
	Total     int `json:"total"`
	Succeeded int `json:"succeeded"`
}

// Summary adds the results up.
func (r Report) Summary() Summary {
	s := Summary{Total: len(r.Results), Messages: r.Messages, LLMCalls: r.LLMCalls, ByKind: map[string]KindCount{}}
	turns := 0
	for _, res := range r.Results {
		k := s.ByKind[res.Kind]
		k.Total++
		if res.Succeeded {
			s.Succeeded++
			k.Succeeded++
			turns += res.TurnsToSuccess
		}
		if res.WrongEntry {
			s.WrongEntries++
		}
		s.ByKind[res.Kind] = k
	}
	if s.Total > 0 {
		s.Percent = 100 * float64(s.Succeeded) / float64(s.Total)
	}
	if s.Succeeded > 0 {
		s.MeanTurns = float64(turns) / float64(s.Succeeded)
	}
	if r.LLMCounted {
		per := 0.0
		if r.Messages > 0 {
			per = 100 * float64(r.LLMCalls) / float64(r.Messages)
		}
		s.LLMPer100 = &per
	}
	return s
}

// Failures are the results that did not succeed, in file order.
func (r Report) Failures() []Result {
	var out []Result
	for _, res := range r.Results {
		if !res.Succeeded {
			out = append(out, res)
		}
	}
	return out
}

// replyWidth is how much of each reply a failure shows.
const replyWidth = 160

// Write prints the report for people: each failure with its turns
// (Munshi's replies shortened), what was expected and what was found, then
// the figures.
func (r Report) Write(w io.Writer) error {
	s := r.Summary()
	var b strings.Builder
	fails := r.Failures()
	if len(fails) > 0 {
		fmt.Fprintf(&b, "Failed conversations (%d):\n\n", len(fails))
	}
	for _, f := range fails {
		mark := "FAIL"
		if f.WrongEntry {
			mark = "FAIL, WRONG ENTRY"
		}
		fmt.Fprintf(&b, "%s  %s (line %d, as %s)\n", mark, f.ID, f.Line, f.As)
		for i, t := range f.Turns {
			fmt.Fprintf(&b, "  %2d > %s\n", i+1, Shorten(t.Said, replyWidth))
			reply := Shorten(t.Reply, replyWidth)
			if reply == "" {
				reply = "(no reply)"
			}
			fmt.Fprintf(&b, "     < %s\n", reply)
			for _, m := range t.Media {
				fmt.Fprintf(&b, "       [%s] %s\n", orUnknown(FileKind(m)), m)
			}
		}
		fmt.Fprintf(&b, "  expected: %s\n", f.Expected)
		fmt.Fprintf(&b, "  found:    %s\n", f.Found)
		if f.Error != "" {
			fmt.Fprintf(&b, "  error:    %s\n", f.Error)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "By kind:\n")
	for _, k := range Kinds {
		if c, ok := s.ByKind[k]; ok {
			fmt.Fprintf(&b, "  %-9s %d/%d\n", k, c.Succeeded, c.Total)
		}
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "success:          %d/%d (%.1f%%)\n", s.Succeeded, s.Total, s.Percent)
	if s.Succeeded > 0 {
		fmt.Fprintf(&b, "turns to success: %.2f mean\n", s.MeanTurns)
	} else {
		fmt.Fprintf(&b, "turns to success: - (none succeeded)\n")
	}
	fmt.Fprintf(&b, "wrong entries:    %d\n", s.WrongEntries)
	if s.LLMPer100 != nil {
		fmt.Fprintf(&b, "LLM calls:        %.1f per 100 messages (%d calls, %d messages)\n", *s.LLMPer100, s.LLMCalls, s.Messages)
	} else {
		fmt.Fprintf(&b, "LLM calls:        not counted (%d messages)\n", s.Messages)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orUnknown(kind string) string {
	if kind == "" {
		return "file"
	}
	return kind
}

// jsonReport is the shape of --json: the figures, every result in brief,
// and each failure in full.
type jsonReport struct {
	Summary
	Results  []jsonResult `json:"results"`
	Failures []Result     `json:"failures"`
}

type jsonResult struct {
	ID             string `json:"id"`
	Kind           string `json:"kind"`
	Succeeded      bool   `json:"succeeded"`
	TurnsToSuccess int    `json:"turns_to_success,omitempty"`
	WrongEntry     bool   `json:"wrong_entry,omitempty"`
}

// WriteJSON prints the report as one JSON object.
func (r Report) WriteJSON(w io.Writer) error {
	out := jsonReport{Summary: r.Summary(), Results: []jsonResult{}, Failures: []Result{}}
	for _, res := range r.Results {
		out.Results = append(out.Results, jsonResult{ID: res.ID, Kind: res.Kind, Succeeded: res.Succeeded,
			TurnsToSuccess: res.TurnsToSuccess, WrongEntry: res.WrongEntry})
	}
	for _, f := range r.Failures() {
		turns := make([]Exchange, len(f.Turns))
		for i, t := range f.Turns {
			t.Reply = Shorten(t.Reply, replyWidth)
			turns[i] = t
		}
		f.Turns = turns
		out.Failures = append(out.Failures, f)
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("dialogs: report: %w", err)
	}
	return nil
}
