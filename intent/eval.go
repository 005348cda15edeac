package intent

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Example is one labelled message of an evaluation or training file: a
// JSON line such as {"text":"…","intent":"order","customer":"C01",…}.
type Example struct {
	Text   string
	Intent domain.Intent
	Line   int // 1-based line in the file
	// Fields holds the other fields of the line (customer, payment, items…)
	// untouched, for the order parser's evaluation.
	Fields map[string]json.RawMessage
}

// ReadExamples reads JSONL examples, skipping blank lines. A line that is
// not a JSON object, has no text or names an intent outside domain.Intents
// is an error naming its line.
func ReadExamples(r io.Reader) ([]Example, error) {
	var out []Example
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(b, &fields); err != nil {
			return nil, fmt.Errorf("intent: line %d: %w", line, err)
		}
		ex := Example{Line: line, Fields: fields}
		var label string
		if err := json.Unmarshal(fields["text"], &ex.Text); err != nil || strings.TrimSpace(ex.Text) == "" {
			return nil, fmt.Errorf("intent: line %d: want a non-empty string \"text\"", line)
		}
		if err := json.Unmarshal(fields["intent"], &label); err != nil {
			return nil, fmt.Errorf("intent: line %d: want a string \"intent\"", line)
		}
		ex.Intent = domain.Intent(label)
		if classOf(ex.Intent) < 0 {
			return nil, fmt.Errorf("intent: line %d: unknown intent %q", line, label)
		}
		delete(fields, "text")
		delete(fields, "intent")
		out = append(out, ex)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("intent: reading examples: %w", err)
	}
	return out, nil
}

// IntentScore is the precision, recall and F1 of one intent.
type IntentScore struct {
	Intent    domain.Intent
	Precision float64
	Recall    float64
	F1        float64
	Support   int // examples whose gold intent this is
	Predicted int // examples routed to this intent
}

// Misroute is a message routed to the wrong intent.
type Misroute struct {
	Text       string
	Gold       domain.Intent
	Predicted  domain.Intent
	Tier       Tier
	Confidence float64
	Reason     string
}

// Report scores a router on labelled messages, the way `rasa test nlu`
// does, plus what matters for Munshi: how much the local tiers resolve and
// how often a message wrongly becomes an order, a confirmation or a
// cancellation.
type Report struct {
	Total    int
	Correct  int
	Accuracy float64
	Intents  []IntentScore // in domain.Intents order
	Macro    IntentScore   // unweighted mean over intents with support or predictions
	Weighted IntentScore   // mean weighted by support
	// Confusion[g][p] counts examples of gold intent g routed to p, indexed
	// like domain.Intents.
	Confusion [][]int
	ByTier    map[Tier]int

	// InScope counts examples whose gold intent is not unknown. Coverage is
	// the share of them the rules and the model decided; LocalPrecision
	// the share of those decisions that were right. AllLocalPrecision is
	// the same over every example the rules and model decided, unknown ones
	// included.
	InScope           int
	LocalResolved     int
	Coverage          float64
	LocalPrecision    float64
	AllLocalPrecision float64

	// False positives of the intents that change state, and unknown
	// messages routed to an order.
	FalseOrder, FalseConfirm, FalseCancel int
	UnknownAsOrder                        int
	// False positives of the intents that change the books after an
	// order: a message misread as a delivery, a payment or goods received.
	FalseDelivery, FalsePayment, FalseStockReceived int

	// HandOver counts the messages that would be handed over to the
	// office at once (routed to handoff: asked for, or a dispute), and
	// UnknownHandedOver those of them labelled unknown. Unread counts the
	// messages routed to unknown: a second one in a row hands over, and
	// while a handoff is open each is relayed to the office.
	HandOver, UnknownHandedOver, Unread int

	LatencyMean, LatencyP99 time.Duration
	Misrouted               []Misroute

	// Reliability bins every message the model read (rules did not) by
	// the probability of the model's first choice, in tenths: how many,
	// their mean probability, and how often that choice was right, taken
	// or not. A calibrated model is right as often as it says.
	Reliability [10]Bin
}

// Bin is one tenth of the reliability table.
type Bin struct {
	N       int
	MeanP   float64
	Correct int
}

// CalibrationError is the expected calibration error of the reliability
// table: the gap between what the model says and how often it is right,
// averaged over the messages it read.
func (rep Report) CalibrationError() float64 {
	var n int
	var gap float64
	for _, b := range rep.Reliability {
		n += b.N
		gap += math.Abs(b.MeanP*float64(b.N) - float64(b.Correct))
	}
	if n == 0 {
		return 0
	}
	return gap / float64(n)
}

// Accuracy is the share of the bin's first choices that were right.
func (b Bin) Accuracy() float64 { return ratio(b.Correct, b.N) }

// Evaluate routes every example and scores the decisions.
func Evaluate(ctx context.Context, r *Router, exs []Example) Report {
	n := len(domain.Intents)
	rep := Report{Total: len(exs), Confusion: make([][]int, n), ByTier: map[Tier]int{}}
	for i := range rep.Confusion {
		rep.Confusion[i] = make([]int, n)
	}
	lat := make([]time.Duration, 0, len(exs))
	var latSum time.Duration
	var allLocal, allLocalRight, localRight int
	for _, ex := range exs {
		d := r.Route(ctx, ex.Text)
		lat = append(lat, d.Latency)
		latSum += d.Latency
		g, p := classOf(ex.Intent), classOf(d.Intent)
		rep.Confusion[g][p]++
		rep.ByTier[d.Tier]++
		switch d.Intent {
		case domain.IntentHandoff:
			rep.HandOver++
			if ex.Intent == domain.IntentUnknown {
				rep.UnknownHandedOver++
			}
		case domain.IntentUnknown:
			rep.Unread++
		}
		right := d.Intent == ex.Intent
		if right {
			rep.Correct++
		} else {
			rep.Misrouted = append(rep.Misrouted, Misroute{ex.Text, ex.Intent, d.Intent, d.Tier, d.Confidence, d.Reason})
			switch d.Intent {
			case domain.IntentOrder:
				rep.FalseOrder++
				if ex.Intent == domain.IntentUnknown {
					rep.UnknownAsOrder++
				}
			case domain.IntentConfirm:
				rep.FalseConfirm++
			case domain.IntentCancel:
				rep.FalseCancel++
			case domain.IntentDelivery:
				rep.FalseDelivery++
			case domain.IntentPayment:
				rep.FalsePayment++
			case domain.IntentStockReceived:
				rep.FalseStockReceived++
			}
		}
		if d.modelTop != "" {
			b := &rep.Reliability[min(9, int(d.modelP*10))]
			b.N++
			b.MeanP += d.modelP
			if d.modelTop == ex.Intent {
				b.Correct++
			}
		}
		local := d.Tier == TierRules || d.Tier == TierModel
		if local {
			allLocal++
			if right {
				allLocalRight++
			}
		}
		if ex.Intent != domain.IntentUnknown {
			rep.InScope++
			if local {
				rep.LocalResolved++
				if right {
					localRight++
				}
			}
		}
	}
	rep.Accuracy = ratio(rep.Correct, rep.Total)
	rep.Coverage = ratio(rep.LocalResolved, rep.InScope)
	rep.LocalPrecision = ratio(localRight, rep.LocalResolved)
	rep.AllLocalPrecision = ratio(allLocalRight, allLocal)
	for i := range rep.Reliability {
		if b := &rep.Reliability[i]; b.N > 0 {
			b.MeanP /= float64(b.N)
		}
	}
	rep.scoreIntents()
	if len(lat) > 0 {
		slices.Sort(lat)
		rep.LatencyMean = latSum / time.Duration(len(lat))
		rep.LatencyP99 = lat[min(len(lat)-1, (len(lat)*99+99)/100-1)]
	}
	return rep
}

func (rep *Report) scoreIntents() {
	var macroN int
	for k, in := range domain.Intents {
		s := IntentScore{Intent: in}
		for j := range domain.Intents {
			s.Support += rep.Confusion[k][j]
			s.Predicted += rep.Confusion[j][k]
		}
		tp := rep.Confusion[k][k]
		s.Precision, s.Recall = ratio(tp, s.Predicted), ratio(tp, s.Support)
		if s.Precision+s.Recall > 0 {
			s.F1 = 2 * s.Precision * s.Recall / (s.Precision + s.Recall)
		}
		rep.Intents = append(rep.Intents, s)
		if s.Support == 0 && s.Predicted == 0 {
			continue
		}
		macroN++
		rep.Macro.Precision += s.Precision
		rep.Macro.Recall += s.Recall
		rep.Macro.F1 += s.F1
		w := float64(s.Support)
		rep.Weighted.Precision += w * s.Precision
		rep.Weighted.Recall += w * s.Recall
		rep.Weighted.F1 += w * s.F1
	}
	if macroN > 0 {
		rep.Macro.Precision /= float64(macroN)
		rep.Macro.Recall /= float64(macroN)
		rep.Macro.F1 /= float64(macroN)
	}
	if rep.Total > 0 {
		t := float64(rep.Total)
		rep.Weighted.Precision /= t
		rep.Weighted.Recall /= t
		rep.Weighted.F1 /= t
	}
	rep.Macro.Support, rep.Weighted.Support = rep.Total, rep.Total
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
