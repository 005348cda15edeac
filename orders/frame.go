package orders

import (
	"encoding/json"
	"fmt"

	"github.com/munshi/munshi/internal/domain"
)

// Slot is what a question asks about.
type Slot string

const (
	SlotCustomer Slot = "customer" // which customer: one of Options, or any when none are offered
	SlotPayment  Slot = "payment"  // how the customer pays
	SlotProduct  Slot = "product"  // which of the products in Options the words meant
	SlotQuantity Slot = "quantity" // how many of SKU
	SlotUnknown  Slot = "unknown"  // a product the catalog does not know, or a quantity no product took
	SlotItems    Slot = "items"    // which products and how many
	SlotOrder    Slot = "order"    // which of the orders in Options (their numbers) was delivered
	SlotOther    Slot = ""         // anything else: answered by sending the order again
)

// Ask is one question as data: what it asks about and the answers it
// offered, so that the reply to it can be read as an answer.
type Ask struct {
	Slot    Slot     `json:"s,omitempty"`
	Text    string   `json:"t"`
	Options []string `json:"o,omitempty"` // customer ids, SKUs, payment modes or order numbers offered
	SKU     string   `json:"k,omitempty"` // the product a quantity is asked for
	Said    *Said    `json:"q,omitempty"` // the quantity written with the words in question
	Words   string   `json:"w,omitempty"` // the words in question ("phenyl", "dettol")
	// Goods are the products of each order offered, by its number: an
	// answer may name the order by them ("handwash aur sabun wala").
	Goods map[string][]string `json:"g,omitempty"`
	// Days are the day of the month each order offered was placed on, by
	// its number, as the question lists it: "12 tareekh wala".
	Days map[string]int `json:"d,omitempty"`
}

// Said is a quantity as the message wrote it, kept for the product an
// answer names.
type Said struct {
	Value   float64 `json:"v"`
	Unit    string  `json:"u,omitempty"`
	Measure string  `json:"m,omitempty"`
}

// saidOf keeps the one quantity written with a mention; several are
// asked about again.
func saidOf(qs []*quantity) *Said {
	if len(qs) != 1 {
		return nil
	}
	return &Said{Value: qs[0].value, Unit: qs[0].unit, Measure: qs[0].measure}
}

func (s *Said) quantity() *quantity {
	return &quantity{value: s.Value, unit: s.Unit, measure: s.Measure}
}

// Frame kinds: an order being taken, or a note for the books.
const (
	frameOrder = "order"
)

// Frame is what Munshi waits on after a question: the order or note so
// far and the questions still open, the first of them the one asked. It
// travels in conversation memory as Reply.Pending, so the next message,
// on whichever instance, is first read as the answer.
type Frame struct {
	Kind     string             `json:"k"`
	Customer string             `json:"c,omitempty"` // the order's, or a delivery's once a question chose it
	Payment  domain.PaymentMode `json:"p,omitempty"`
	Items    []frameItem        `json:"i,omitempty"`
	Asks     []Ask              `json:"a,omitempty"`
	// Text is a note's message so far: a payment, delivery or receipt is
	// read again with each answer.
	Text string `json:"x,omitempty"`
	// Instructions are an order's, kept while its questions are answered.
	Instructions string `json:"o,omitempty"`
}

type frameItem struct {
	SKU      string `json:"s"`
	Qty      int64  `json:"q"`
	SaidQty  int64  `json:"n,omitempty"`
	SaidUnit string `json:"u,omitempty"`
}

// maxFrameOptions bounds the answers a frame offers; a name hundreds of
// customers share is answered with the full name, read against them all.
const maxFrameOptions = 12

func framedItems(items []Item) []frameItem {
	out := make([]frameItem, len(items))
	for i, it := range items {
		out[i] = frameItem{SKU: it.SKU, Qty: it.Qty, SaidQty: it.SaidQty, SaidUnit: it.SaidUnit}
	}
	return out
}

func (f Frame) items() []Item {
	out := make([]Item, len(f.Items))
	for i, it := range f.Items {
		out[i] = Item{SKU: it.SKU, Qty: it.Qty, SaidQty: it.SaidQty, SaidUnit: it.SaidUnit}
	}
	return out
}

// addItem adds an item to the frame, summing one already there.
func (f *Frame) addItem(it Item) {
	for k := range f.Items {
		if f.Items[k].SKU == it.SKU {
			f.Items[k].Qty += it.Qty
			f.Items[k].SaidQty, f.Items[k].SaidUnit = 0, ""
			return
		}
	}
	f.Items = append(f.Items, frameItem{SKU: it.SKU, Qty: it.Qty, SaidQty: it.SaidQty, SaidUnit: it.SaidUnit})
}

// encode is the frame as memory keeps it.
func (f Frame) encode() string {
	for i := range f.Asks {
		if len(f.Asks[i].Options) > maxFrameOptions {
			f.Asks[i].Options = nil
		}
	}
	b, err := json.Marshal(f)
	if err != nil {
		return ""
	}
	return string(b)
}

// decodeFrame reads a frame as encode wrote it.
func decodeFrame(s string) (Frame, error) {
	var f Frame
	if err := json.Unmarshal([]byte(s), &f); err != nil {
		return Frame{}, fmt.Errorf("orders: pending question unreadable: %w", err)
	}
	if f.Kind == "" {
		return Frame{}, fmt.Errorf("orders: pending question has no kind")
	}
	return f, nil
}

// Asked is the question a frame waits on, as it was asked.
func (s *Service) Asked(pending string) (string, bool) {
	f, err := decodeFrame(pending)
	if err != nil || len(f.Asks) == 0 {
		return "", false
	}
	return f.Asks[0].Text, true
}
