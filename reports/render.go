package reports

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/munshi/munshi/internal/domain"
)

// MaxMessageChars is the most characters one WhatsApp reply may hold.
// Characters are counted as WhatsApp and Twilio count them, in UTF-16 code
// units, so an emoji counts twice.
const MaxMessageChars = 1600

// MoreHint ends a reply that has more rows to show.
const MoreHint = "Reply *MORE* for the rest."

// Chars counts s the way the 1,600-character limit counts it.
func Chars(s string) int {
	n := 0
	for _, r := range s {
		// Ranging a string yields only valid runes (a bad byte is
		// U+FFFD): one UTF-16 unit each, two above the BMP.
		n += utf16.RuneLen(r)
	}
	return n
}

// Split cuts text into messages of at most max characters (MaxMessageChars
// when max ≤ 0), breaking between lines, or inside a line that is too long
// on its own.
func Split(text string, max int) []string {
	if max <= 0 {
		max = MaxMessageChars
	}
	var out []string
	var cur strings.Builder
	curN := 0
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, strings.TrimRight(cur.String(), "\n"))
			cur.Reset()
			curN = 0
		}
	}
	for _, line := range strings.SplitAfter(text, "\n") {
		n := Chars(line)
		if curN+n > max {
			flush()
		}
		for n > max { // a single line longer than a message
			head, rest := cutChars(line, max)
			out = append(out, head)
			line, n = rest, Chars(rest)
		}
		cur.WriteString(line)
		curN += n
	}
	flush()
	return out
}

// cutChars splits s after at most n characters, never inside a rune.
func cutChars(s string, n int) (string, string) {
	count := 0
	for i, r := range s {
		w := len(utf16.AppendRune(nil, r))
		if count+w > n {
			return s[:i], s[i:]
		}
		count += w
	}
	return s, ""
}

// fit joins the head lines and as many rows as fit in one message with the
// footer; it returns the text and how many rows it holds. total is every
// row of the answer and offset where rows start in it.
func fit(head, rows []string, offset, total int) (string, int) {
	for k := len(rows); ; k-- {
		var b strings.Builder
		for _, l := range head {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		for _, l := range rows[:k] {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		if offset+k < total {
			if k > 0 {
				fmt.Fprintf(&b, "\nShowing %s–%s of %s. %s", count(offset+1), count(offset+k), count(total), MoreHint)
			} else {
				b.WriteString("\n" + MoreHint)
			}
		} else if offset > 0 && k > 0 {
			fmt.Fprintf(&b, "\nThat's all: %s–%s of %s.", count(offset+1), count(offset+k), count(total))
		}
		text := strings.TrimRight(b.String(), "\n")
		if Chars(text) <= MaxMessageChars || k == 0 {
			if Chars(text) > MaxMessageChars {
				text = Split(text, MaxMessageChars)[0]
			}
			return text, k
		}
	}
}

func count[T int | int64](n T) string { return domain.GroupIndian(int64(n)) }

// Units writes a quantity in base units with Indian grouping: "2,400 bottles".
func Units(n int64, unit string) string { return domain.Units(n, unit) }

// Packs writes base units in the product's largest pack that it reaches:
// "100 cartons", "41 cartons + 16 bottles"; "" when under one pack or the
// product has none.
func Packs(n int64, unit string, packs []domain.PackSize) string {
	var best domain.PackSize
	for _, p := range packs {
		if p.Units > 1 && p.Units > best.Units && n >= p.Units {
			best = p
		}
	}
	if best.Units == 0 {
		return ""
	}
	k, r := n/best.Units, n%best.Units
	s := domain.GroupIndian(k) + " " + domain.Plural(best.Name, k)
	if r > 0 {
		s += " + " + Units(r, unit)
	}
	return s
}

// Quantity writes base units with packs in brackets: "2,400 bottles (100
// cartons)".
func Quantity(n int64, unit string, packs []domain.PackSize) string {
	s := Units(n, unit)
	if p := Packs(n, unit, packs); p != "" {
		s += " (" + p + ")"
	}
	return s
}

// ageDays counts calendar days in loc from t to now.
func ageDays(t, now time.Time, loc *time.Location) int {
	a, b := t.In(loc), now.In(loc)
	da := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	db := time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)
	return int(db.Sub(da).Hours() / 24)
}

func ageText(days int) string {
	switch {
	case days <= 0:
		return "today"
	case days == 1:
		return "1 day"
	}
	return count(days) + " days"
}

func dateText(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("2 Jan")
}
