package intent

import (
	"bytes"
	"testing"
)

// TestFittingAModelLeavesTheSharedReadingAlone: the main and the office
// models are fitted at once from one reading of the corpus; each reads its
// examples with its own ordinary words and writes nothing the other
// reads, so neither depends on how the two were scheduled.
func TestFittingAModelLeavesTheSharedReadingAlone(t *testing.T) {
	exs, err := ReadExamples(bytes.NewReader(trainJSONL))
	if err != nil {
		t.Fatal(err)
	}
	rd, err := newCorpusReading()
	if err != nil {
		t.Fatal(err)
	}
	_, c := fitModel(exs[:300], rd)
	if rd.lex.known != nil {
		t.Fatal("fitting a model set the shared lexicon's ordinary words")
	}
	if len(c.known) == 0 {
		t.Fatal("the model's own ordinary words are empty")
	}
}
