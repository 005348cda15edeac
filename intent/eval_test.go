package intent

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
)

func TestReadExamples(t *testing.T) {
	in := `{"text":"hi","intent":"greeting"}

{"text":"Rajesh ko 5 GC","intent":"order","customer":"C01","payment":null,"items":[{"sku":"GC500","qty":5}]}
`
	exs, err := ReadExamples(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 2 || exs[1].Line != 3 || exs[1].Intent != domain.IntentOrder {
		t.Fatalf("got %+v", exs)
	}
	if string(exs[1].Fields["customer"]) != `"C01"` || string(exs[1].Fields["items"]) != `[{"sku":"GC500","qty":5}]` {
		t.Errorf("extra fields must be kept as written: %v", exs[1].Fields)
	}
	if _, ok := exs[1].Fields["text"]; ok {
		t.Error("text is a field of Example, not of Fields")
	}

	for _, bad := range []struct{ in, want string }{
		{"{\"text\":\"hi\",\"intent\":\"greeting\"}\nnot json\n", "intent: line 2: "},
		{`{"text":"","intent":"greeting"}`, `intent: line 1: want a non-empty string "text"`},
		{`{"intent":"greeting"}`, `intent: line 1: want a non-empty string "text"`},
		{`{"text":"hi"}`, `intent: line 1: want a string "intent"`},
		{`{"text":"hi","intent":"refund"}`, `intent: line 1: unknown intent "refund"`},
	} {
		if _, err := ReadExamples(strings.NewReader(bad.in)); err == nil || !strings.HasPrefix(err.Error(), bad.want) {
			t.Errorf("ReadExamples(%q) error = %v, want %q…", bad.in, err, bad.want)
		}
	}
}

func readCorpus(t *testing.T, path string) []Example {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	exs, err := ReadExamples(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return exs
}

// The corpus covers every intent, keeps several hundred out-of-scope
// messages, and the development splits share no message with training.
// The calibrated development splits hold at least a thousand messages,
// enough to fit the model's temperature on (they were a sixth of the
// corpus until training grew by messages of other writers).
func TestCorpusSplit(t *testing.T) {
	train := readCorpus(t, "corpus/train.jsonl")
	held := append(readCorpus(t, "corpus/dev.jsonl"), readCorpus(t, "corpus/dev-lifecycle.jsonl")...)
	if n := len(train) + len(held); n < 800 || len(held) < 1000 {
		t.Errorf("%d training and %d held-out messages", len(train), len(held))
	}
	seen := map[string]bool{}
	count := map[domain.Intent]int{}
	for _, ex := range train {
		seen[strings.ToLower(ex.Text)] = true
		count[ex.Intent]++
	}
	for _, ex := range held {
		if seen[strings.ToLower(ex.Text)] {
			t.Errorf("development message %q is also in training", ex.Text)
		}
		count[ex.Intent]++
	}
	for _, in := range domain.Intents {
		// The main model is not taught handing over: the office model
		// is (office.go, corpus/train-handoff.jsonl), read apart from
		// it.
		if in == domain.IntentHandoff {
			continue
		}
		if count[in] < 40 {
			t.Errorf("%s has only %d messages", in, count[in])
		}
	}
	if count[domain.IntentUnknown] < 300 {
		t.Errorf("only %d out-of-scope messages", count[domain.IntentUnknown])
	}
}

// evaluateSplit routes a labelled split with the demo distributor's
// catalog and holds the local tiers to their bars: the share of in-scope
// messages they resolve, and their precision (in scope and over all).
func evaluateSplit(t *testing.T, path string, coverage, precision float64) Report {
	t.Helper()
	rep := Evaluate(context.Background(), demoRouter(t), readCorpus(t, path))
	if testing.Verbose() {
		rep.Write(os.Stdout)
	}
	if rep.Coverage < coverage {
		t.Errorf("%s: coverage %.3f < %.2f", path, rep.Coverage, coverage)
	}
	if rep.LocalPrecision < precision || rep.AllLocalPrecision < precision {
		t.Errorf("%s: precision %.3f (in scope) and %.3f (all) must be ≥ %.2f", path, rep.LocalPrecision, rep.AllLocalPrecision, precision)
	}
	return rep
}

// The development split, routed with the demo distributor's catalog: the
// local tiers must resolve most in-scope messages and be right when they
// do, and never invent a confirmation, a cancellation or an order.
func TestDevSet(t *testing.T) {
	rep := evaluateSplit(t, "corpus/dev.jsonl", 0.90, 0.97)
	// The model's confidence is calibrated (its temperature is fitted on
	// the development splits): there it is right about as often as it
	// says (0.025 expected calibration error when measured).
	if ece := rep.CalibrationError(); ece > 0.06 {
		t.Errorf("expected calibration error %.3f on the development split", ece)
	}
	if rep.FalseConfirm != 0 || rep.FalseCancel != 0 || rep.UnknownAsOrder != 0 {
		t.Errorf("false confirm %d, false cancel %d, unknown as order %d", rep.FalseConfirm, rep.FalseCancel, rep.UnknownAsOrder)
	}
}

// The lifecycle development split: deliveries, payments, goods received
// and order-status questions, with the messages most easily confused with
// them. The local tiers resolve most of them, and not one message becomes
// a delivery, a payment or goods received that is not one.
func TestDevLifecycle(t *testing.T) {
	rep := evaluateSplit(t, "corpus/dev-lifecycle.jsonl", 0.90, 0.97)
	if n := rep.FalseDelivery + rep.FalsePayment + rep.FalseStockReceived; n != 0 {
		t.Errorf("false delivery %d, false payment %d, false stock received %d", rep.FalseDelivery, rep.FalsePayment, rep.FalseStockReceived)
	}
	if rep.FalseOrder != 0 || rep.FalseConfirm != 0 || rep.FalseCancel != 0 {
		t.Errorf("false order %d, confirm %d, cancel %d", rep.FalseOrder, rep.FalseConfirm, rep.FalseCancel)
	}
	for _, in := range []domain.Intent{domain.IntentDelivery, domain.IntentPayment, domain.IntentStockReceived, domain.IntentOrderStatus} {
		if s := rep.Intents[classOf(in)]; s.Precision < 0.95 || s.Recall < 0.85 {
			t.Errorf("%s: precision %.3f, recall %.3f", in, s.Precision, s.Recall)
		}
	}
}

func TestReportWrite(t *testing.T) {
	r := demoRouter(t)
	exs := []Example{
		{Text: "ok", Intent: domain.IntentConfirm},
		{Text: "GC ka stock kitna hai?", Intent: domain.IntentStock},
		{Text: "gaana bajao", Intent: domain.IntentUnknown},
		{Text: "hi", Intent: domain.IntentHelp}, // mislabelled on purpose
	}
	rep := Evaluate(context.Background(), r, exs)
	if rep.Total != 4 || rep.Correct != 3 || len(rep.Misrouted) != 1 || rep.InScope != 3 {
		t.Fatalf("report %+v", rep)
	}
	if rep.Confusion[classOf(domain.IntentHelp)][classOf(domain.IntentGreeting)] != 1 {
		t.Error("the mislabelled greeting must sit at help→greeting")
	}
	if s := rep.Intents[classOf(domain.IntentConfirm)]; s.Precision != 1 || s.Recall != 1 || s.Support != 1 {
		t.Errorf("confirm scores %+v", s)
	}
	var b strings.Builder
	if err := rep.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"precision", "recall", "f1-score", "support", "accuracy", "macro avg", "weighted avg",
		"Resolved by tier:", "Coverage of in-scope", "False order: 0", "Latency: mean",
		"Confusion matrix", "Misrouted (1)", `"hi"`, "False delivery: 0  false payment: 0  false stock received: 0",
		"order_status", " deliv paymt recvd ostat hando colln\n", "Handed over to the office: 0 at once",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// Every intent has a column heading of its own.
func TestColumnHeadings(t *testing.T) {
	seen := map[string]domain.Intent{}
	for _, in := range domain.Intents {
		h := abbrev(in)
		if other, ok := seen[h]; ok || len(h) > 5 {
			t.Errorf("%s and %s are both headed %q", in, other, h)
		}
		seen[h] = in
	}
}

// A message misread as a delivery, a payment or goods received is counted
// as such; one misread as order status is not a false state change.
func TestEvaluateCountsFalseRecords(t *testing.T) {
	exs := []Example{
		{Text: "ORD-1042 delivered", Intent: domain.IntentOrderStatus},
		{Text: "Sharma ji 25k UPI", Intent: domain.IntentOutstanding},
		{Text: "GC 100 carton aaya", Intent: domain.IntentStock},
		{Text: "mera order status", Intent: domain.IntentPendingOrders},
	}
	rep := Evaluate(context.Background(), demoRouter(t), exs)
	if rep.FalseDelivery != 1 || rep.FalsePayment != 1 || rep.FalseStockReceived != 1 || rep.Correct != 0 {
		t.Errorf("false delivery %d, payment %d, stock received %d, correct %d",
			rep.FalseDelivery, rep.FalsePayment, rep.FalseStockReceived, rep.Correct)
	}
	if s := rep.Intents[classOf(domain.IntentOrderStatus)]; s.Predicted != 1 || s.Support != 1 || s.Precision != 0 {
		t.Errorf("order status scores %+v", s)
	}
}

// Training is part of start-up, and the same corpus must always give the
// same model. How long it takes is BenchmarkTrain's to say; the test only
// logs it.
func TestTraining(t *testing.T) {
	tr := sharedTraining()
	if tr.err != nil {
		t.Fatal(tr.err)
	}
	t.Logf("trained on %d messages in %s", tr.examples, tr.duration)
	if tr.model.temperature <= 0.25 || tr.model.temperature >= 6 {
		t.Errorf("temperature %.2f sits at the edge of its search", tr.model.temperature)
	}
	if raceEnabled {
		// Retraining single-threaded code is slow and tells the race
		// detector nothing; .ci/run checks determinism without -race.
		return
	}
	again := train()
	if len(again.model.weights) != len(tr.model.weights) || again.model.temperature != tr.model.temperature {
		t.Fatal("training is not deterministic")
	}
	for i := range again.model.weights {
		if again.model.weights[i] != tr.model.weights[i] {
			t.Fatal("training is not deterministic")
		}
	}
}

// TestCrossValidated routes the training corpus with out-of-fold model
// probabilities (each message scored by a model that never saw it) through
// the rules and the default thresholds: the figures the defaults were
// chosen on. A corpus edit that breaks them shows here.
func TestCrossValidated(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("trains five models, single-threaded: nothing for the race detector; .ci/run runs it without -race")
	}
	exs, err := ReadExamples(bytes.NewReader(trainJSONL))
	if err != nil {
		t.Fatal(err)
	}
	vocab, err := corpusVocabulary()
	if err != nil {
		t.Fatal(err)
	}
	lex, err := newLexicon(vocab)
	if err != nil {
		t.Fatal(err)
	}
	c := prepare(exs, lex)
	oof := crossValidate(c.data, 5, defaultTraining)
	temp := fitTemperature(oof, c.data)
	r := demoRouter(t)
	p := make([]float64, classes)
	var inScope, local, right, wrongState int
	for g, ex := range exs {
		in, decided := domain.IntentUnknown, false
		if rule, _, ok := byRules(c.shapes[g], c.norm[g]); ok {
			in, decided = rule, true
		} else {
			softmax(oof[c.first[g]], temp, p)
			in, _, decided = r.judge(p, c.norm[g], c.shapes[g])
		}
		if !decided {
			in = domain.IntentUnknown
		}
		if in != ex.Intent && (in == domain.IntentOrder || in == domain.IntentConfirm || in == domain.IntentCancel) {
			wrongState++
			t.Logf("%q: %s, labelled %s", ex.Text, in, ex.Intent)
		}
		if ex.Intent == domain.IntentUnknown {
			continue
		}
		inScope++
		if decided {
			local++
			if in == ex.Intent {
				right++
			}
		}
	}
	coverage, precision := ratio(local, inScope), ratio(right, local)
	t.Logf("cross-validated: coverage %.4f, precision %.4f, temperature %.2f", coverage, precision, temp)
	// The bar on coverage sits at 0.83 since the corpus gained messages
	// in freer forms (collections, deliveries without the word, Devanagari
	// payments) and then 3,648 by writers who saw only the conventions,
	// many in Gujarati, Marathi or Bengali that only a few messages hold:
	// cross-validated, the model alone decides fewer of them (0.918 before
	// those messages, 0.883 with the first 2,669, 0.843 with all). Its
	// precision went from 0.973 to 0.968, mostly help and greetings in
	// those languages read as unknown.
	if coverage < 0.83 || precision < 0.965 || wrongState > 3 {
		t.Errorf("coverage %.3f, precision %.3f, %d false orders/confirms/cancels", coverage, precision, wrongState)
	}
}

// The held-out split, written by people who never saw the rules, routed
// with the demo distributor's catalog. Nothing is tuned against it: the
// bars sit a little under what the rules scored when it was written, so
// they catch a regression without inviting anyone to fit it. Its safety
// properties are absolute. Once the training corpus lost its near-copies
// of held-out messages and the model abstained on questions that name
// nothing of the books, it measured coverage 0.868 at precision 0.957.
func TestHeldOut(t *testing.T) {
	rep := evaluateSplit(t, "corpus/heldout.jsonl", 0.84, 0.94)
	if rep.FalseConfirm != 0 || rep.FalseCancel != 0 || rep.UnknownAsOrder != 0 || rep.FalseOrder != 0 {
		t.Errorf("false confirm %d, false cancel %d, false order %d, unknown as order %d",
			rep.FalseConfirm, rep.FalseCancel, rep.FalseOrder, rep.UnknownAsOrder)
	}
}

// The third general held-out split, written by a writer who saw only the
// conventions, the catalog and the customer list, committed before
// anything was measured on it (less its near-copies of training and
// development messages): measured at coverage 0.852, precision 0.973,
// 12.1 messages per 100 left to the LLM, no false order, confirmation or
// cancellation. The bars sit a little under that; the safety properties
// are absolute.
func TestHeldOutGeneralThird(t *testing.T) {
	rep := evaluateSplit(t, "corpus/heldout-3.jsonl", 0.82, 0.95)
	if rep.FalseConfirm != 0 || rep.FalseCancel != 0 || rep.UnknownAsOrder != 0 || rep.FalseOrder != 0 ||
		rep.FalseDelivery != 0 || rep.FalsePayment != 0 || rep.FalseStockReceived != 0 || rep.UnknownHandedOver != 0 {
		t.Errorf("false confirm %d, cancel %d, order %d, unknown as order %d, delivery %d, payment %d, stock received %d, unknown handed over %d",
			rep.FalseConfirm, rep.FalseCancel, rep.FalseOrder, rep.UnknownAsOrder, rep.FalseDelivery, rep.FalsePayment,
			rep.FalseStockReceived, rep.UnknownHandedOver)
	}
}

// The lifecycle held-out split (deliveries, payments, goods received,
// order status and their look-alikes), written before any rule for them
// and measured once they were built: coverage 0.822, precision 0.933 in
// scope, no false delivery, payment or goods received, and four messages
// read as orders that were not (an order shows a summary, and places
// nothing without an ok). The bars sit a little under that, to catch a regression
// without inviting anyone to fit it.
func TestHeldOutLifecycle(t *testing.T) {
	rep := evaluateSplit(t, "corpus/heldout-lifecycle.jsonl", 0.80, 0.92)
	if rep.FalseDelivery != 0 || rep.FalsePayment != 0 || rep.FalseStockReceived != 0 || rep.FalseConfirm != 0 || rep.FalseCancel != 0 {
		t.Errorf("false delivery %d, payment %d, stock received %d, confirm %d, cancel %d",
			rep.FalseDelivery, rep.FalsePayment, rep.FalseStockReceived, rep.FalseConfirm, rep.FalseCancel)
	}
	if rep.FalseOrder > 4 || rep.UnknownAsOrder != 0 {
		t.Errorf("false order %d (4 when measured), unknown as order %d", rep.FalseOrder, rep.UnknownAsOrder)
	}
}

// The fresh lifecycle held-out split, written before the rules for
// deliveries without the word, collections and order status by place or
// time: measured once they were built at coverage 0.836, precision 0.996,
// no false order and no false delivery, payment or goods received. The
// bars sit a little under that; the safety properties are absolute.
func TestHeldOutLifecycleFresh(t *testing.T) {
	rep := evaluateSplit(t, "corpus/heldout-lifecycle-2.jsonl", 0.82, 0.98)
	if rep.FalseDelivery != 0 || rep.FalsePayment != 0 || rep.FalseStockReceived != 0 || rep.FalseConfirm != 0 || rep.FalseCancel != 0 {
		t.Errorf("false delivery %d, payment %d, stock received %d, confirm %d, cancel %d",
			rep.FalseDelivery, rep.FalsePayment, rep.FalseStockReceived, rep.FalseConfirm, rep.FalseCancel)
	}
	if rep.FalseOrder > 1 || rep.UnknownAsOrder != 0 {
		t.Errorf("false order %d (0 when measured), unknown as order %d", rep.FalseOrder, rep.UnknownAsOrder)
	}
}

// The third lifecycle held-out split, written by a writer who saw only
// the conventions, the catalog and the customer list, and committed
// before anything was measured on it (less its near-copies of training
// and development messages): measured at coverage 0.969, precision 0.996,
// recall 0.955 delivery, 1.000 payment and goods received, 0.921 order
// status, 2.8 messages per 100 left to the LLM, and no false order or
// record. The bars sit a little under that; the safety properties are
// absolute.
func TestHeldOutLifecycleThird(t *testing.T) {
	rep := evaluateSplit(t, "corpus/heldout-lifecycle-3.jsonl", 0.94, 0.98)
	if rep.FalseDelivery != 0 || rep.FalsePayment != 0 || rep.FalseStockReceived != 0 || rep.FalseConfirm != 0 ||
		rep.FalseCancel != 0 || rep.FalseOrder != 0 || rep.UnknownAsOrder != 0 {
		t.Errorf("false delivery %d, payment %d, stock received %d, confirm %d, cancel %d, order %d, unknown as order %d",
			rep.FalseDelivery, rep.FalsePayment, rep.FalseStockReceived, rep.FalseConfirm, rep.FalseCancel, rep.FalseOrder,
			rep.UnknownAsOrder)
	}
}

// The handoff held-out split (asking for a person, disputes, and calls
// and people that are not the office's), written before the handoff
// rules and never tuned against: measured once they were built, 9 of
// its 20 handoffs handed over and none of its other messages. The bar on
// recall sits a little under that; a false handoff of an unknown message
// is absolute (the office would hear of a salesperson's "mummy ko call
// karo"), and so are false confirmations and cancellations.
func TestHeldOutHandoff(t *testing.T) {
	rep := Evaluate(context.Background(), demoRouter(t), readCorpus(t, "corpus/heldout-handoff.jsonl"))
	s := rep.Intents[classOf(domain.IntentHandoff)]
	t.Logf("handoff: recall %.3f, precision %.3f; handed over %d, unknown handed over %d, unread %d",
		s.Recall, s.Precision, rep.HandOver, rep.UnknownHandedOver, rep.Unread)
	if s.Recall < 0.40 || rep.HandOver != s.Predicted || s.Precision < 1 {
		t.Errorf("handoff recall %.3f (0.45 when measured), precision %.3f", s.Recall, s.Precision)
	}
	if rep.UnknownHandedOver != 0 || rep.FalseConfirm != 0 || rep.FalseCancel != 0 || rep.FalseOrder != 0 {
		t.Errorf("unknown handed over %d, false confirm %d, cancel %d, order %d",
			rep.UnknownHandedOver, rep.FalseConfirm, rep.FalseCancel, rep.FalseOrder)
	}
}

// The second handoff held-out split, written like the third lifecycle
// one: measured at recall 0.667 with no unknown message handed over, and
// at 0.917 once the handoffs of dev-handoff.jsonl were read, 0.958 once
// those of dev-handoff-2.jsonl were, 1.0 with the office model. A false
// handoff is absolute.
func TestHeldOutHandoffSecond(t *testing.T) {
	rep := Evaluate(context.Background(), demoRouter(t), readCorpus(t, "corpus/heldout-handoff-2.jsonl"))
	s := rep.Intents[classOf(domain.IntentHandoff)]
	t.Logf("handoff: recall %.3f, precision %.3f; handed over %d, unknown handed over %d, unread %d",
		s.Recall, s.Precision, rep.HandOver, rep.UnknownHandedOver, rep.Unread)
	if s.Recall < 0.85 || s.Precision < 1 || rep.UnknownHandedOver != 0 || rep.FalseOrder != 0 {
		t.Errorf("handoff recall %.3f (1.0 when last measured), precision %.3f, unknown handed over %d, false order %d",
			s.Recall, s.Precision, rep.UnknownHandedOver, rep.FalseOrder)
	}
}

// No held-out message is in training or in a development split. Only the
// count of shared messages is reported, so the held-out text stays unread.
func TestHeldOutIsSeparate(t *testing.T) {
	seen := map[string]string{}
	for _, split := range []string{"train", "dev", "dev-lifecycle", "dev-rules", "dev-spellings", "dev-strangers", "dev-everyday", "dev-handoff", "dev-handoff-2", "dev-handoff-3",
		"dev-fresh", "dev-fresh-2", "dev-fresh-3", "dev-fresh-4", "dev-fresh-5", "dev-fresh-6", "dev-fresh-7"} {
		for _, ex := range readCorpus(t, "corpus/"+split+".jsonl") {
			seen[strings.ToLower(ex.Text)] = split
		}
	}
	for _, held := range []string{"heldout", "heldout-lifecycle", "heldout-lifecycle-2", "heldout-handoff", "heldout-lifecycle-3",
		"heldout-handoff-2", "heldout-3"} {
		shared := map[string]int{}
		for _, ex := range readCorpus(t, "corpus/"+held+".jsonl") {
			if split, ok := seen[strings.ToLower(ex.Text)]; ok {
				shared[split]++
			}
		}
		if len(shared) > 0 {
			t.Errorf("%s shares messages with other splits: %v", held, shared)
		}
	}
}

// The fresh development splits, written by writers who saw only the
// conventions, the catalog and the customers: no message of theirs is
// read as a delivery, a payment, goods received, an order, a
// confirmation or a cancellation it is not (none was when last
// measured), and the local tiers keep the coverage and precision they
// had then (0.961 at 0.976, 0.928 at 0.960, 0.914 at 0.973).
func TestFreshSplitsRecordNothingFalse(t *testing.T) {
	for _, c := range []struct {
		path                string
		coverage, precision float64
	}{{"corpus/dev-fresh.jsonl", 0.95, 0.97}, {"corpus/dev-fresh-2.jsonl", 0.92, 0.95}, {"corpus/dev-fresh-3.jsonl", 0.90, 0.96}} {
		rep := evaluateSplit(t, c.path, c.coverage, c.precision)
		if n := rep.FalseDelivery + rep.FalsePayment + rep.FalseStockReceived + rep.FalseOrder + rep.FalseConfirm + rep.FalseCancel; n != 0 {
			t.Errorf("%s: %d false records, orders, confirmations or cancellations", c.path, n)
		}
	}
}
