package dialogs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
)

// Limits on a dialog file: far above any real script, far below what would
// exhaust memory or run for hours.
const (
	MaxBytes     = 16 << 20 // the whole file
	MaxLineBytes = 1 << 20  // one conversation
	MaxDialogs   = 5000
	MaxTurns     = 50
	// MaxTurnBytes leaves room for a message longer than WhatsApp's 4,096
	// characters (Munshi's answer to one is worth a script) inside the
	// webhook's 64 KiB form.
	MaxTurnBytes = 32 << 10
	MaxIDBytes   = 128
	// MaxQty and MaxAmount bound what an expectation may name.
	MaxQty    = 1_000_000_000
	MaxAmount = domain.Paise(1_000_00_00_000_00) // ₹1,000 crore
	// maxProblems is how many bad lines Read reports before it stops.
	maxProblems = 20
)

// ErrTooLarge is wrapped by Read's error when the input is over MaxBytes.
var ErrTooLarge = errors.New("dialogs: input too large")

// LineError is one bad line of a dialog file (or one dialog that does not
// fit its seed): Read's and Seed.Check's errors join one per problem, so
// errors.As finds the first.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("dialogs: line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Dialog is one scripted conversation: who writes, what they say, and the
// end state the conversation must leave.
type Dialog struct {
	ID string `json:"id"`
	// As is a phone in E.164 form or a role (sales, owner, accounts): the
	// first user of that role in the seed's users.
	As     string   `json:"as"`
	Turns  []string `json:"turns"`
	Note   string   `json:"note,omitempty"`
	Expect Expect   `json:"expect"`
	// Line is where the dialog is in its file.
	Line int `json:"-"`
}

// Kinds of expectation.
const (
	KindOrder    = "order"
	KindPayment  = "payment"
	KindDelivery = "delivery"
	KindNothing  = "nothing"
	KindReply    = "reply"
)

// Kinds lists every kind of expectation, in FORMAT.md's order.
var Kinds = []string{KindOrder, KindPayment, KindDelivery, KindNothing, KindReply}

// Expect is the end state a conversation must leave; exactly one of its
// fields is set.
type Expect struct {
	Order    *OrderExpect    `json:"order,omitempty"`
	Payment  *PaymentExpect  `json:"payment,omitempty"`
	Delivery *DeliveryExpect `json:"delivery,omitempty"`
	Nothing  bool            `json:"nothing,omitempty"`
	Reply    *ReplyExpect    `json:"reply,omitempty"`
}

// OrderExpect is one new order, placed or sent to an owner for approval.
type OrderExpect struct {
	Customer string             `json:"customer"`
	Payment  domain.PaymentMode `json:"payment"`
	Items    []Item             `json:"items"`
}

// Item is one line of an order: a SKU and base units.
type Item struct {
	SKU string `json:"sku"`
	Qty int64  `json:"qty"`
}

// PaymentExpect is one new payment recorded. An empty Reference is not
// checked.
type PaymentExpect struct {
	Customer  string             `json:"customer"`
	Amount    domain.Paise       `json:"amount_paise"`
	Mode      domain.PaymentMode `json:"mode"`
	Reference string             `json:"reference,omitempty"`
}

// DeliveryExpect is an order of the seed's history now delivered.
type DeliveryExpect struct {
	Order string `json:"order"`
}

// File kinds a reply may carry.
const (
	FileExcel = "excel"
	FileChart = "chart"
)

// ReplyExpect is about the last reply: it contains every string (without
// regard to case or digit-grouping commas) and carries a file of that kind
// when File is set; nothing is placed or recorded.
type ReplyExpect struct {
	Contains []string `json:"contains,omitempty"`
	File     string   `json:"file,omitempty"`
}

// Kind names the expectation: order, payment, delivery, nothing or reply.
func (e Expect) Kind() string {
	switch {
	case e.Order != nil:
		return KindOrder
	case e.Payment != nil:
		return KindPayment
	case e.Delivery != nil:
		return KindDelivery
	case e.Nothing:
		return KindNothing
	case e.Reply != nil:
		return KindReply
	}
	return ""
}

// String says what is expected, for people.
func (e Expect) String() string {
	switch {
	case e.Order != nil:
		return fmt.Sprintf("one order for %s (%s): %s", e.Order.Customer, e.Order.Payment, itemsText(e.Order.Items))
	case e.Payment != nil:
		s := fmt.Sprintf("one payment from %s of %s by %s", e.Payment.Customer, e.Payment.Amount, e.Payment.Mode)
		if e.Payment.Reference != "" {
			s += ", reference " + e.Payment.Reference
		}
		return s
	case e.Delivery != nil:
		return fmt.Sprintf("%s delivered, nothing else", e.Delivery.Order)
	case e.Nothing:
		return "nothing placed or recorded"
	case e.Reply != nil:
		var parts []string
		if len(e.Reply.Contains) > 0 {
			q := make([]string, len(e.Reply.Contains))
			for i, c := range e.Reply.Contains {
				q[i] = strconv.Quote(c)
			}
			parts = append(parts, "containing "+strings.Join(q, ", "))
		}
		if e.Reply.File != "" {
			parts = append(parts, "with a file of kind "+e.Reply.File)
		}
		return "a last reply " + strings.Join(parts, " and ") + ", nothing placed or recorded"
	}
	return "nothing expected"
}

func itemsText(items []Item) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = fmt.Sprintf("%s × %d", it.SKU, it.Qty)
	}
	return strings.Join(parts, ", ")
}

// Read reads a dialog file: JSON Lines, one conversation a line, blank
// lines and lines starting with # or // ignored (FORMAT.md). Every line is
// checked; the error names each bad line by its number (the first
// maxProblems of them), and no dialogs are returned with it.
func Read(r io.Reader) ([]Dialog, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("dialogs: read: %w", err)
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("%w: over %d MiB; split the file", ErrTooLarge, MaxBytes>>20)
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	var (
		out      []Dialog
		problems []error
		more     int
		seen     = map[string]int{} // id → its line
	)
	bad := func(line int, err error) {
		if len(problems) == maxProblems {
			more++
			return
		}
		problems = append(problems, &LineError{Line: line, Err: err})
	}
	n := 0
	for rest := data; len(rest) > 0; {
		n++
		var line []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			line, rest = rest, nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		text := bytes.TrimSpace(line)
		if len(text) == 0 || text[0] == '#' || bytes.HasPrefix(text, []byte("//")) {
			continue
		}
		if len(line) > MaxLineBytes {
			bad(n, fmt.Errorf("longer than %d KiB: one conversation a line", MaxLineBytes>>10))
			continue
		}
		if !utf8.Valid(line) {
			bad(n, errors.New("not valid UTF-8 (save the file as UTF-8)"))
			continue
		}
		d, err := parseDialog(text)
		if err != nil {
			bad(n, err)
			continue
		}
		d.Line = n
		if first, ok := seen[d.ID]; ok {
			bad(n, fmt.Errorf("id %q is already used on line %d", d.ID, first))
			continue
		}
		seen[d.ID] = n
		if len(out) == MaxDialogs {
			bad(n, fmt.Errorf("more than %d dialogs in one file; split it", MaxDialogs))
			break
		}
		out = append(out, d)
	}
	if more > 0 {
		problems = append(problems, fmt.Errorf("dialogs: and %d more bad lines", more))
	}
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	return out, nil
}

// The wire shapes of a line, decoded strictly: a misspelt field is an
// error, not an expectation silently dropped.
type (
	wireDialog struct {
		ID     *string                    `json:"id"`
		As     *string                    `json:"as"`
		Turns  []json.RawMessage          `json:"turns"`
		Note   string                     `json:"note"`
		Expect map[string]json.RawMessage `json:"expect"`
	}
	wireOrder struct {
		Customer string     `json:"customer"`
		Payment  string     `json:"payment"`
		Items    []wireItem `json:"items"`
	}
	wireItem struct {
		SKU string      `json:"sku"`
		Qty json.Number `json:"qty"`
	}
	wirePayment struct {
		Customer  string      `json:"customer"`
		Amount    json.Number `json:"amount"`
		Mode      string      `json:"mode"`
		Reference string      `json:"reference"`
	}
	wireDelivery struct {
		Order string `json:"order"`
	}
	wireReply struct {
		Contains []string `json:"contains"`
		File     string   `json:"file"`
	}
)

// strict decodes one JSON value into v, refusing unknown fields and
// anything after the value.
func strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return jsonProblem(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one JSON value (one conversation a line)")
	}
	return nil
}

// jsonProblem says what is wrong with a JSON value in words a file's
// author acts on, without Go's type names.
func jsonProblem(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("not valid JSON at byte %d: %w", syn.Offset, syn)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return fmt.Errorf("want a JSON object, got a JSON %s", typ.Value)
		}
		return fmt.Errorf("%q has the wrong type: got a JSON %s", field, typ.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("not valid JSON: it ends too early")
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	return errors.New(msg)
}

func parseDialog(line []byte) (Dialog, error) {
	var w wireDialog
	if err := strict(line, &w); err != nil {
		return Dialog{}, err
	}
	var d Dialog
	switch {
	case w.ID == nil:
		return d, errors.New(`no "id"`)
	case strings.TrimSpace(*w.ID) == "":
		return d, errors.New(`"id" is empty`)
	case len(*w.ID) > MaxIDBytes:
		return d, fmt.Errorf(`"id" is longer than %d bytes`, MaxIDBytes)
	case strings.TrimSpace(*w.ID) != *w.ID:
		return d, fmt.Errorf(`"id" %q has spaces around it`, *w.ID)
	case strings.IndexFunc(*w.ID, unicode.IsControl) >= 0:
		return d, fmt.Errorf(`"id" %q holds a control character`, *w.ID)
	}
	d.ID = *w.ID
	fail := func(format string, args ...any) (Dialog, error) {
		return Dialog{}, fmt.Errorf("dialog %q: %w", d.ID, fmt.Errorf(format, args...))
	}
	if w.As == nil || strings.TrimSpace(*w.As) == "" {
		return fail(`no "as": want a phone in E.164 form or a role (sales, owner, accounts)`)
	}
	as, err := parseAs(*w.As)
	if err != nil {
		return fail("%w", err)
	}
	d.As = as
	if len(w.Turns) == 0 {
		return fail(`no "turns": want at least one message`)
	}
	if len(w.Turns) > MaxTurns {
		return fail("%d turns, more than %d", len(w.Turns), MaxTurns)
	}
	for i, raw := range w.Turns {
		var t string
		if err := json.Unmarshal(raw, &t); err != nil {
			return fail("turn %d is not a string", i+1)
		}
		switch {
		case strings.TrimSpace(t) == "":
			return fail("turn %d is empty", i+1)
		case len(t) > MaxTurnBytes:
			return fail("turn %d is longer than %d KiB", i+1, MaxTurnBytes>>10)
		case strings.ContainsRune(t, 0):
			return fail("turn %d holds a NUL character", i+1)
		}
		d.Turns = append(d.Turns, t)
	}
	d.Note = w.Note
	if d.Expect, err = parseExpect(w.Expect); err != nil {
		return fail("%w", err)
	}
	return d, nil
}

// parseAs reads "as": a role, or a phone in E.164 form.
func parseAs(s string) (string, error) {
	t := strings.TrimSpace(s)
	if r, err := domain.ParseRole(t); err == nil {
		return string(r), nil
	}
	if !strings.HasPrefix(t, "+") {
		return "", fmt.Errorf(`"as" %q is neither a role (sales, owner, accounts) nor a phone in E.164 form (+919900000003)`, s)
	}
	p, err := domain.ParsePhone(t)
	if err != nil {
		return "", fmt.Errorf(`"as": %w`, err)
	}
	return p, nil
}

func parseExpect(raw map[string]json.RawMessage) (Expect, error) {
	var e Expect
	if len(raw) == 0 {
		return e, fmt.Errorf(`no "expect": want exactly one of %s`, strings.Join(Kinds, ", "))
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(Kinds, k) {
			return e, fmt.Errorf(`unknown expect kind %q: want one of %s`, k, strings.Join(Kinds, ", "))
		}
	}
	if len(keys) > 1 {
		return e, fmt.Errorf(`"expect" names %s: want exactly one`, strings.Join(keys, " and "))
	}
	kind, body := keys[0], raw[keys[0]]
	var err error
	switch kind {
	case KindOrder:
		e.Order, err = parseOrder(body)
	case KindPayment:
		e.Payment, err = parsePayment(body)
	case KindDelivery:
		var w wireDelivery
		if err = strict(body, &w); err == nil {
			if err = key("order", w.Order); err == nil {
				e.Delivery = &DeliveryExpect{Order: w.Order}
			}
		}
	case KindNothing:
		var yes bool
		if json.Unmarshal(body, &yes) != nil || !yes {
			err = errors.New("want true")
		}
		e.Nothing = true
	case KindReply:
		e.Reply, err = parseReply(body)
	}
	if err != nil {
		return Expect{}, fmt.Errorf("expect.%s: %w", kind, err)
	}
	return e, nil
}

// key checks a customer id, SKU or order id: present, one word, printable.
func key(field, s string) error {
	switch {
	case s == "":
		return fmt.Errorf("no %q", field)
	case len(s) > MaxIDBytes:
		return fmt.Errorf("%q is longer than %d bytes", field, MaxIDBytes)
	case strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return fmt.Errorf("%q %q holds a space or control character", field, s)
	}
	return nil
}

func mode(field, s string) (domain.PaymentMode, error) {
	if s == "" {
		return "", fmt.Errorf("no %q: want one of cod, credit, upi, cheque, bank_transfer", field)
	}
	m, err := domain.ParsePaymentMode(s)
	if err != nil {
		return "", fmt.Errorf("%q %q is not a payment mode: want one of cod, credit, upi, cheque, bank_transfer", field, s)
	}
	return m, nil
}

func parseOrder(body []byte) (*OrderExpect, error) {
	var w wireOrder
	if err := strict(body, &w); err != nil {
		return nil, err
	}
	if err := key("customer", w.Customer); err != nil {
		return nil, err
	}
	m, err := mode("payment", w.Payment)
	if err != nil {
		return nil, err
	}
	o := &OrderExpect{Customer: w.Customer, Payment: m}
	if len(w.Items) == 0 {
		return nil, errors.New(`no "items": want at least one {"sku":…,"qty":…}`)
	}
	for i, it := range w.Items {
		if err := key("sku", it.SKU); err != nil {
			return nil, fmt.Errorf("item %d: %w", i+1, err)
		}
		q, err := strconv.ParseInt(it.Qty.String(), 10, 64)
		switch {
		case it.Qty == "":
			return nil, fmt.Errorf(`item %d: no "qty"`, i+1)
		case err != nil || q <= 0 || q > MaxQty:
			return nil, fmt.Errorf(`item %d: "qty" %s is not a whole number of base units from 1 to %d`, i+1, it.Qty, MaxQty)
		}
		o.Items = append(o.Items, Item{SKU: it.SKU, Qty: q})
	}
	return o, nil
}

func parsePayment(body []byte) (*PaymentExpect, error) {
	var w wirePayment
	if err := strict(body, &w); err != nil {
		return nil, err
	}
	if err := key("customer", w.Customer); err != nil {
		return nil, err
	}
	if w.Amount == "" {
		return nil, errors.New(`no "amount": want rupees, such as 15000 or 1500.50`)
	}
	amount, err := domain.ParseRupees(w.Amount.String())
	if err != nil || amount <= 0 || amount > MaxAmount {
		return nil, fmt.Errorf(`"amount" %s is not an amount in rupees above zero with at most two decimals`, w.Amount)
	}
	m, err := mode("mode", w.Mode)
	if err != nil {
		return nil, err
	}
	if w.Reference != "" {
		if err := key("reference", w.Reference); err != nil {
			return nil, err
		}
	}
	return &PaymentExpect{Customer: w.Customer, Amount: amount, Mode: m, Reference: w.Reference}, nil
}

func parseReply(body []byte) (*ReplyExpect, error) {
	var w wireReply
	if err := strict(body, &w); err != nil {
		return nil, err
	}
	for i, c := range w.Contains {
		if strings.TrimSpace(c) == "" {
			return nil, fmt.Errorf(`"contains" string %d is empty`, i+1)
		}
	}
	switch w.File {
	case "", FileExcel, FileChart:
	default:
		return nil, fmt.Errorf(`"file" %q: want excel or chart`, w.File)
	}
	if len(w.Contains) == 0 && w.File == "" {
		return nil, errors.New(`want "contains" (strings the last reply holds) or "file" (excel or chart)`)
	}
	return &ReplyExpect{Contains: w.Contains, File: w.File}, nil
}
