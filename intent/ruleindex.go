package intent

import (
	"slices"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// matchRules returns the intent all firing rules agree on.
func matchRules(shape []string, n Normalized) (domain.Intent, string, bool) {
	if len(shape) == 0 {
		return "", "", false
	}
	// Every word narrows the rules still possible to those that allow it,
	// and marks the need groups it fills: one lookup a word, whatever the
	// number of rules.
	alive := compiledRules.all
	if n.Question {
		alive &^= compiledRules.notAsked
	}
	var found [maxNeed]ruleSet
	for _, w := range shape {
		e := compiledRules.words[w]
		ok := e.ok
		if alive&compiledRules.codes != 0 && isCode(w) {
			ok |= compiledRules.codes
		}
		if alive &= ok; alive == 0 {
			return "", "", false
		}
		for g := range found {
			found[g] |= e.need[g]
		}
	}
	var got domain.Intent
	var name string
	for i := range rules {
		r := &rules[i]
		if alive&(1<<i) == 0 || !r.fires(i, shape, n, &found) {
			continue
		}
		if got != "" && got != r.intent {
			return "", "", false
		}
		got, name = r.intent, r.name
	}
	return got, name, got != ""
}

// fires finishes matching rule i, whose every word the message allows:
// its length, every need group filled, and what its words cannot say.
func (r *rule) fires(i int, shape []string, n Normalized, found *[maxNeed]ruleSet) bool {
	if len(shape) > r.maxLen {
		return false
	}
	for g := range r.need {
		if found[g]&(1<<i) == 0 {
			return false
		}
	}
	return r.beyondWords(shape, n)
}

// beyondWords checks what a rule's words cannot say: whether the message
// asks, and the evidence of a record it needs or refuses.
func (r *rule) beyondWords(shape []string, n Normalized) bool {
	switch {
	case r.asked && !asked(shape, n.Question):
		return false
	case r.signal != noRecord && !r.signal.shownBy(shape, n), r.unless != noRecord && r.unless.shownBy(shape, n):
		return false
	}
	return true
}

// ruleSet is a set of rules, bit i for rules[i].
type ruleSet uint64

// maxNeed is the most need groups a rule has.
const maxNeed = 4

// ruleWord is what one word means to the rules: those it is allowed by
// (needed, allowed, or a filler) and those whose need groups it fills.
type ruleWord struct {
	ok   ruleSet
	need [maxNeed]ruleSet
}

// ruleIndex is the rules compiled for matching.
type ruleIndex struct {
	words    map[string]ruleWord
	all      ruleSet
	notAsked ruleSet // rules that never read a question
	codes    ruleSet // rules that allow codes ("utr991")
}

var compiledRules = compileRules(rules)

func compileRules(rules []rule) ruleIndex {
	if len(rules) > 64 || slices.ContainsFunc(rules, func(r rule) bool { return len(r.need) > maxNeed }) {
		panic("intent: more rules or need groups than a ruleSet holds")
	}
	x := ruleIndex{words: map[string]ruleWord{}}
	add := func(w string, f func(e *ruleWord)) {
		e := x.words[w]
		f(&e)
		x.words[w] = e
	}
	for i, r := range rules {
		bit := ruleSet(1) << i
		x.all |= bit
		if r.notAsked {
			x.notAsked |= bit
		}
		if r.codes {
			x.codes |= bit
		}
		for g, set := range r.need {
			for w := range set {
				add(w, func(e *ruleWord) { e.ok |= bit; e.need[g] |= bit })
			}
		}
		for w := range r.allow {
			add(w, func(e *ruleWord) { e.ok |= bit })
		}
	}
	for w := range fillers {
		add(w, func(e *ruleWord) { e.ok = x.all })
	}
	return x
}

// isCode reports a word of letters and digits: "utr991", "chq123".
func isCode(w string) bool {
	letter, digit := false, false
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z':
			letter = true
		default:
			return false
		}
	}
	return letter && digit
}

// words builds a word set, in canonical spelling so that the lists can be
// written naturally ("kitne", "hain").
func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		c := canonicalOne(w)
		m[c] = true
		known[c] = true
	}
	return m
}

func groups(gs ...string) []map[string]bool {
	out := make([]map[string]bool, len(gs))
	for i, g := range gs {
		out[i] = words(g)
	}
	return out
}
