package intent

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/patience"
)

// A message no rule reads and the model finds unknown, with a word of
// the books in it (gibberish alone is answered at once: TestOffTopic);
// the routers below never let the model decide unknown, so it reaches
// the third tier.
const unsure = "xyzzy plugh frobnicate hisaab"

const testLLMTimeout = 50 * time.Millisecond

func routerWithLLM(t *testing.T, f ClassifierFunc) *Router {
	t.Helper()
	r, err := NewRouter(demoVocabulary(t), Options{
		LLM:              f,
		LLMTimeout:       testLLMTimeout,
		IntentThresholds: map[domain.Intent]float64{domain.IntentUnknown: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLLMTier(t *testing.T) {
	tests := []struct {
		name       string
		text       string
		in         domain.Intent
		conf       float64
		err        error
		want       domain.Intent
		tier       Tier
		reasonPart string
	}{
		{"answers", unsure, domain.IntentReport, 0.9, nil, domain.IntentReport, TierLLM, "llm"},
		{"fails", unsure, "", 0, errors.New("quota"), domain.IntentUnknown, TierNone, "llm failed: quota"},
		{"unsure", unsure, domain.IntentStock, 0.3, nil, domain.IntentUnknown, TierNone, "llm unsure"},
		{"may not confirm", unsure, domain.IntentConfirm, 0.99, nil, domain.IntentUnknown, TierNone, "may not confirm"},
		{"may not cancel", unsure, domain.IntentCancel, 0.99, nil, domain.IntentUnknown, TierNone, "may not cancel"},
		{"order without evidence", unsure, domain.IntentOrder, 0.95, nil, domain.IntentUnknown, TierNone, "llm rejected"},
		{"invented intent", unsure, "refund", 0.95, nil, domain.IntentUnknown, TierNone, "unknown intent"},
		{"payment without evidence", unsure, domain.IntentPayment, 0.95, nil, domain.IntentUnknown, TierNone, "llm rejected"},
		{"delivery without evidence", unsure, domain.IntentDelivery, 0.95, nil, domain.IntentUnknown, TierNone, "llm rejected"},
		{"goods received without evidence", unsure, domain.IntentStockReceived, 0.95, nil, domain.IntentUnknown, TierNone, "llm rejected"},
		{"order status", unsure, domain.IntentOrderStatus, 0.9, nil, domain.IntentOrderStatus, TierLLM, "llm"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var saw Normalized
			r := routerWithLLM(t, func(ctx context.Context, text string, n Normalized) (domain.Intent, float64, error) {
				saw = n
				return tt.in, tt.conf, tt.err
			})
			d := r.Route(context.Background(), tt.text)
			if d.Intent != tt.want || d.Tier != tt.tier || !strings.Contains(d.Reason, tt.reasonPart) {
				t.Errorf("got %s %s %q, want %s %s …%s…", d.Intent, d.Tier, d.Reason, tt.want, tt.tier, tt.reasonPart)
			}
			if saw.Text != Normalize(tt.text).Text {
				t.Errorf("the classifier saw %q", saw.Text)
			}
		})
	}
}

// TestOffTopic: a message the model leans to reading as none of Munshi's,
// with nothing of the books in it, is answered without the LLM; one with
// a word of the books, of a party or of help is still asked of it.
func TestOffTopic(t *testing.T) {
	calls := 0
	r := routerWithLLM(t, func(context.Context, string, Normalized) (domain.Intent, float64, error) {
		calls++
		return domain.IntentUnknown, 1, nil
	})
	for _, text := range []string{"xyzzy plugh frobnicate", "how far is Agra from here", "kitne baj gaye", "rashifal batao"} {
		d := r.Route(context.Background(), text)
		if d.Intent != domain.IntentUnknown || d.Tier != TierRules || calls != 0 {
			t.Errorf("%q: %s %s %q after %d LLM calls, want unknown by rule", text, d.Intent, d.Tier, d.Reason, calls)
		}
	}
	for _, text := range []string{unsure, "how much money is stuck in the market", "xyzzy party", "xyzzy plugh menu"} {
		calls = 0
		if d := r.Route(context.Background(), text); calls != 1 {
			t.Errorf("%q: %s %s %q without asking the LLM", text, d.Intent, d.Tier, d.Reason)
		}
	}
}

// The LLM is only asked about what the rules and the model leave.
func TestLLMNotAskedWhenLocalTiersDecide(t *testing.T) {
	calls := 0
	r := routerWithLLM(t, func(context.Context, string, Normalized) (domain.Intent, float64, error) {
		calls++
		return domain.IntentUnknown, 1, nil
	})
	for _, text := range []string{"hi", "ok", "GC ka stock kitna hai", "Rajesh ko 5 carton GC bhejo"} {
		if d := r.Route(context.Background(), text); d.Tier == TierLLM {
			t.Errorf("%q went to the LLM", text)
		}
	}
	if calls != 0 {
		t.Errorf("LLM called %d times", calls)
	}
}

// TestLLMTimeout: a classifier that never answers is given at most
// LLMTimeout, and the message goes on without it.
func TestLLMTimeout(t *testing.T) {
	given := make(chan time.Duration, 1)
	r := routerWithLLM(t, func(ctx context.Context, _ string, _ Normalized) (domain.Intent, float64, error) {
		left := time.Duration(-1)
		if dl, ok := ctx.Deadline(); ok {
			left = time.Until(dl)
		}
		given <- left
		<-ctx.Done()
		return "", 0, ctx.Err()
	})
	var d Decision
	patience.Within(t, "routing past a silent LLM", func() { d = r.Route(context.Background(), unsure) })
	if d.Tier != TierNone || !strings.Contains(d.Reason, "deadline") {
		t.Errorf("a slow LLM must time out: %+v", d)
	}
	if left := <-given; left <= 0 || left > testLLMTimeout {
		t.Errorf("the LLM was given %v, want at most LLMTimeout (%v)", left, testLLMTimeout)
	}
}

func TestNewRouterRejectsBadInput(t *testing.T) {
	v := demoVocabulary(t)
	dup := v
	dup.Products = append(append([]domain.Product(nil), v.Products...), v.Products[0])
	noID := Vocabulary{Customers: []domain.Customer{{Name: "Nameless"}}}
	for name, tc := range map[string]struct {
		v Vocabulary
		o Options
	}{
		"duplicate SKU":       {dup, Options{}},
		"customer without ID": {noID, Options{}},
		"threshold above 1":   {v, Options{Threshold: 1.5}},
		"negative ambiguity":  {v, Options{Ambiguity: -0.1}},
		"intent threshold":    {v, Options{IntentThresholds: map[domain.Intent]float64{domain.IntentOrder: 2}}},
	} {
		if _, err := NewRouter(tc.v, tc.o); err == nil || !strings.HasPrefix(err.Error(), "intent: ") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func TestIntentThresholdsOverride(t *testing.T) {
	v := demoVocabulary(t)
	strict, err := NewRouter(v, Options{IntentThresholds: map[domain.Intent]float64{domain.IntentStock: 1}})
	if err != nil {
		t.Fatal(err)
	}
	// Only the model can be overruled by a threshold; pick a stock
	// question no rule reads.
	text := "is there enough phenyl for a 100 carton order?"
	if d := strict.Route(context.Background(), text); d.Intent == domain.IntentStock && d.Tier == TierModel {
		t.Errorf("a threshold of 1 must stop the model: %+v", d)
	}
}

// One router serves every webhook request at once.
func TestRouteConcurrent(t *testing.T) {
	r := demoRouter(t)
	texts := benchMessages
	want := make([]Decision, len(texts))
	for i, text := range texts {
		want[i] = r.Route(context.Background(), text)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				for i, text := range texts {
					d := r.Route(context.Background(), text)
					if d.Intent != want[i].Intent || d.Tier != want[i].Tier || d.Confidence != want[i].Confidence {
						select {
						case errs <- text:
						default:
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for text := range errs {
		t.Errorf("concurrent routing of %q differs", text)
	}
}
