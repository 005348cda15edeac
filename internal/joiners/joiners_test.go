package joiners

import "testing"

func TestJoins(t *testing.T) {
	for s, want := range map[string]bool{
		"क्\u200dष": true, "👨\u200d👩": true, "a\u200cb": true,
		"ok\u200d": false, "\u200dok": false, " \u200d ": false, "\xff\u200da": false,
	} {
		i := len(s)
		for j, r := range s {
			if r == ZWJ || r == ZWNJ {
				i = j
				break
			}
		}
		if got := Joins(s, i, 3); got != want {
			t.Errorf("Joins(%q) = %v, want %v", s, got, want)
		}
	}
}
