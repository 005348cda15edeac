package intent

import (
	"math"
	"math/rand/v2"

	"github.com/munshi/munshi/internal/domain"
)

// The local model is a multinomial logistic regression (softmax) over
// hashed word, word-pair, character n-gram and entity-shape features.
//
// Logistic regression rather than naive Bayes: the features overlap by
// design (a word, the pairs it is part of and its character n-grams all say
// the same thing), and naive Bayes counts each of them as independent
// evidence, which makes its probabilities extreme and the abstain
// thresholds meaningless. Logistic regression weighs correlated features
// jointly, and its softmax, divided by a temperature fitted on
// cross-validated predictions, gives probabilities that mean what they say.
type model struct {
	rows        map[uint64]int32 // feature hash → row of weights
	weights     []float32        // len(rows) × classes, row-major
	bias        []float32
	temperature float64
	common      map[string]bool // words of at least two training messages
}

// classes is the number of intents; maxClasses sizes stack buffers.
var classes = len(domain.Intents)

const maxClasses = 16

func init() {
	if classes > maxClasses {
		panic("intent: more intents than maxClasses")
	}
}

func classOf(in domain.Intent) int {
	for i, x := range domain.Intents {
		if x == in {
			return i
		}
	}
	return -1
}

// example is a training message as features and its intent's index.
type example struct {
	feats []feature
	class int
	// group is the message the example was made from: a message and its
	// copy without names always fall in the same cross-validation fold.
	group int
}

// trainConfig holds the optimiser's settings. The defaults were chosen by
// cross-validation on the training corpus.
type trainConfig struct {
	epochs int
	rate   float64 // AdaGrad step
	l2     float64 // weight decay per update of a weight
	seed   uint64
}

var defaultTraining = trainConfig{epochs: 10, rate: 0.4, l2: 1e-4, seed: 7}

// trainModel fits the weights with AdaGrad on the cross-entropy loss, one
// example at a time in a seeded order, so the same corpus always gives the
// same model.
func trainModel(exs []example, cfg trainConfig) *model {
	m := &model{rows: map[uint64]int32{}, bias: make([]float32, classes), temperature: 1}
	type sparse struct {
		rows  []int32
		vals  []float32
		class int
	}
	data := make([]sparse, len(exs))
	for i, ex := range exs {
		d := sparse{rows: make([]int32, len(ex.feats)), vals: make([]float32, len(ex.feats)), class: ex.class}
		for j, f := range ex.feats {
			row, ok := m.rows[f.h]
			if !ok {
				row = int32(len(m.rows))
				m.rows[f.h] = row
			}
			d.rows[j], d.vals[j] = row, f.v
		}
		data[i] = d
	}
	m.weights = make([]float32, len(m.rows)*classes)
	sumSq := make([]float32, len(m.weights))
	biasSq := make([]float64, classes)

	order := make([]int, len(data))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(cfg.seed, cfg.seed^0x9e3779b97f4a7c15))
	var logit, grad [maxClasses]float64
	const eps = 1e-8
	l2, rate := float32(cfg.l2), float32(cfg.rate)
	for epoch := 0; epoch < cfg.epochs; epoch++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, idx := range order {
			d := data[idx]
			for k := 0; k < classes; k++ {
				logit[k] = float64(m.bias[k])
			}
			for j, row := range d.rows {
				w := m.weights[int(row)*classes : int(row)*classes+classes]
				v := float64(d.vals[j])
				for k := range w {
					logit[k] += v * float64(w[k])
				}
			}
			softmax(logit[:classes], 1, grad[:classes])
			grad[d.class]--
			for k := 0; k < classes; k++ {
				g := grad[k]
				biasSq[k] += g * g
				m.bias[k] -= float32(cfg.rate * g / math.Sqrt(biasSq[k]+eps))
			}
			for j, row := range d.rows {
				base := int(row) * classes
				w := m.weights[base : base+classes]
				sq := sumSq[base : base+classes]
				v := d.vals[j]
				for k := range w {
					g := float32(grad[k])*v + l2*w[k]
					sq[k] += g * g
					w[k] -= rate * g / float32(math.Sqrt(float64(sq[k])+eps))
				}
			}
		}
	}
	return m
}

// logits writes the raw class scores of a message's features.
func (m *model) logits(feats []feature, out []float64) {
	for k := range out {
		out[k] = float64(m.bias[k])
	}
	for _, f := range feats {
		row, ok := m.rows[f.h]
		if !ok {
			continue
		}
		base := int(row) * classes
		for k := range out {
			out[k] += float64(f.v) * float64(m.weights[base+k])
		}
	}
}

// probabilities writes the calibrated class probabilities.
func (m *model) probabilities(feats []feature, out []float64) {
	var logit [maxClasses]float64
	m.logits(feats, logit[:classes])
	softmax(logit[:classes], m.temperature, out)
}

func softmax(logits []float64, temperature float64, out []float64) {
	hi := math.Inf(-1)
	for _, z := range logits {
		hi = math.Max(hi, z)
	}
	var sum float64
	for k, z := range logits {
		out[k] = math.Exp((z - hi) / temperature)
		sum += out[k]
	}
	for k := range out {
		out[k] /= sum
	}
}

// crossValidate returns out-of-fold logits: each example scored by a model
// that never saw it. Folds are stratified by intent.
func crossValidate(exs []example, folds int, cfg trainConfig) [][]float64 {
	fold := make([]int, len(exs))
	next := make([]int, classes)
	groupFold := map[int]int{}
	for i, ex := range exs {
		f, ok := groupFold[ex.group]
		if !ok {
			f = next[ex.class] % folds
			next[ex.class]++
			groupFold[ex.group] = f
		}
		fold[i] = f
	}
	oof := make([][]float64, len(exs))
	for f := 0; f < folds; f++ {
		var train []example
		for i, ex := range exs {
			if fold[i] != f {
				train = append(train, ex)
			}
		}
		m := trainModel(train, cfg)
		for i, ex := range exs {
			if fold[i] == f {
				oof[i] = make([]float64, classes)
				m.logits(ex.feats, oof[i])
			}
		}
	}
	return oof
}

// fitTemperature picks the temperature that minimises the negative
// log-likelihood of predictions on messages the model did not learn from
// (the development split, or held-out folds): temperature scaling, the
// simplest calibration that keeps the ranking of intents unchanged.
func fitTemperature(oof [][]float64, exs []example) float64 {
	best, bestNLL := 1.0, math.Inf(1)
	prob := make([]float64, classes)
	for t := 0.25; t <= 6; t *= 1.03 {
		var nll float64
		for i, z := range oof {
			softmax(z, t, prob)
			nll -= math.Log(math.Max(prob[exs[i].class], 1e-12))
		}
		if nll < bestNLL {
			best, bestNLL = t, nll
		}
	}
	return best
}

// topTwo are the indices of the two largest probabilities.
func topTwo(p []float64) (int, int) {
	top, second := 0, 1
	if p[1] > p[0] {
		top, second = 1, 0
	}
	for k := 2; k < len(p); k++ {
		switch {
		case p[k] > p[top]:
			top, second = k, top
		case p[k] > p[second]:
			second = k
		}
	}
	return top, second
}
