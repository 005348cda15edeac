package sqlbooks

import (
	"strconv"
	"strings"
	"testing"
)

func TestDollarsNumbersOnlyPlaceholders(t *testing.T) {
	for in, want := range map[string]string{
		`SELECT 1`:                `SELECT 1`,
		`a = ? AND b IN (?, ?)`:   `a = $1 AND b IN ($2, $3)`,
		`x = '?' AND y = ?`:       `x = '?' AND y = $1`,
		`x = 'it''s ?' AND y = ?`: `x = 'it''s ?' AND y = $1`,
		`"odd?name" = ?`:          `"odd?name" = $1`,
		"-- is it ?\nWHERE a = ?": "-- is it ?\nWHERE a = $1",
		`CAST(? AS jsonb)`:        `CAST($1 AS jsonb)`,
		`x = 'unterminated ?`:     `x = 'unterminated ?`,
		"a = ? -- trailing ?":     "a = $1 -- trailing ?",
		`' × ' || ? || ', '`:      `' × ' || $1 || ', '`,
	} {
		if got := dollars(in); got != want {
			t.Errorf("dollars(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzDollars: whatever the query, binding keeps every byte that is not a
// placeholder and numbers the placeholders from 1 without a gap.
func FuzzDollars(f *testing.F) {
	for _, s := range []string{`a = ?`, `'?' ?`, "-- ?\n?", `"?"?'?'`, `???`, `'`, `--`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		got := dollars(q)
		n := strings.Count(q, "?") - strings.Count(got, "?")
		for i := 1; i <= n; i++ {
			if !strings.Contains(got, "$"+strconv.Itoa(i)) {
				t.Fatalf("dollars(%q) = %q: no $%d", q, got, i)
			}
		}
		if n < 0 || len(got) < len(q) {
			t.Fatalf("dollars(%q) = %q lost bytes", q, got)
		}
	})
}
