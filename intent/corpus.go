package intent

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// The training corpus: labelled WhatsApp messages, and the product and
// customer names they mention. The names only serve to turn those mentions
// into placeholders while training, so the model learns the structure of a
// message ("NUM UNIT PRODUCT bhejo") and not one distributor's catalog.
//
// The model never learns from the development split; its confidences are
// calibrated on it (corpus/dev.jsonl and corpus/dev-lifecycle.jsonl): the
// temperature that makes them say how often the model is right there. The
// held-out splits (corpus/heldout*.jsonl) are never read here.
var (
	//go:embed corpus/train.jsonl
	trainJSONL []byte
	//go:embed corpus/dev.jsonl
	devJSONL []byte
	//go:embed corpus/dev-lifecycle.jsonl
	devLifecycleJSONL []byte
	//go:embed corpus/names.json
	namesJSON []byte
	//go:embed corpus/train-handoff.jsonl
	trainHandoffJSONL []byte
)

// corpusNames is the shape of corpus/names.json: each entry a name and its
// aliases.
type corpusNames struct {
	Products  [][]string `json:"products"`
	Customers [][]string `json:"customers"`
	Units     []string   `json:"units"`
}

func corpusVocabulary() (Vocabulary, error) {
	var cn corpusNames
	if err := json.Unmarshal(namesJSON, &cn); err != nil {
		return Vocabulary{}, fmt.Errorf("intent: corpus names: %w", err)
	}
	v := Vocabulary{trained: true}
	for i, names := range cn.Products {
		if len(names) == 0 {
			continue
		}
		p := domain.Product{SKU: "P" + strconv.Itoa(i+1), Name: names[0], Aliases: names[1:]}
		if i == 0 {
			for _, u := range cn.Units {
				p.PackSizes = append(p.PackSizes, domain.PackSize{Name: u, Units: 1})
			}
		}
		v.Products = append(v.Products, p)
	}
	for i, names := range cn.Customers {
		if len(names) == 0 {
			continue
		}
		v.Customers = append(v.Customers, domain.Customer{ID: "C" + strconv.Itoa(i+1), Name: names[0], Aliases: names[1:]})
	}
	return v, nil
}

// training is the model every Router shares: trained once per process from
// the embedded corpus, independent of any catalog.
type training struct {
	model *model
	// office is the office model (office.go), read for a message every
	// other tier left unread and of the main model's orders and questions.
	office *model
	// known are the ordinary words of the corpus: words no catalog name
	// is matched to by typo.
	known map[string]struct{}
	// replies are the words of the corpus's confirmations and
	// cancellations: the model may only confirm or cancel a message made of
	// them, so "ola driver ne cancel kar diya" is never a cancellation.
	replies  map[string]bool
	examples int
	duration time.Duration
	err      error
}

var (
	trainOnce sync.Once
	trained   training
)

func sharedTraining() training {
	trainOnce.Do(func() { trained = train() })
	return trained
}

func train() training {
	start := time.Now()
	exs, err := ReadExamples(bytes.NewReader(trainJSONL))
	if err != nil {
		return training{err: fmt.Errorf("intent: training corpus: %w", err)}
	}
	rd, err := newCorpusReading()
	if err != nil {
		return training{err: err}
	}
	office := make(chan trainedModel, 1)
	go func() { office <- trainOffice(exs, rd) }()
	m, c := fitModel(exs, rd)
	o := <-office
	if o.err != nil {
		return training{err: o.err}
	}
	return training{model: m, office: o.model, known: c.known, replies: c.replies, examples: len(exs), duration: time.Since(start)}
}

// corpusReading is what every model is trained and calibrated with, read
// once for all of them: the corpus names' lexicon and the development
// split as it normalises it.
type corpusReading struct {
	lex *lexicon
	dev []devMessage
}

// devMessage is a development message as read, with its intent's class.
type devMessage struct {
	n     Normalized
	class int
}

func newCorpusReading() (corpusReading, error) {
	vocab, err := corpusVocabulary()
	if err != nil {
		return corpusReading{}, err
	}
	lex, err := newLexicon(vocab)
	if err != nil {
		return corpusReading{}, fmt.Errorf("intent: corpus names: %w", err)
	}
	rd := corpusReading{lex: lex}
	for _, raw := range [][]byte{devJSONL, devLifecycleJSONL} {
		exs, err := ReadExamples(bytes.NewReader(raw))
		if err != nil {
			return corpusReading{}, fmt.Errorf("intent: development split: %w", err)
		}
		for _, ex := range exs {
			if class := classOf(ex.Intent); class >= 0 {
				rd.dev = append(rd.dev, devMessage{lex.normalize(ex.Text), class})
			}
		}
	}
	return rd, nil
}

// fitModel trains a model on exs, their names read as placeholders, and
// fits its temperature on the development split.
func fitModel(exs []Example, rd corpusReading) (*model, prepared) {
	// Each model reads its corpus with the ordinary words of its own
	// examples (prepare sets them on the lexicon), and the two models are
	// trained at once: each gets its own copy of the lexicon's header,
	// sharing the names, which nothing writes.
	lex := *rd.lex
	c := prepare(exs, &lex)
	m := trainModel(c.data, defaultTraining)
	dev := rd.calibrationSet(c.common)
	m.temperature = fitTemperature(dev.logits(m), dev.examples)
	m.common = c.common
	return m, c
}

// calibration is the development split as the model reads it.
type calibration struct{ examples []example }

// calibrationSet is the development split's messages as features, the
// way the router reads a message, with the training corpus's words.
func (rd corpusReading) calibrationSet(common map[string]bool) calibration {
	c := calibration{examples: make([]example, 0, len(rd.dev))}
	for _, d := range rd.dev {
		c.examples = append(c.examples, example{feats: extract(shapeOf(d.n, nil), d.n.Question, common, nil), class: d.class})
	}
	return c
}

// logits are m's logits for each example.
func (c calibration) logits(m *model) [][]float64 {
	out := make([][]float64, len(c.examples))
	for i, ex := range c.examples {
		out[i] = make([]float64, classes)
		m.logits(ex.feats, out[i])
	}
	return out
}

// prepared is the corpus made ready for training.
type prepared struct {
	data    []example
	shapes  [][]string   // of each message, by index in the corpus
	norm    []Normalized // of each message
	first   []int        // index in data of each message's own example
	common  map[string]bool
	known   map[string]struct{}
	replies map[string]bool
}

func prepare(exs []Example, lex *lexicon) prepared {
	c := prepared{common: map[string]bool{}, known: ordinaryWords(exs, lex), replies: map[string]bool{}}
	lex.known = c.known
	seen, inReplies := map[string]int{}, map[string]int{}
	for _, ex := range exs {
		n := lex.normalize(ex.Text)
		shape := shapeOf(n, nil)
		c.norm, c.shapes = append(c.norm, n), append(c.shapes, shape)
		once := map[string]bool{}
		for _, w := range shape {
			if once[w] {
				continue
			}
			once[w] = true
			if !isPlaceholder(w) {
				seen[w]++
			}
			if ex.Intent == domain.IntentConfirm || ex.Intent == domain.IntentCancel {
				inReplies[w]++
			}
		}
	}
	for w, k := range seen {
		if k >= 2 {
			c.common[w] = true
		}
	}
	// A reply's words are those of two replies or more: a word one reply
	// happened to hold ("ok, lekin GC ka rate kya hai") is not yet a word
	// that replies are made of, when other messages hold it too.
	// So is a word of one reply that no other message holds: in a
	// language few replies are written in ("sari, kalsi"), it is still a
	// word only replies are made of.
	for w, k := range inReplies {
		if k >= 2 || seen[w] == 1 {
			c.replies[w] = true
		}
	}
	for g, ex := range exs {
		class, shape, q := classOf(ex.Intent), c.shapes[g], c.norm[g].Question
		c.first = append(c.first, len(c.data))
		c.data = append(c.data, example{feats: extract(shape, q, c.common, nil), class: class, group: g})
		// The same message as if its names were missing from the
		// catalog: customers are often not in it yet, and people name
		// products the catalog spells differently.
		if unseen, ok := withoutNames(shape); ok {
			c.data = append(c.data, example{feats: extract(unseen, q, c.common, nil), class: class, group: g})
		}
	}
	return c
}

// ordinaryWords are the corpus's words that are not names: those of the
// out-of-scope messages, and those seen in two messages or more (a typo of
// a name is rarely made twice). No name is ever matched to them by typo, so
// "gaadi" does not become the detergent "Ghadi".
func ordinaryWords(exs []Example, lex *lexicon) map[string]struct{} {
	names := map[string]bool{}
	for _, w := range lex.wordText {
		names[w] = true
	}
	count := map[string]int{}
	known := map[string]struct{}{}
	for _, ex := range exs {
		once := map[string]bool{}
		for _, t := range emptyLexicon.normalize(ex.Text).Tokens {
			w := t.Text
			if names[w] || !fuzzyWord(w) || once[w] {
				continue
			}
			once[w] = true
			count[w]++
			if ex.Intent == domain.IntentUnknown || count[w] >= 2 {
				known[w] = struct{}{}
			}
		}
	}
	return known
}

// withoutNames replaces product and customer placeholders by unseenName.
func withoutNames(shape []string) ([]string, bool) {
	var out []string
	for i, w := range shape {
		if w == phProduct || w == phCustomer {
			if out == nil {
				out = append([]string(nil), shape...)
			}
			out[i] = unseenName
		}
	}
	return out, out != nil
}
