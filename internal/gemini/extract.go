package gemini

import (
	"context"
	"fmt"
	"math"
	"strings"

	"google.golang.org/genai"

	"github.com/munshi/munshi/internal/llmbudget"
	"github.com/munshi/munshi/orders"
)

// maxLines matches the most lines orders.Parser.Resolve reads.
const maxLines = 50

func extractSchema() *genai.Schema {
	nullable := func(s *genai.Schema) *genai.Schema { s.Nullable = genai.Ptr(true); return s }
	return &genai.Schema{
		Type: genai.TypeObject,
		Properties: map[string]*genai.Schema{
			"customer": nullable(&genai.Schema{Type: genai.TypeString}),
			"payment":  nullable(&genai.Schema{Type: genai.TypeString}),
			"items": {
				Type:     genai.TypeArray,
				MaxItems: genai.Ptr[int64](maxLines),
				Items: &genai.Schema{
					Type: genai.TypeObject,
					Properties: map[string]*genai.Schema{
						"product": {Type: genai.TypeString},
						"qty":     {Type: genai.TypeNumber},
						"unit":    nullable(&genai.Schema{Type: genai.TypeString}),
					},
					Required:         []string{"product", "qty", "unit"},
					PropertyOrdering: []string{"product", "qty", "unit"},
				},
			},
		},
		Required:         []string{"customer", "payment", "items"},
		PropertyOrdering: []string{"customer", "payment", "items"},
	}
}

// The catalog as the model sees it: names and units, no SKU, id or price.
type (
	catalogData struct {
		Products  []productData  `json:"products"`
		Customers []customerData `json:"customers"`
	}
	productData struct {
		Name    string   `json:"name"`
		Aliases []string `json:"aliases,omitempty"`
		Unit    string   `json:"unit"`
		Packs   []string `json:"packs,omitempty"`
	}
	customerData struct {
		Name    string   `json:"name"`
		Aliases []string `json:"aliases,omitempty"`
	}
)

func catalogOf(h orders.Hints) catalogData {
	cat := catalogData{Products: []productData{}, Customers: []customerData{}}
	for _, p := range h.Products {
		cat.Products = append(cat.Products, productData{p.Name, p.Aliases, p.Unit, p.Packs})
	}
	for _, c := range h.Customers {
		cat.Customers = append(cat.Customers, customerData{c.Name, c.Aliases})
	}
	return cat
}

// Extract reads an order message the parser could not, in one request:
// the customer, payment and lines as written. The result is unchecked
// text for orders.Parser.Resolve, which maps it onto the catalog and the
// customers or asks; nothing here trusts it. Extraction.Message is set to
// text so that Resolve accepts only what the message says. The catalog
// goes first in the contents (it changes rarely, so the provider can cache
// it after the instruction), then any llmbudget.WithSummary summary, then the
// message.
func (c *Client) Extract(ctx context.Context, text string, hints orders.Hints) (orders.Extraction, error) {
	cat, err := dataPart("Catalog and customers (data)", catalogOf(hints))
	if err != nil {
		return orders.Extraction{}, fmt.Errorf("gemini: extract: %w", err)
	}
	sum, err := summaryPart(llmbudget.Summary(ctx))
	if err != nil {
		return orders.Extraction{}, fmt.Errorf("gemini: extract: %w", err)
	}
	msg, err := dataPart("Order message (data)", struct {
		Message string `json:"message"`
	}{clip(text, maxMessageRunes)})
	if err != nil {
		return orders.Extraction{}, fmt.Errorf("gemini: extract: %w", err)
	}

	ex := orders.Extraction{Message: text}
	err = c.generate(ctx, PurposeExtract, []*genai.Content{userTurn(cat, sum, msg)}, jsonConfig(extractInstruction, extractSchema()),
		func(resp *genai.GenerateContentResponse) error { return decodeExtraction(resp, &ex) })
	if err != nil {
		return orders.Extraction{}, err
	}
	return ex, nil
}

func decodeExtraction(resp *genai.GenerateContentResponse, ex *orders.Extraction) error {
	// customer, payment and unit may be null or left out: either way the
	// message did not say. items, product and qty are required.
	var out struct {
		Customer *string `json:"customer"`
		Payment  *string `json:"payment"`
		Items    *[]struct {
			Product *string  `json:"product"`
			Qty     *float64 `json:"qty"`
			Unit    *string  `json:"unit"`
		} `json:"items"`
	}
	text, err := answerJSON(resp, &out)
	if err != nil {
		return err
	}
	if out.Items == nil {
		return fmt.Errorf("answer %s has no items", excerpt(text))
	}
	if len(*out.Items) > maxLines {
		return fmt.Errorf("%d lines is more than %d", len(*out.Items), maxLines)
	}
	ex.Customer, ex.Payment = deref(out.Customer), deref(out.Payment)
	ex.Items = make([]orders.ExtractedItem, 0, len(*out.Items))
	for i, it := range *out.Items {
		switch {
		case it.Product == nil || strings.TrimSpace(*it.Product) == "":
			return fmt.Errorf("line %d has no product", i+1)
		case it.Qty == nil || math.IsNaN(*it.Qty) || math.IsInf(*it.Qty, 0):
			return fmt.Errorf("line %d has no quantity", i+1)
		}
		ex.Items = append(ex.Items, orders.ExtractedItem{Product: *it.Product, Qty: *it.Qty, Unit: deref(it.Unit)})
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}
