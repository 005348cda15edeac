package orders

import (
	"strings"
	"unicode"

	"github.com/munshi/munshi/intent"
)

// reading is a normalised message with what each token has become.
type reading struct {
	text string
	toks []intent.Token
	ents []intent.Entity
	ent  []int  // per token: the index in ents of the entity covering it, or -1
	used []bool // per token: claimed by a quantity, a name or a question
	// turnDown reads a mode with a negation after it as turned down, in
	// answers and corrections.
	turnDown bool
}

func newReading(text string, n intent.Normalized) *reading {
	r := &reading{text: text, toks: n.Tokens, ents: n.Entities, ent: make([]int, len(n.Tokens)), used: make([]bool, len(n.Tokens))}
	for i := range r.ent {
		r.ent[i] = -1
	}
	for k, e := range n.Entities {
		for i := max(e.Start, 0); i < e.End && i < len(r.toks); i++ {
			r.ent[i] = k
		}
	}
	return r
}

// kindAt is the kind of the entity covering token i, or "" for none.
func (r *reading) kindAt(i int) intent.EntityKind {
	if i < 0 || i >= len(r.ent) || r.ent[i] < 0 {
		return ""
	}
	return r.ents[r.ent[i]].Kind
}

func (r *reading) word(i int) string {
	if i < 0 || i >= len(r.toks) {
		return ""
	}
	return r.toks[i].Text
}

// kind returns the kind of entity covering token i, or "".
func (r *reading) kind(i int) intent.EntityKind {
	if i < 0 || i >= len(r.toks) || r.ent[i] < 0 {
		return ""
	}
	return r.ents[r.ent[i]].Kind
}

// source returns the message text from byte a to b, safely.
func (r *reading) source(a, b int) string {
	a, b = max(0, min(a, len(r.text))), max(0, min(b, len(r.text)))
	if a >= b {
		return ""
	}
	return r.text[a:b]
}

// between returns the source text between tokens i and j (i < j).
func (r *reading) between(i, j int) string {
	if i < 0 || j >= len(r.toks) || i >= j {
		return ""
	}
	return r.source(r.toks[i].End, r.toks[j].Start)
}

// newline reports whether a line break separates tokens i and j.
func (r *reading) newline(i, j int) bool {
	return strings.ContainsAny(r.between(i, j), "\n\r")
}

// span returns the source text of tokens [from, to).
func (r *reading) span(from, to int) string {
	if from >= to || from < 0 || to > len(r.toks) {
		return ""
	}
	return strings.TrimSpace(r.source(r.toks[from].Start, r.toks[to-1].End))
}

// claim marks tokens [from, to) as read, so that nothing else reads them,
// and returns their source text.
func (r *reading) claim(from, to int) string {
	s := r.span(from, to)
	if s == "" {
		return ""
	}
	for i := from; i < to; i++ {
		r.used[i] = true
	}
	return s
}

// plain reports a token that is no entity, no payment word and no
// structure word: a candidate for an unknown name.
func (r *reading) plain(i int) bool {
	if i < 0 || i >= len(r.toks) || r.ent[i] >= 0 || r.used[i] {
		return false
	}
	w := r.toks[i].Text
	if _, pay := paymentWords[w]; pay || separators[w] || fillers[w] || plainWords[w] || currencyWords[w] {
		return false // "₹450 wala" names no shop called Rupees
	}
	return hasLetter(w) && !strings.ContainsAny(w, "0123456789")
}

// lineStart reports whether token i is the first word of its line, after
// nothing but spaces and bullets.
func (r *reading) lineStart(i int) bool {
	head := r.text[:min(r.toks[i].Start, len(r.text))]
	if k := strings.LastIndexAny(head, "\n\r"); k >= 0 {
		head = head[k+1:]
	}
	// Bullets and emoji ("🚚 5116 pahunch gaya") start a line as a space does.
	return strings.IndexFunc(head, func(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }) < 0
}
