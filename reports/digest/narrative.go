package digest

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/munshi/munshi/reports"
)

// Narrator phrases the day's facts (FactsJSON) in at most three sentences.
// internal/gemini's Client is one. It holds no authority: its text is used
// only when every number in it is in the facts.
type Narrator interface {
	Narrate(ctx context.Context, facts []byte) (string, error)
}

// NarrativePrompt is the static system instruction of a Narrator: the
// same bytes on every call, the facts going in the request.
const NarrativePrompt = `You write the opening of Munshi's 7 am digest: a WhatsApp message to the owner of a small Indian distributor about how yesterday went.

You receive the day's facts as JSON, computed by Munshi from the books. Write at most three short sentences in plain English for a busy owner: how the day's sales compare with a usual day of that weekday, and how the week and the month so far compare. You may mention the most important action if it matters.

Rules:
- Use only the numbers in the facts, written exactly as they appear there (₹ amounts, percentages, counts, dates). Never compute, round, add or estimate a number, and never write a number that is not in the facts.
- Do not invent causes, trends or forecasts the facts do not state.
- No greeting, no sign-off, no lists, no markdown, no emoji.
- Answer with the sentences only.`

// MaxNarrativeChars bounds the model's opening.
const MaxNarrativeChars = 420

// MaxSentences is how many sentences the model may write.
const MaxSentences = 3

// DefaultNarrativeTimeout is how long Compose waits for the model; after
// it, the deterministic opening goes out.
const DefaultNarrativeTimeout = 8 * time.Second

// factsView is what the model sees: the figures as people read them.
type factsView struct {
	Date     string         `json:"date"`
	Weekday  string         `json:"weekday"`
	Sales    map[string]any `json:"sales"`
	Baseline map[string]any `json:"baseline"`
	Week     map[string]any `json:"week_so_far"`
	Month    map[string]any `json:"month_so_far"`
	Actions  []string       `json:"actions"`
	Stock    string         `json:"stock"`
	Waiting  string         `json:"waiting"`
	Summary  string         `json:"deterministic_summary"`
}

func comparisonView(c Comparison, prior string) map[string]any {
	m := map[string]any{"sales": money(c.Amount), prior: money(c.Prior)}
	if c.Change != nil {
		m["change_percent"] = *c.Change
	}
	return m
}

// FactsJSON is the facts as the model receives them: amounts in rupees as
// they are written in the brief, percentages, counts and the texts of the
// deterministic brief.
func FactsJSON(f Facts) []byte {
	v := factsView{
		Date:    f.Date.Format("Monday 2 January 2006"),
		Weekday: f.Date.Weekday().String(),
		Sales: map[string]any{"before_gst": money(f.Sales.Amount), "gst": money(f.Sales.GST),
			"orders": f.Sales.Orders, "customers": f.Sales.Customers},
		Baseline: map[string]any{"weeks": BaselineWeeks, "usual": money(f.Baseline.Mean),
			"lowest": money(f.Baseline.Lowest), "highest": money(f.Baseline.Highest)},
		Week:    comparisonView(f.Week, "same_days_last_week"),
		Month:   comparisonView(f.Month, "same_days_last_month"),
		Stock:   StockText(f, 3),
		Waiting: WaitingText(f),
		Summary: Summary(f),
	}
	if f.Baseline.Change != nil {
		v.Baseline["change_percent"] = *f.Baseline.Change
	}
	for _, a := range Actions(f)[:min(MaxActions, len(Actions(f)))] {
		v.Actions = append(v.Actions, a.Text)
	}
	b, _ := json.Marshal(v) // strings, numbers and maps of them always encode
	return b
}

var sentenceEnd = regexp.MustCompile(`[.!?](\s|$)`)

// CheckNarrative returns the model's text cleaned, or false when it may
// not be used: empty, too long, more than MaxSentences sentences, or with
// a number that is not in the facts.
func CheckNarrative(text string, facts []byte) (string, bool) {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" || utf8.RuneCountInString(text) > MaxNarrativeChars || strings.ContainsAny(text, "*_`#") {
		return "", false
	}
	if len(sentenceEnd.FindAllString(text, -1)) > MaxSentences {
		return "", false
	}
	var v any
	if err := json.Unmarshal(facts, &v); err != nil || !reports.Grounded(text, v) {
		return "", false
	}
	return text, true
}

// narrate asks the narrator for the opening within timeout; any failure,
// a late answer or a text that fails the check gives "" (the caller then
// uses Summary) and why.
func narrate(ctx context.Context, n Narrator, f Facts, timeout time.Duration) (string, string) {
	if n == nil {
		return "", "no model"
	}
	if timeout <= 0 {
		timeout = DefaultNarrativeTimeout
	}
	facts := FactsJSON(f)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type answer struct {
		text string
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		text, err := n.Narrate(ctx, facts)
		done <- answer{text, err}
	}()
	// A narrator that ignores its context must not hold the digest back.
	select {
	case a := <-done:
		if a.err != nil {
			return "", "model failed: " + a.err.Error()
		}
		text, ok := CheckNarrative(a.text, facts)
		if !ok {
			return "", "model text rejected: a number not in the facts, or not at most three plain sentences"
		}
		return text, ""
	case <-ctx.Done():
		return "", "model too slow"
	}
}
