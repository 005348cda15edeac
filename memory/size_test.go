package memory_test

import (
	"testing"
	"time"

	"github.com/munshi/munshi/memory"
	"github.com/munshi/munshi/memory/memorytest"
)

// BenchmarkConversationSize sets the natural size of a busy owner's
// conversation at the full window (fifteen realistic turns appended one at
// a time: ten kept, five folded; every text and list within its own bound)
// beside what is stored under the MaxBytes cap, and counts what the cap
// drops to get there. Each iteration is the fifteen appends.
func BenchmarkConversationSize(b *testing.B) {
	at := time.Date(2026, 11, 30, 10, 42, 0, 0, time.UTC)
	turns := append(memorytest.RealisticTurns(at), memorytest.RealisticTurns(at.Add(5 * time.Minute))[:5]...)
	natural := memory.Unbounded(at, turns...)
	var stored []byte
	for b.Loop() {
		stored = nil
		for _, t := range turns {
			var err error
			if stored, err = memory.Apply(stored, at, t); err != nil {
				b.Fatal(err)
			}
		}
	}
	if len(stored) > memory.MaxBytes {
		b.Fatalf("stored %d bytes, over the %d cap", len(stored), memory.MaxBytes)
	}
	d := capDrops(b, natural, stored)
	b.ReportMetric(float64(len(natural)), "natural-bytes/conv")
	b.ReportMetric(float64(len(stored)), "stored-bytes/conv")
	b.ReportMetric(float64(d.textsCut), "texts-cut")
	b.ReportMetric(float64(d.textBytes), "text-bytes-cut")
	b.ReportMetric(float64(d.rows), "rows-cut")
	b.ReportMetric(float64(d.folded), "turns-folded-by-cap")
}

// drops is what fitting a conversation under MaxBytes took out of it.
type drops struct {
	textsCut, textBytes int // texts shortened, and the bytes they lost
	rows                int // result rows dropped from kept turns
	folded              int // turns folded into the summary beyond the window
}

// capDrops compares the natural and the stored form of one conversation.
// The cap folds the oldest turns first, so the kept turns are the newest
// of the natural ones.
func capDrops(tb testing.TB, natural, stored []byte) drops {
	tb.Helper()
	n, err := memory.Decode(natural)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := memory.Decode(stored)
	if err != nil {
		tb.Fatal(err)
	}
	d := drops{folded: s.Summary.Folded - n.Summary.Folded}
	kept := n.Turns[len(n.Turns)-len(s.Turns):]
	for i, t := range s.Turns {
		if lost := len(kept[i].Text) - len(t.Text); lost > 0 {
			d.textsCut++
			d.textBytes += lost
		}
		d.rows += len(kept[i].Rows) - len(t.Rows)
	}
	return d
}
