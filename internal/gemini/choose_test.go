package gemini

import (
	"context"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/gemini/geminitest"
)

func TestChoosePicksOnlyAnOfferedOption(t *testing.T) {
	f := geminitest.Start(t,
		geminitest.Text(`{"choice":"Gupta Brothers"}`),
		geminitest.Text(`{"choice":"none"}`),
		geminitest.Text(`{"choice":"Mehta Traders"}`))
	c, _ := newClient(t, f)
	ctx := context.Background()
	options := []string{"Gupta Supermart", "Gupta Brothers"}
	if k, err := c.Choose(ctx, "Which one do you mean?", "jo wholesale wale hain", options); err != nil || k != 1 {
		t.Fatalf("Choose = %d, %v; want 1", k, err)
	}
	cfg := string(f.Body(0)["generationConfig"])
	if !strings.Contains(cfg, `"Gupta Supermart"`) || !strings.Contains(cfg, `"none"`) || !strings.Contains(cfg, "enum") {
		t.Fatalf("the schema does not offer exactly the options: %s", cfg)
	}
	if k, err := c.Choose(ctx, "Which one do you mean?", "pata nahi", options); err != nil || k != -1 {
		t.Fatalf("none = %d, %v; want -1", k, err)
	}
	if k, err := c.Choose(ctx, "Which one do you mean?", "Mehta", options); err == nil || k != -1 {
		t.Fatalf("a choice not offered = %d, %v; want an error", k, err)
	}
	if _, err := c.Choose(ctx, "?", "x", nil); err == nil {
		t.Fatal("no options, no error")
	}
}
