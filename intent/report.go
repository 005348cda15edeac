package intent

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Write prints the report as text: the per-intent table, the averages, the
// tiers, coverage, the costly mistakes, latency, the confusion matrix and
// every misrouted message.
func (rep Report) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Intent routing: %d messages\n\n", rep.Total)
	fmt.Fprintf(&b, "%-16s %9s %9s %9s %9s\n", "intent", "precision", "recall", "f1-score", "support")
	for _, s := range rep.Intents {
		fmt.Fprintf(&b, "%-16s %9.3f %9.3f %9.3f %9d\n", s.Intent, s.Precision, s.Recall, s.F1, s.Support)
	}
	fmt.Fprintf(&b, "\n%-16s %9s %9s %9.3f %9d\n", "accuracy", "", "", rep.Accuracy, rep.Total)
	fmt.Fprintf(&b, "%-16s %9.3f %9.3f %9.3f %9d\n", "macro avg", rep.Macro.Precision, rep.Macro.Recall, rep.Macro.F1, rep.Total)
	fmt.Fprintf(&b, "%-16s %9.3f %9.3f %9.3f %9d\n\n", "weighted avg", rep.Weighted.Precision, rep.Weighted.Recall, rep.Weighted.F1, rep.Total)

	b.WriteString("Resolved by tier:")
	for _, t := range Tiers {
		fmt.Fprintf(&b, "  %s %d (%.1f%%)", t, rep.ByTier[t], 100*ratio(rep.ByTier[t], rep.Total))
	}
	fmt.Fprintf(&b, "\nCoverage of in-scope messages by rules+model: %.3f (%d/%d), precision %.3f\n",
		rep.Coverage, rep.LocalResolved, rep.InScope, rep.LocalPrecision)
	fmt.Fprintf(&b, "Precision of every rules+model decision, unknown included: %.3f\n", rep.AllLocalPrecision)
	fmt.Fprintf(&b, "False order: %d  false confirm: %d  false cancel: %d  unknown routed to order: %d\n",
		rep.FalseOrder, rep.FalseConfirm, rep.FalseCancel, rep.UnknownAsOrder)
	fmt.Fprintf(&b, "False delivery: %d  false payment: %d  false stock received: %d\n",
		rep.FalseDelivery, rep.FalsePayment, rep.FalseStockReceived)
	fmt.Fprintf(&b, "Handed over to the office: %d at once (asked or disputed; %d of them labelled unknown), %d unread (a second in a row hands over)\n",
		rep.HandOver, rep.UnknownHandedOver, rep.Unread)
	fmt.Fprintf(&b, "Latency: mean %s  p99 %s\n\n", roundLatency(rep.LatencyMean), roundLatency(rep.LatencyP99))

	b.WriteString("Reliability of the model's first choice (messages the rules did not decide)\n")
	fmt.Fprintf(&b, "%-10s %6s %9s %9s\n", "confidence", "n", "mean p", "accuracy")
	for i, bin := range rep.Reliability {
		if bin.N == 0 {
			continue
		}
		fmt.Fprintf(&b, "%.1f–%.1f   %6d %9.3f %9.3f\n", float64(i)/10, float64(i+1)/10, bin.N, bin.MeanP, bin.Accuracy())
	}
	fmt.Fprintf(&b, "Expected calibration error: %.3f\n\n", rep.CalibrationError())

	b.WriteString("Confusion matrix (rows: gold, columns: predicted)\n")
	fmt.Fprintf(&b, "%-16s", "")
	for _, in := range domain.Intents {
		fmt.Fprintf(&b, " %5s", abbrev(in))
	}
	b.WriteByte('\n')
	for g, row := range rep.Confusion {
		fmt.Fprintf(&b, "%-16s", domain.Intents[g])
		for _, c := range row {
			fmt.Fprintf(&b, " %5d", c)
		}
		b.WriteByte('\n')
	}

	fmt.Fprintf(&b, "\nMisrouted (%d)\n", len(rep.Misrouted))
	for _, m := range rep.Misrouted {
		fmt.Fprintf(&b, "  %-14s → %-14s %-5s %.2f  %q\n", m.Gold, m.Predicted, m.Tier, m.Confidence, m.Text)
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("intent: writing report: %w", err)
	}
	return nil
}

// columnHeadings are the headings of the intents whose first five letters
// are another's or say little.
var columnHeadings = map[domain.Intent]string{
	domain.IntentPendingOrders:    "pend",
	domain.IntentPayment:          "paymt",
	domain.IntentStockReceived:    "recvd",
	domain.IntentOrderStatus:      "ostat",
	domain.IntentPaymentsReceived: "colln",
}

// abbrev shortens an intent to a confusion-matrix column heading.
func abbrev(in domain.Intent) string {
	if h, ok := columnHeadings[in]; ok {
		return h
	}
	s := string(in)
	if len(s) > 5 {
		return s[:5]
	}
	return s
}

func roundLatency(d time.Duration) time.Duration {
	if d > time.Millisecond {
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(100 * time.Nanosecond)
}
