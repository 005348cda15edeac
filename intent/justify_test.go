package intent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// The words Munshi's routing knows are justified by the messages it was
// built on: a word that occurs only in a held-out split would make that
// split's figures a measure of itself. The development and training
// splits, and the development conversations' turns, are the evidence.
var evidenceFiles = []string{"corpus/train.jsonl", "corpus/dev.jsonl", "corpus/dev-lifecycle.jsonl", "corpus/dev-rules.jsonl", "corpus/dev-spellings.jsonl",
	"corpus/dev-strangers.jsonl", "corpus/dev-everyday.jsonl", "corpus/dev-handoff.jsonl", "corpus/dev-fresh.jsonl",
	"corpus/dev-handoff-2.jsonl", "corpus/dev-handoff-3.jsonl", "corpus/train-handoff.jsonl", "corpus/dev-fresh-2.jsonl",
	"corpus/dev-fresh-3.jsonl", "corpus/dev-fresh-4.jsonl", "corpus/dev-fresh-5.jsonl",
	"corpus/dev-fresh-6.jsonl", "corpus/dev-fresh-7.jsonl"}

// evidence is every raw word (lower case, Devanagari folded) and every
// canonical word of the development and training messages.
type evidence struct{ raw, canonical map[string]bool }

func readEvidence(t *testing.T) evidence {
	t.Helper()
	ev := evidence{raw: map[string]bool{}, canonical: map[string]bool{}}
	add := func(text string) {
		for _, w := range splitWords(strings.ToLower(text), nil) {
			ev.raw[w.text] = true
			ev.raw[foldDevanagari(w.text)] = true
		}
		for _, tok := range Normalize(text).Tokens {
			for _, w := range strings.Fields(tok.Text) {
				ev.canonical[w] = true
			}
		}
	}
	for _, path := range evidenceFiles {
		for _, ex := range readCorpus(t, path) {
			add(ex.Text)
		}
	}
	// The development conversations' turns are development messages too.
	paths, err := filepath.Glob("../internal/dialogs/testdata/dev*/dialogs.jsonl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no development conversations: %v", err)
	}
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(string(b)) {
			var d struct {
				Turns []string `json:"turns"`
			}
			if json.Unmarshal([]byte(line), &d) == nil {
				for _, turn := range d.Turns {
					add(turn)
				}
			}
		}
	}
	return ev
}

// allRaw reports whether every word of s occurs as typed.
func allRaw(ev evidence, s string) bool {
	for _, w := range strings.Fields(s) {
		if !ev.raw[w] {
			return false
		}
	}
	return true
}

// ruleWordSets are the word lists the rules and the lifecycle checks read.
func ruleWordSets() map[string]map[string]bool {
	sets := map[string]map[string]bool{
		"fillers": fillers, "confirmWords": confirmWords, "cancelWords": cancelWords, "orderWords": orderWords,
		"deliveredWords": deliveredWords, "deliveryStems": deliveryStems, "doneWords": doneWords,
		"finishedWords": finishedWords, "imperatives": imperatives, "receivedWords": receivedWords,
		"payerWords": payerWords, "modeWords": modeWords, "dueWords": dueWords, "arrivalWords": arrivalWords,
		"goodsWords": goodsWords, "questionWords": questionWords, "negations": negations, "gotWords": gotWords,
		"moneyWords": moneyWords, "refWords": refWords, "goodsOnly": goodsOnly, "orderWordsOnly": orderWordsOnly,
		"paymentWords": paymentWords, "damageWords": damageWords, "cancelVerbs": cancelVerbs,
		"cancelNegations": cancelNegations, "aboutACancellation": aboutACancellation,
		"cancelHappened": cancelHappened, "statusWords": statusWords, "handVerbs": handVerbs, "handedWords": handedWords,
		"completions": completions, "givingVerbs": givingVerbs, "handedGoods": handedGoods, "recipients": recipients,
		"notAnOrder": notAnOrder, "customerWords": customerWords, "shortageWords": shortageWords,
		"statusAsks": statusAsks, "paymentTrouble": paymentTrouble, "gotGoods": gotGoods, "goodsSources": goodsSources,
		"documentWords": documentWords, "dateWords": dateWords, "laterWords": laterWords, "suppliers": suppliers, "sentWords": sentWords, "nextWords": nextWords, "receipts": receipts, "madeWords": madeWords, "givenWords": givenWords,
	}
	for _, r := range rules {
		for i, g := range r.need {
			sets["rule "+r.name+" need "+string(rune('1'+i))] = g
		}
		sets["rule "+r.name+" allow"] = r.allow
	}
	return sets
}

// TestEveryRuleWordHasADevelopmentMessage: every word a rule or a
// lifecycle check reads occurs, as Munshi reads it, in a training or
// development message, and every spelling the spelling table maps occurs
// as typed in one.
func TestEveryRuleWordHasADevelopmentMessage(t *testing.T) {
	ev := readEvidence(t)
	var missing []string
	for name, set := range ruleWordSets() {
		for w := range set {
			if !isPlaceholder(w) && !ev.canonical[w] && !ev.raw[w] {
				missing = append(missing, name+": "+w)
			}
		}
	}
	// Every other word list read through words(), wherever it is.
	for w := range known {
		if !isPlaceholder(w) && !ev.canonical[w] && !ev.raw[w] && !slices.ContainsFunc(missing, func(m string) bool { return strings.HasSuffix(m, ": "+w) }) {
			missing = append(missing, "word list: "+w)
		}
	}
	for spelling, canonical := range canonicalWords {
		if strings.Contains(spelling, " ") && allRaw(ev, spelling) {
			continue // a canonical form of two words ("haan ji") maps to itself
		}
		if !ev.raw[spelling] && !ev.raw[foldDevanagari(spelling)] {
			missing = append(missing, "spelling of "+strings.Join(canonical, " ")+": "+spelling)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d words have no training or development message:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

// masked is a message as typed, with its numbers and the names of
// products and customers masked: two messages that differ only in an
// order number, an amount or a name mask the same.
func masked(lex *lexicon, text string) string {
	lower := strings.ToLower(text)
	n := lex.normalize(lower)
	type span struct {
		start, end int
		ph         string
	}
	var spans []span
	for _, e := range n.Entities {
		if e.Kind != EntityProduct && e.Kind != EntityCustomer {
			continue
		}
		spans = append(spans, span{n.Tokens[e.Start].Start, n.Tokens[e.End-1].End, placeholders[e.Kind]})
	}
	var out []string
	for _, w := range splitWords(lower, nil) {
		word := w.text
		for _, s := range spans {
			if w.start >= s.start && w.end <= s.end {
				word = s.ph
			}
		}
		if strings.IndexFunc(word, func(r rune) bool { return (r < '0' || r > '9') && (r < '०' || r > '९') && r != '.' }) < 0 {
			word = "#"
		}
		if len(out) > 0 && out[len(out)-1] == word && isPlaceholder(word) {
			continue
		}
		out = append(out, word)
	}
	return strings.Join(out, " ")
}

// heldOutFiles are the splits nothing is tuned against.
var heldOutFiles = []string{"corpus/heldout.jsonl", "corpus/heldout-lifecycle.jsonl", "corpus/heldout-lifecycle-2.jsonl",
	"corpus/heldout-handoff.jsonl", "corpus/heldout-lifecycle-3.jsonl", "corpus/heldout-handoff-2.jsonl", "corpus/heldout-3.jsonl"}

// TestHeldOutHasNoNearCopies: no held-out message is a training or
// development message with another order number, amount or name.
func TestHeldOutHasNoNearCopies(t *testing.T) {
	vocab, err := corpusVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	lex := mustLexicon(vocab)
	seen := map[string]string{}
	for _, path := range evidenceFiles {
		for _, ex := range readCorpus(t, path) {
			seen[masked(lex, ex.Text)] = path + ": " + ex.Text
		}
	}
	for _, path := range heldOutFiles {
		for _, ex := range readCorpus(t, path) {
			// Only the line is named, so that the held-out text stays
			// unread; the training or development message is shown.
			if from, ok := seen[masked(lex, ex.Text)]; ok {
				t.Errorf("%s:%d is a near-copy of %s", path, ex.Line, from)
			}
		}
	}
}

// TestEveryNameAndMeasureWordHasADevelopmentMessage: the words read off
// customers' names (their trade, their title), the containers a dabba
// may be, and the measures a fraction with a slash is read before each
// occur in a development conversation or message, as typed.
func TestEveryNameAndMeasureWordHasADevelopmentMessage(t *testing.T) {
	ev := readEvidence(t)
	var words []string
	for w := range tradeNames {
		words = append(words, w)
	}
	for w := range titles {
		words = append(words, w)
	}
	for w := range containerWords {
		words = append(words, w)
	}
	words = append(words, fractionMeasures[:]...)
	var missing []string
	for _, w := range words {
		if !ev.raw[w] && !ev.raw[foldDevanagari(w)] {
			missing = append(missing, w)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no development message has %v", missing)
	}
}
