package conversation

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/munshi/munshi/intent"
)

// TestFollowUpWordsComeFromDevelopment: every word that opens or fills a
// follow-up is written in a development conversation, so that none was
// taken from the held-out ones.
func TestFollowUpWordsComeFromDevelopment(t *testing.T) {
	f, err := os.Open("../dialogs/testdata/dev/dialogs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var d struct{ Turns []string }
		if json.Unmarshal(sc.Bytes(), &d) != nil {
			continue
		}
		for _, turn := range d.Turns {
			for _, tok := range intent.Normalize(turn).Tokens {
				seen[tok.Text] = true
			}
		}
	}
	for _, words := range []map[string]bool{continuers, followUpFillers} {
		for w := range words {
			if !seen[intent.Normalize(w).Text] {
				t.Errorf("%q is in no development conversation", w)
			}
		}
	}
}
