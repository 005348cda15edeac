package intent

import (
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

// naiveRules is matchRules as the rules read, one rule at a time: the
// oracle for the compiled index.
func naiveRules(shape []string, n Normalized) (domain.Intent, string, bool) {
	var got domain.Intent
	var name string
	for i := range rules {
		r := &rules[i]
		if !naiveMatches(r, shape, n) {
			continue
		}
		if got != "" && got != r.intent {
			return "", "", false
		}
		got, name = r.intent, r.name
	}
	return got, name, got != ""
}

func naiveMatches(r *rule, shape []string, n Normalized) bool {
	if len(shape) == 0 || len(shape) > r.maxLen || (r.notAsked && n.Question) {
		return false
	}
	var found [maxNeed]bool
	for _, w := range shape {
		needed := false
		for g, set := range r.need {
			if set[w] {
				found[g], needed = true, true
			}
		}
		if !needed && !r.allow[w] && !fillers[w] && !(r.codes && isCode(w)) {
			return false
		}
	}
	for g := range r.need {
		if !found[g] {
			return false
		}
	}
	return r.beyondWords(shape, n)
}

// The compiled rules decide exactly as the rules read, on every message of
// the training and development corpora, with the demo catalog and without
// one, asked and not.
func TestCompiledRulesMatchTheRules(t *testing.T) {
	r := demoRouter(t)
	var texts []string
	for _, split := range []string{"train", "dev", "dev-lifecycle"} {
		for _, ex := range readCorpus(t, "corpus/"+split+".jsonl") {
			texts = append(texts, ex.Text)
		}
	}
	texts = append(texts, benchMessages...)
	fired := 0
	for _, text := range texts {
		for _, n := range []Normalized{r.Normalize(text), Normalize(text)} {
			for _, q := range []bool{n.Question, !n.Question} {
				n.Question = q
				shape := shapeOf(n, nil)
				in, name, ok := matchRules(shape, n)
				win, wname, wok := naiveRules(shape, n)
				if in != win || name != wname || ok != wok {
					t.Fatalf("%q (question %v): compiled %s %q %v, rules %s %q %v", text, q, in, name, ok, win, wname, wok)
				}
				if ok {
					fired++
				}
			}
		}
	}
	if fired < len(texts)/2 {
		t.Errorf("only %d rule decisions over %d messages: the test compares too little", fired, len(texts))
	}
}
