package reports

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// AgentPrompt is the static system instruction for the model behind the
// agent. It never changes between calls, so provider prompt caching works;
// the question and tool results travel in the transcript.
const AgentPrompt = `You are Munshi, the office clerk of a small Indian FMCG distributor, answering the owner's team on WhatsApp.
Answer only from the results of the tools you are given; call a tool for every figure. Never guess or compute new figures:
copy numbers and amounts exactly as the tools wrote them (₹ with Indian grouping such as ₹1,23,456). If a tool refuses or
finds nothing, say so briefly. Reply in the language of the question (English, Hindi or Hinglish), in a few short lines
fit for a phone, under 1,000 characters, without tables or markdown headings.`

// HelpText is the reply when a question cannot be mapped to the tools.
const HelpText = "Sorry, I couldn't tell which figures you want. You can ask about stock, dues, pending orders or sales, such as \"GC ka stock kitna hai\", \"who owes us money?\" or \"last week ki sales\"."

// Defaults of Agent, inside the webhook budget (12 s by default).
const (
	DefaultMaxSteps     = 4
	DefaultStepTimeout  = 4 * time.Second
	DefaultTotalTimeout = 9 * time.Second
	// DefaultMaxCallsPerStep bounds the tool calls one model step may ask for.
	DefaultMaxCallsPerStep = 4
)

// Agent answers what the deterministic path cannot map, with a bounded
// tool-calling loop over the same tools (so the same permissions and
// audit). The model holds no authority over figures: every number in its
// final answer must appear in the tool results it was given (or in the
// question), else the person gets the deterministic rendering of those
// results instead.
type Agent struct {
	Model AgentModel
	Tools *Tools

	MaxSteps        int           // model calls per question (DefaultMaxSteps)
	StepTimeout     time.Duration // per model call (DefaultStepTimeout)
	TotalTimeout    time.Duration // per question (DefaultTotalTimeout)
	MaxCallsPerStep int           // DefaultMaxCallsPerStep
	SnapshotRows    int           // rows per tool snapshot (SnapshotRows)
}

// Ask answers a question for a person. used reports whether the model's
// own text was the answer; when false the reply is the deterministic
// rendering of the tool results gathered (or a refusal, or HelpText):
// after a model error, a step or total timeout, MaxSteps without a final
// answer, or a final answer with a number no tool returned.
func (a *Agent) Ask(ctx context.Context, user domain.User, question string) (reply domain.Reply, used bool) {
	reply, used, keys := a.AskKeys(ctx, user, question)
	a.Tools.keep(user, keys.More)
	return reply, used
}

// AskKeys is Ask, also telling what the answer put in play: the keys of
// the tool results gathered, the first result's first (see KeysOf).
func (a *Agent) AskKeys(ctx context.Context, user domain.User, question string) (reply domain.Reply, used bool, keys Keys) {
	total := orDuration(a.TotalTimeout, DefaultTotalTimeout)
	ctx, cancel := context.WithTimeout(ctx, total)
	defer cancel()
	steps := a.MaxSteps
	if steps <= 0 {
		steps = DefaultMaxSteps
	}
	maxCalls := a.MaxCallsPerStep
	if maxCalls <= 0 {
		maxCalls = DefaultMaxCallsPerStep
	}
	tools := Specs()
	transcript := []AgentMessage{{Role: "user", Text: question}}
	seen := numberSet{}
	seen.addText(question)
	var got []Result
	var refusal string
	for step := 0; step < steps; step++ {
		sctx, scancel := context.WithTimeout(ctx, orDuration(a.StepTimeout, DefaultStepTimeout))
		msg, err := a.Model.Step(sctx, transcript, tools)
		scancel()
		if err != nil || ctx.Err() != nil {
			break
		}
		msg.Role = "model"
		transcript = append(transcript, msg)
		if len(msg.Calls) == 0 {
			text := strings.TrimSpace(msg.Text)
			if text == "" || !seen.covers(text) {
				break
			}
			if Chars(text) > MaxMessageChars {
				text = Split(text, MaxMessageChars-2)[0] + "\n…"
			}
			return domain.Reply{Text: text}, true, keysOfAll(got)
		}
		if step == steps-1 {
			break // no step left to read the results
		}
		results := make([]ToolResult, 0, len(msg.Calls))
		for i, call := range msg.Calls {
			var snap map[string]any
			if i >= maxCalls {
				snap = map[string]any{"tool": call.Name, "error": "invalid", "message": fmt.Sprintf("at most %d tool calls per step", maxCalls)}
			} else {
				res, err := a.Tools.Call(ctx, user, call.Name, call.Args)
				snap = res.Snapshot(err, a.SnapshotRows)
				switch {
				case err == nil:
					got = append(got, res)
				case res.Refused:
					refusal = res.Text
				}
			}
			seen.addValue(snap)
			results = append(results, ToolResult{CallID: call.ID, Name: call.Name, Snapshot: snap})
		}
		transcript = append(transcript, AgentMessage{Role: "tool", Results: results})
		if ctx.Err() != nil {
			break
		}
	}
	reply, more := a.fallback(got, refusal)
	keys = keysOfAll(got)
	keys.More = more
	return reply, false, keys
}

// keysOfAll merges the keys of the results, the first result's first.
func keysOfAll(results []Result) Keys {
	var all Keys
	add := func(list *[]string, id string) {
		if id != "" && len(*list) < maxKeys && !slices.Contains(*list, id) {
			*list = append(*list, id)
		}
	}
	for _, r := range results {
		k := KeysOf(r)
		for _, c := range k.Customers {
			add(&all.Customers, c)
		}
		for _, p := range k.Products {
			add(&all.Products, p)
		}
		for _, row := range k.Rows {
			add(&all.Rows, row)
		}
	}
	return all
}

// fallback renders the results gathered deterministically: as many as fit
// in one message, the first ones first; MORE continues the last shown.
func (a *Agent) fallback(got []Result, refusal string) (domain.Reply, *Place) {
	var parts []string
	var last Result
	used := 0
	seenText := map[string]bool{}
	for _, r := range got {
		if seenText[r.Text] {
			continue
		}
		n := Chars(r.Text)
		if used > 0 && used+2+n > MaxMessageChars {
			break
		}
		seenText[r.Text] = true
		parts = append(parts, r.Text)
		used += n + 2
		last = r
	}
	switch {
	case len(parts) > 0:
		return domain.Reply{Text: strings.Join(parts, "\n\n")}, a.Tools.place(last)
	case refusal != "":
		return domain.Reply{Text: refusal}, nil
	}
	return domain.Reply{Text: HelpText}, nil
}

func orDuration(v, d time.Duration) time.Duration {
	if v <= 0 {
		return d
	}
	return v
}

// numberSet holds the numbers a model may repeat, in canonical form.
type numberSet map[string]bool

var (
	numberRe   = regexp.MustCompile(`\d[\d,]*(?:\.\d+)?`)
	listMarker = regexp.MustCompile(`(?m)^[ \t]*\d{1,2}[.)][ \t]`)
)

// canonicalNumber writes a number the same way however it was written:
// "₹1,23,456.50" → "123456.5", "2400.00" → "2400", "007" → "7".
func canonicalNumber(s string) string {
	s = strings.ReplaceAll(s, ",", "")
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	s = strings.TrimLeft(s, "0")
	if s == "" || s[0] == '.' {
		s = "0" + s
	}
	return s
}

func numbersIn(text string) []string {
	text = listMarker.ReplaceAllString(text, "")
	found := numberRe.FindAllString(text, -1)
	out := make([]string, 0, len(found))
	for _, f := range found {
		out = append(out, canonicalNumber(strings.TrimRight(f, ",")))
	}
	return out
}

func (s numberSet) addText(text string) {
	for _, n := range numbersIn(text) {
		s[n] = true
	}
}

func (s numberSet) addValue(v any) {
	switch x := v.(type) {
	case string:
		s.addText(x)
	case int:
		s[canonicalNumber(strconv.Itoa(max(x, -x)))] = true
	case int64:
		s[canonicalNumber(strconv.FormatInt(max(x, -x), 10))] = true
	case float64:
		s[canonicalNumber(strconv.FormatFloat(max(x, -x), 'f', -1, 64))] = true
	case map[string]any:
		for _, e := range x {
			s.addValue(e)
		}
	case []any:
		for _, e := range x {
			s.addValue(e)
		}
	case [][]any:
		for _, e := range x {
			s.addValue(e)
		}
	case []string:
		for _, e := range x {
			s.addText(e)
		}
	}
}

// Grounded reports whether every number in text appears among facts:
// strings, numbers, and maps and lists of them (tool snapshots, decoded
// JSON), each written in any of the forms canonicalNumber folds. It is
// the check every model text that states figures must pass.
func Grounded(text string, facts ...any) bool {
	s := numberSet{}
	for _, f := range facts {
		s.addValue(f)
	}
	return s.covers(text)
}

// covers reports whether every number in text is one the tools returned
// or the question held. List numbering at the start of a line is layout,
// not a figure.
func (s numberSet) covers(text string) bool {
	for _, n := range numbersIn(text) {
		if !s[n] {
			return false
		}
	}
	return true
}
