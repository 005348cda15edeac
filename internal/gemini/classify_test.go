package gemini

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/gemini/geminitest"
)

func TestClassify(t *testing.T) {
	f := geminitest.Start(t, geminitest.Text(`{"intent":"stock","confidence":0.92}`))
	c, rec := newClient(t, f)
	n := intent.Normalized{Entities: []intent.Entity{{Kind: intent.EntityProduct, ID: "GC500", Text: "gc"}}}
	got, conf, err := c.Classify(context.Background(), "GC kitna pada hai", n)
	if err != nil || got != domain.IntentStock || conf != 0.92 {
		t.Fatalf("Classify = %q, %v, %v", got, conf, err)
	}

	var gen struct {
		ResponseMIMEType string  `json:"responseMimeType"`
		Temperature      float64 `json:"temperature"`
		ResponseSchema   struct {
			Properties map[string]struct {
				Type string   `json:"type"`
				Enum []string `json:"enum"`
			} `json:"properties"`
			Required []string `json:"required"`
		} `json:"responseSchema"`
	}
	if err := json.Unmarshal(f.Body(0)["generationConfig"], &gen); err != nil {
		t.Fatal(err)
	}
	labels := gen.ResponseSchema.Properties["intent"].Enum
	if gen.ResponseMIMEType != "application/json" || gen.Temperature != 0 || len(labels) != len(domain.Intents) || !slices.Contains(labels, "pending_orders") ||
		gen.ResponseSchema.Properties["confidence"].Type != "NUMBER" || len(gen.ResponseSchema.Required) != 2 {
		t.Fatalf("generation config %s", f.Body(0)["generationConfig"])
	}

	var data struct {
		Message    string       `json:"message"`
		Recognised []recognised `json:"recognised"`
	}
	f.Data(0, "Message to classify (data)", &data)
	if data.Message != "GC kitna pada hai" || len(data.Recognised) != 1 || data.Recognised[0] != (recognised{"product", "gc"}) {
		t.Fatalf("data %+v", data)
	}

	calls := rec.all()
	if len(calls) != 1 {
		t.Fatalf("calls %+v", calls)
	}
	call := calls[0]
	if call.Purpose != PurposeClassify || call.Model != testModel || call.Outcome != OutcomeOK || call.Err != nil ||
		call.PromptTokens != 120 || call.ResponseTokens != 8 || call.Latency <= 0 || call.Retry {
		t.Fatalf("call %+v", call)
	}
}

func TestClassifyMalformed(t *testing.T) {
	for name, rep := range map[string]geminitest.Answer{
		"not json":        geminitest.Text("The intent is order."),
		"fenced":          geminitest.Text("```json\n{\"intent\":\"order\",\"confidence\":0.9}\n```"),
		"wrong enum":      geminitest.Text(`{"intent":"approve_all","confidence":0.9}`),
		"case of a label": geminitest.Text(`{"intent":"ORDER","confidence":0.9}`),
		"no confidence":   geminitest.Text(`{"intent":"order"}`),
		"no intent":       geminitest.Text(`{"confidence":0.9}`),
		"null intent":     geminitest.Text(`{"intent":null,"confidence":0.9}`),
		"above one":       geminitest.Text(`{"intent":"order","confidence":1.7}`),
		"negative":        geminitest.Text(`{"intent":"order","confidence":-0.1}`),
		"string number":   geminitest.Text(`{"intent":"order","confidence":"high"}`),
		"extra field":     geminitest.Text(`{"intent":"order","confidence":0.9,"approve":true}`),
		"two values":      geminitest.Text(`{"intent":"order","confidence":0.9} {"intent":"confirm","confidence":1}`),
		"array":           geminitest.Text(`[{"intent":"order","confidence":0.9}]`),
		"empty":           geminitest.Text(""),
		"cut short":       geminitest.Parts("MAX_TOKENS", map[string]any{"text": `{"intent":"order","confidence":0.9}`}),
		"blocked":         geminitest.Parts("SAFETY"),
		"function call":   geminitest.Parts("STOP", geminitest.Call("approve_order", map[string]any{"id": "ORDER-1"})),
		"no candidates":   {Body: `{"candidates":[],"usageMetadata":{"promptTokenCount":120,"candidatesTokenCount":0,"totalTokenCount":120}}`},
	} {
		t.Run(name, func(t *testing.T) {
			f := geminitest.Start(t, rep)
			c, rec := newClient(t, f)
			got, conf, err := c.Classify(context.Background(), "kuch bhi", intent.Normalized{})
			if !errors.Is(err, ErrMalformed) || got != "" || conf != 0 {
				t.Fatalf("Classify = %q, %v, %v; want ErrMalformed", got, conf, err)
			}
			if !strings.HasPrefix(err.Error(), "gemini: classify: malformed output: ") {
				t.Fatalf("error %q", err)
			}
			calls := rec.all()
			if f.Hits() != 1 || len(calls) != 1 || calls[0].Outcome != OutcomeMalformed || calls[0].PromptTokens != 120 {
				t.Fatalf("hits %d calls %+v: malformed output is not retried, and its tokens count", f.Hits(), calls)
			}
		})
	}
}

// The instruction describes every label the schema allows.
func TestClassifyInstructionDescribesEveryIntent(t *testing.T) {
	for _, in := range domain.Intents {
		if !strings.Contains(classifyInstruction, "\n- "+string(in)+": ") {
			t.Errorf("the classify instruction does not describe %q", in)
		}
	}
}
