package memory

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
)

// Apply is the one definition of Append that every Store shares: it
// decodes the stored conversation old (nil or empty when there is none, and
// a corrupt one counts as none), adds turns (a zero At becomes now), folds
// the turns beyond the Window into the Summary, scrubs secrets, bounds every
// text and list, and returns the new stored form, at most MaxBytes long.
// It fails only with EINVALID, for a turn whose role is neither person nor
// munshi.
func Apply(old []byte, now time.Time, turns ...Turn) ([]byte, error) {
	for _, t := range turns {
		if t.Role != RolePerson && t.Role != RoleMunshi {
			return nil, domain.Errorf(domain.EINVALID, "memory: a turn's role is %q or %q, not %q", RolePerson, RoleMunshi, t.Role)
		}
	}
	c, _ := Decode(old)
	for _, t := range turns {
		if t.More != nil {
			c.More = cleanMore(t.More)
		}
		t.More = nil
		if t.Frame != nil {
			c.Frame = cleanFrame(t.Frame)
		}
		t.Frame = nil
		c.Turns = append(c.Turns, clean(t, now))
	}
	for len(c.Turns) > Window {
		fold(&c.Summary, c.Turns[0])
		c.Turns = c.Turns[1:]
	}
	return fit(&c), nil
}

// Decode reads a conversation in its stored form; nil or empty is an empty
// conversation. Phone is left empty: it is the key, not the value.
func Decode(b []byte) (Conversation, error) {
	if len(b) == 0 {
		return Conversation{}, nil
	}
	w, err := decodeFast(b)
	if err != nil {
		// Not as this version writes it: let encoding/json try.
		w = wireConversation{}
		if err := json.Unmarshal(b, &w); err != nil {
			return Conversation{}, fmt.Errorf("memory: stored conversation unreadable: %w", err)
		}
	}
	if w.V != wireVersion {
		return Conversation{}, fmt.Errorf("memory: stored conversation has format %d, want %d", w.V, wireVersion)
	}
	c := Conversation{Turns: make([]Turn, 0, len(w.T))}
	for _, t := range w.T {
		role := RolePerson
		if t.R == "m" {
			role = RoleMunshi
		}
		c.Turns = append(c.Turns, Turn{
			Role: role, Text: t.X, At: time.UnixMilli(t.A).UTC(), Intent: domain.Intent(t.I),
			Customers: t.C, Products: t.P, Tool: t.O, DraftID: t.D, Rows: t.W,
		})
	}
	if s := w.S; s != nil {
		c.Summary = Summary{Asked: s.Q, Tools: s.O, Customers: s.C, Products: s.P, LastDraft: s.D, LastRows: s.W, Folded: s.N}
	}
	c.More = w.M.continuation()
	c.Frame = w.F.frame()
	return c, nil
}

// The stored form is compact JSON with one-letter keys: a conversation at
// the full window must stay within MaxBytes, and JSON keeps it readable with
// redis-cli. V changes if the layout ever does; an unknown V reads as empty.
const wireVersion = 1

type wireConversation struct {
	V int          `json:"v"`
	T []wireTurn   `json:"t,omitempty"`
	S *wireSummary `json:"s,omitempty"`
	M *wireMore    `json:"m,omitempty"`
	F *wireFrame   `json:"f,omitempty"`
}

type wireTurn struct {
	R string   `json:"r"` // "p" person, "m" Munshi
	X string   `json:"x,omitempty"`
	A int64    `json:"a"` // Unix milliseconds
	I string   `json:"i,omitempty"`
	C []string `json:"c,omitempty"`
	P []string `json:"p,omitempty"`
	O string   `json:"o,omitempty"`
	D string   `json:"d,omitempty"`
	W []string `json:"w,omitempty"`
}

type wireSummary struct {
	Q []string `json:"q,omitempty"`
	O []string `json:"o,omitempty"`
	C []string `json:"c,omitempty"`
	P []string `json:"p,omitempty"`
	D string   `json:"d,omitempty"`
	W []string `json:"w,omitempty"`
	N int      `json:"n,omitempty"`
}

func encode(c *Conversation) []byte {
	w := wireConversation{V: wireVersion, T: make([]wireTurn, 0, len(c.Turns))}
	for _, t := range c.Turns {
		r := "p"
		if t.Role == RoleMunshi {
			r = "m"
		}
		w.T = append(w.T, wireTurn{
			R: r, X: t.Text, A: t.At.UnixMilli(), I: string(t.Intent),
			C: t.Customers, P: t.Products, O: t.Tool, D: t.DraftID, W: t.Rows,
		})
	}
	if s := c.Summary; !s.Empty() {
		w.S = &wireSummary{Q: s.Asked, O: s.Tools, C: s.Customers, P: s.Products, D: s.LastDraft, W: s.LastRows, N: s.Folded}
	}
	w.M = wireMoreOf(c.More)
	w.F = wireFrameOf(c.Frame)
	return appendConversation(make([]byte, 0, MaxBytes+512), &w)
}

// clean scrubs and bounds one turn as it is appended.
func clean(t Turn, now time.Time) Turn {
	if t.At.IsZero() {
		t.At = now
	}
	t.At = time.UnixMilli(t.At.UnixMilli()).UTC()
	t.Text = truncateRunes(Scrub(strings.TrimSpace(t.Text)), MaxTextRunes)
	t.Intent = domain.Intent(truncateRunes(string(t.Intent), MaxIDRunes))
	// IDs come from Munshi's own code; texts and rows may quote a person.
	t.Customers = boundList(nil, t.Customers, MaxIDRunes, false)
	t.Products = boundList(nil, t.Products, MaxIDRunes, false)
	t.Tool = truncateRunes(strings.TrimSpace(t.Tool), MaxIDRunes)
	t.DraftID = truncateRunes(strings.TrimSpace(t.DraftID), MaxIDRunes)
	t.Rows = boundList(nil, t.Rows, MaxRowRunes, true)
	return t
}

// fold moves one turn into the summary.
func fold(s *Summary, t Turn) {
	s.Folded++
	if t.Role == RolePerson && t.Text != "" {
		s.Asked = boundList([]string{asked(t)}, s.Asked, MaxRowRunes, false)
	}
	if t.Tool != "" {
		s.Tools = boundList([]string{t.Tool}, s.Tools, MaxIDRunes, false)
	}
	s.Customers = boundList(t.Customers, s.Customers, MaxIDRunes, false)
	s.Products = boundList(t.Products, s.Products, MaxIDRunes, false)
	if t.DraftID != "" {
		s.LastDraft = t.DraftID
	}
	if len(t.Rows) > 0 {
		s.LastRows = slices.Clone(t.Rows)
	}
}

// asked is the short form of a question for the summary.
func asked(t Turn) string {
	text := strings.Join(strings.Fields(t.Text), " ")
	if t.Intent != "" && t.Intent != domain.IntentUnknown {
		text = string(t.Intent) + ": " + text
	}
	return truncateRunes(text, MaxRowRunes)
}

// boundList returns newer followed by older, without empty entries or
// duplicates (the first occurrence wins), each entry at most runes long
// (and scrubbed if scrub is set), at most MaxList entries.
func boundList(newer, older []string, runes int, scrub bool) []string {
	var out []string
	for _, list := range [][]string{newer, older} {
		for _, s := range list {
			if len(out) == MaxList {
				return out
			}
			s = strings.TrimSpace(s)
			if scrub {
				s = Scrub(s)
			}
			s = truncateRunes(s, runes)
			if s != "" && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

const ellipsis = "…"

// truncateRunes cuts s to at most n runes, the last one an ellipsis when
// something was cut.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for i < len(s) && k < n-1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	return strings.TrimSpace(s[:i]) + ellipsis
}

// truncateBytes cuts s to at most n bytes at a rune boundary, ending with an
// ellipsis when something was cut.
func truncateBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = strings.TrimSuffix(s, ellipsis)
	if n < len(ellipsis) {
		return ""
	}
	i := n - len(ellipsis)
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return strings.TrimSpace(s[:i]) + ellipsis
}

// textFloor is the length, in bytes, below which fitting a conversation
// into MaxBytes folds old turns rather than cutting texts further.
const textFloor = 160

// fit encodes c, shrinking it until the encoding is at most MaxBytes: first
// cutting the longest texts to a common length (no shorter than textFloor),
// then trimming the rows of older results, then folding the oldest turns
// into the summary, and at last trimming whatever is left. Every step makes
// the encoding shorter, so fit ends.
func fit(c *Conversation) []byte {
	b := encode(c)
	for len(b) > MaxBytes {
		if !shrink(c, len(b)-MaxBytes) {
			break // cannot happen: an empty conversation is a few bytes
		}
		b = encode(c)
	}
	return b
}

func shrink(c *Conversation, excess int) bool {
	if capTexts(c.Turns, excess, textFloor) {
		return true
	}
	// Rows of results other than the latest one.
	latest := -1
	for i := len(c.Turns) - 1; i >= 0; i-- {
		if len(c.Turns[i].Rows) > 0 {
			latest = i
			break
		}
	}
	for i := range c.Turns {
		if i != latest && len(c.Turns[i].Rows) > 2 {
			c.Turns[i].Rows = c.Turns[i].Rows[:2]
			return true
		}
	}
	if len(c.Turns) > 1 {
		fold(&c.Summary, c.Turns[0])
		c.Turns = c.Turns[1:]
		return true
	}
	if capTexts(c.Turns, excess, 0) {
		return true
	}
	// What is left is the summary and one turn's lists: drop the oldest
	// entry of the longest list.
	s := &c.Summary
	lists := []*[]string{&s.Asked, &s.LastRows, &s.Customers, &s.Products, &s.Tools}
	for i := range c.Turns {
		lists = append(lists, &c.Turns[i].Rows, &c.Turns[i].Customers, &c.Turns[i].Products)
	}
	var longest *[]string
	for _, l := range lists {
		if len(*l) > 0 && (longest == nil || len(*l) > len(*longest)) {
			longest = l
		}
	}
	if longest != nil {
		*longest = (*longest)[:len(*longest)-1]
		return true
	}
	return false
}

// capTexts cuts the texts longer than some common cap, no lower than floor
// bytes, so that together they lose at least need bytes; it reports whether
// it cut anything.
func capTexts(turns []Turn, need, floor int) bool {
	cut := func(limit int) int {
		n := 0
		for _, t := range turns {
			if len(t.Text) > limit {
				n += len(t.Text) - limit
			}
		}
		return n
	}
	longest := 0
	for _, t := range turns {
		longest = max(longest, len(t.Text))
	}
	if longest <= floor {
		return false
	}
	// The highest limit that cuts enough; floor if none does.
	lo, hi := floor, longest
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if cut(mid) >= need {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	for i := range turns {
		turns[i].Text = truncateBytes(turns[i].Text, lo)
	}
	return true
}
