package orders

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/munshi/munshi/intent"
)

// developmentTexts are the messages of the development and training files
// at paths (below the repository's root): each line's text and each turn
// of a conversation. The held-out files are never read.
func developmentTexts(t *testing.T, paths ...string) []string {
	t.Helper()
	var out []string
	for _, path := range paths {
		f, err := os.Open(filepath.Join("..", path))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var line struct {
				Text  string   `json:"text"`
				Turns []string `json:"turns"`
			}
			if json.Unmarshal(sc.Bytes(), &line) != nil {
				continue
			}
			out = append(append(out, line.Turns...), line.Text)
		}
		f.Close()
	}
	return out
}

// developmentWords are the canonical words of every development message:
// the development conversations' turns and the labelled development and
// training messages.
func developmentWords(t *testing.T) map[string]bool {
	t.Helper()
	seen := map[string]bool{}
	dialogs, err := filepath.Glob("../internal/dialogs/testdata/dev*/dialogs.jsonl")
	if err != nil || len(dialogs) == 0 {
		t.Fatalf("no development conversations: %v", err)
	}
	fresh, err := filepath.Glob("../intent/corpus/dev-fresh*.jsonl")
	if err != nil || len(fresh) == 0 {
		t.Fatalf("no fresh development splits: %v", err)
	}
	dialogs = append(dialogs, fresh...)
	for i := range dialogs {
		dialogs[i] = strings.TrimPrefix(dialogs[i], "../")
	}
	for _, text := range developmentTexts(t, append(dialogs,
		"intent/corpus/dev.jsonl",
		"intent/corpus/train.jsonl", "intent/corpus/dev-lifecycle.jsonl")...) {
		for _, tok := range intent.Normalize(text).Tokens {
			seen[tok.Text] = true
		}
	}
	return seen
}

// TestAnswerAndCorrectionWordsComeFromDevelopment: every word the readers
// of answers and corrections know is written in a development message,
// so that none was taken from the held-out conversations.
func TestAnswerAndCorrectionWordsComeFromDevelopment(t *testing.T) {
	seen := developmentWords(t)
	lists := map[string]map[string]bool{"negations": negations, "removeWords": removeWords, "dropWords": dropWords, "addWords": addWords, "alsoWords": alsoWords, "paymentFixWords": paymentFixWords,
		"wantWords": wantWords, "sendWords": sendWords, "changeVerbs": changeVerbs, "customerMarkers": customerMarkers,
		"answerFillers": answerFillers, "ofWords": ofWords, "ownedWords": ownedWords,
		"mistakeWords": mistakeWords, "dayWords": dayWords, "placeWords": placeWords, "wala": wala,
		"insteadWords": insteadWords, "reduceWords": reduceWords, "insteadOf": insteadOf}
	for _, m := range []map[string]int{positions, sizeWords, sizeNames} {
		set := map[string]bool{}
		for w := range m {
			set[w] = true
		}
		lists["positions/sizes"] = merge(lists["positions/sizes"], set)
	}
	for name, words := range lists {
		var missing []string
		for w := range words {
			if !seen[intent.Normalize(w).Text] {
				missing = append(missing, w)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s: %q are in no development message", name, missing)
		}
	}
}

func merge(a, b map[string]bool) map[string]bool {
	if a == nil {
		a = map[string]bool{}
	}
	for w := range b {
		a[w] = true
	}
	return a
}
