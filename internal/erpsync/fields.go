package erpsync

import (
	"github.com/munshi/munshi/internal/domain"
	"slices"
	"time"
)

// kind is how a field's value is read.
type kind int

const (
	kindText    kind = iota // keys, names, units: text after transforms
	kindList                // several texts, '|' separated: aliases
	kindPhone               // a phone number, to E.164
	kindMoney               // rupees or paise, to paise exactly
	kindQty                 // a quantity, times the factor, to whole base units
	kindPercent             // a GST rate, to hundredths of a percent
	kindDate                // a date, or a date and time, in the source's zone
	kindMode                // a payment mode
	kindModes               // payment modes, '|' or ',' separated
	kindStatus              // an order's status
)

func (k kind) String() string {
	return [...]string{"text", "list", "phone", "money", "quantity", "percentage", "date", "payment mode", "payment modes", "status"}[k]
}

// numeric kinds read numbers; the others read text, to which the
// transforms and values apply.
func (k kind) numeric() bool { return k == kindMoney || k == kindQty || k == kindPercent }

// fieldDef is one Munshi field an entity may map.
type fieldDef struct {
	name     string
	kind     kind
	required bool
	// def is what Parse fills in when the mapping leaves the field out
	// (or gives a column without a default): unit piece, GST 18.
	def string
}

// entityDef is what Munshi reads of an entity: its fields in the order a
// mapping shows them, and the fields its rows are known by.
type entityDef struct {
	fields []fieldDef
	key    []string
	tier   time.Duration
	// full entities return every row unless they are incremental: what
	// they do not return is gone (inactive, paid, no longer open).
	full bool
}

var (
	skuField      = fieldDef{name: "sku", kind: kindText, required: true}
	customerField = fieldDef{name: "customer_id", kind: kindText, required: true}
	dateField     = fieldDef{name: "date", kind: kindDate, required: true}
	orderFields   = []fieldDef{
		{name: "order_id", kind: kindText, required: true},
		{name: "line", kind: kindText},
		dateField, customerField, skuField,
		{name: "qty", kind: kindQty, required: true},
		{name: "price", kind: kindMoney, required: true},
		{name: "gst_percent", kind: kindPercent},
		{name: "status", kind: kindStatus},
		{name: "placed_by", kind: kindPhone},
	}
)

var entityDefs = map[Entity]entityDef{
	Products: {tier: time.Hour, full: true, key: []string{"sku"}, fields: []fieldDef{
		skuField,
		{name: "name", kind: kindText, required: true},
		{name: "aliases", kind: kindList},
		{name: "unit", kind: kindText, def: "piece"},
		{name: "price", kind: kindMoney, required: true},
		{name: "gst_percent", kind: kindPercent, def: "18"},
		{name: "stock_ready", kind: kindQty},
		{name: "stock_wip", kind: kindQty},
	}},
	Customers: {tier: time.Hour, full: true, key: []string{"id"}, fields: []fieldDef{
		{name: "id", kind: kindText, required: true},
		{name: "name", kind: kindText, required: true},
		{name: "aliases", kind: kindList},
		{name: "phone", kind: kindPhone},
		{name: "segment", kind: kindText},
		{name: "credit_limit", kind: kindMoney},
		{name: "outstanding", kind: kindMoney},
		{name: "payment_modes", kind: kindModes},
	}},
	Stock: {tier: 5 * time.Minute, key: []string{"sku"}, fields: []fieldDef{
		skuField,
		{name: "stock_ready", kind: kindQty, required: true},
		{name: "stock_wip", kind: kindQty},
	}},
	Dues: {tier: 2 * time.Minute, key: []string{"customer_id"}, fields: []fieldDef{
		customerField,
		{name: "outstanding", kind: kindMoney, required: true},
		{name: "credit_limit", kind: kindMoney},
	}},
	Bills: {tier: 2 * time.Minute, full: true, key: []string{"bill_no"}, fields: []fieldDef{
		{name: "bill_no", kind: kindText, required: true},
		customerField, dateField,
		{name: "amount", kind: kindMoney, required: true},
		{name: "balance", kind: kindMoney},
	}},
	Sales:      {tier: 15 * time.Minute, key: []string{"order_id", "line"}, fields: withDefault(orderFields, "status", string(domain.OrderDelivered))},
	OpenOrders: {tier: 2 * time.Minute, full: true, key: []string{"order_id", "line"}, fields: withDefault(orderFields, "status", string(domain.OrderCommitted))},
	Payments: {tier: 2 * time.Minute, key: []string{"customer_id", "reference"}, fields: []fieldDef{
		dateField, customerField,
		{name: "amount", kind: kindMoney, required: true},
		{name: "mode", kind: kindMode, def: "bank_transfer"},
		{name: "reference", kind: kindText},
	}},
	Receipts: {tier: 5 * time.Minute, key: []string{"reference"}, fields: []fieldDef{
		{name: "reference", kind: kindText, required: true},
		dateField, skuField,
		{name: "qty", kind: kindQty, required: true},
	}},
}

// withDefault is fields with the named one given a default.
func withDefault(fields []fieldDef, name, def string) []fieldDef {
	out := slices.Clone(fields)
	for i := range out {
		if out[i].name == name {
			out[i].def = def
		}
	}
	return out
}

// field returns the entity's field of that name.
func (d entityDef) field(name string) (fieldDef, bool) {
	for _, f := range d.fields {
		if f.name == name {
			return f, true
		}
	}
	return fieldDef{}, false
}

func (d entityDef) names() []string {
	out := make([]string, len(d.fields))
	for i, f := range d.fields {
		out[i] = f.name
	}
	return out
}

// transforms are the text transforms a field may list, in the order a
// message names them.
var transforms = []string{"trim", "upper", "lower", "title", "digits", "collapse"}
