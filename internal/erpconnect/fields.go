package erpconnect

import (
	"time"

	"github.com/munshi/munshi/internal/erpsync"
)

// kind is what a field's values must look like.
type kind int

const (
	kindCode    kind = iota // an identifier: SKU, customer code, bill or voucher number
	kindName                // a name people read
	kindText                // other text (aliases)
	kindMoney               // rupees
	kindQty                 // whole units
	kindPercent             // a GST rate
	kindDate                // a date or a date and time
	kindPhone               // an Indian mobile
	kindMode                // how a payment was made
	kindStatus              // an order's state, as a short code
	kindUnit                // a unit of measure
	kindGroup               // a few labels a business sorts customers by
	kindLine                // a line's number within its document
	kindModes               // the payment modes a customer may use
)

// fieldDef is one Munshi field of an entity and how to recognise its
// column.
type fieldDef struct {
	name     string
	kind     kind
	required bool
	// ref: the values are keys of that master (a sales line's SKU is a
	// product's); for a master's own key field, the key of the table.
	ref   erpsync.Entity
	key   bool // unique in the entity's rows (a master's key)
	hints []hint
	neg   []string // a column-name word that says it is something else
}

// entityDef is an entity, what its table is called, and its fields.
type entityDef struct {
	entity    erpsync.Entity
	tier      time.Duration
	tableHint []hint
	tableNeg  []string
	// join: the entity's rows may take fields from a table they refer to
	// (a sales line from its order header: date, customer).
	join bool
	// history: rows are events, read incrementally when the table says
	// when a row last changed; the others are read in full, so that what
	// is gone from the ERP is seen to be gone.
	history bool
	fields  []fieldDef
}

// Hints shared by several entities.
var (
	skuHints = hints("item code", 1.0, "product code", 1.0, "prod code", 0.95, "sku", 1.0, "item number", 0.85,
		"item id", 0.8, "product id", 0.8, "part number", 0.8, "material code", 0.9, "code", 0.7, "item", 0.6, "sku code", 1.0)
	skuNeg      = []string{"hsn", "barcode", "supplier", "customer", "account", "company", "godown", "group", "category", "bill", "order", "voucher", "salesman", "route", "status", "tax", "user"}
	custHints   = hints("customer code", 1.0, "customer id", 1.0, "customer", 0.85, "account code", 0.85, "account id", 0.8, "account", 0.65, "customer number", 0.9)
	custNeg     = []string{"supplier", "item", "product", "company", "salesman", "name", "phone", "group", "category"}
	dateHints   = hints("date", 0.85, "bill date", 1.0, "voucher date", 1.0, "order date", 1.0, "receipt date", 1.0, "grn date", 1.0, "date time", 0.8, "time", 0.3)
	dateNeg     = []string{"due", "modified", "created", "expiry", "delivery", "dispatch", "cheque", "last"}
	qtyHints    = hints("quantity", 1.0, "ordered quantity", 1.0, "quantity order", 0.9, "units", 0.5)
	qtyNeg      = []string{"rate", "price", "amount", "value", "free", "pending", "return", "minimum", "rejected", "serial", "line", "conversion"}
	percentHint = hints("tax percent", 1.0, "tax rate", 1.0, "tax", 0.8, "tax slab", 0.9, "percent", 0.3)
	percentNeg  = []string{"amount", "value", "gstin", "number", "code", "hsn"}
	priceHints  = hints("rate", 1.0, "price", 1.0, "sales rate", 1.0, "sales price", 1.0, "unit price", 1.0, "unit rate", 1.0,
		"mrp", 0.55, "list price", 0.9, "net rate", 0.9)
	priceNeg     = []string{"purchase", "cost", "tax", "discount", "percent", "quantity", "amount", "total"}
	statusHints  = hints("status", 1.0, "order status", 1.0, "state", 0.3, "stage", 0.6)
	orderNoHints = hints("order number", 1.0, "sales order number", 1.0, "order id", 1.0, "voucher number", 0.85, "bill number", 0.7,
		"order", 0.6, "number", 0.4, "voucher", 0.6)
	orderNoNeg = []string{"line", "serial", "item", "customer", "purchase", "reference", "cheque"}
)

var entityDefs = []entityDef{
	{
		entity: erpsync.Products, tier: time.Hour,
		tableHint: hints("item", 1.0, "product", 1.0, "prod", 0.9, "sku", 1.0, "material", 0.85, "catalog", 0.9, "stock item", 1.0, "item master", 1.0),
		tableNeg:  []string{"order", "sales", "purchase", "grn", "receipt", "bill", "detail", "log", "transaction", "ledger", "line", "supplier", "customer", "godown", "voucher", "return", "dispatch"},
		fields: []fieldDef{
			{name: "sku", kind: kindCode, required: true, key: true, ref: erpsync.Products, hints: skuHints, neg: skuNeg},
			{name: "name", kind: kindName, required: true, hints: hints("item name", 1.0, "product name", 1.0, "prod name", 0.95, "description", 0.85,
				"item description", 1.0, "name", 0.7, "item", 0.5), neg: []string{"short", "alias", "supplier", "company", "group", "category", "unit", "code", "customer", "hsn"}},
			{name: "price", kind: kindMoney, required: true, hints: priceHints, neg: priceNeg},
			{name: "unit", kind: kindUnit, hints: hints("unit", 1.0, "unit measure", 1.0, "base unit", 1.0, "pack", 0.4), neg: []string{"price", "rate", "quantity", "conversion", "factor"}},
			{name: "gst_percent", kind: kindPercent, hints: percentHint, neg: percentNeg},
			{name: "stock_ready", kind: kindQty, hints: stockHints, neg: stockNeg},
			{name: "stock_wip", kind: kindQty, hints: wipHints, neg: []string{"rate", "price", "amount", "value"}},
			{name: "aliases", kind: kindText, hints: hints("alias", 1.0, "short name", 0.9, "alias name", 1.0, "other name", 0.8), neg: []string{"code", "company"}},
		},
	},
	{
		entity: erpsync.Customers, tier: time.Hour,
		tableHint: hints("customer", 1.0, "customer master", 1.0, "account", 0.6, "debtor", 1.0),
		tableNeg:  []string{"supplier", "order", "bill", "receipt", "payment", "detail", "log", "transaction", "item", "product", "line", "voucher", "sales", "purchase", "stock", "godown", "address"},
		fields: []fieldDef{
			{name: "id", kind: kindCode, required: true, key: true, ref: erpsync.Customers, hints: hints("customer code", 1.0, "customer id", 1.0,
				"account code", 0.9, "code", 0.75, "id", 0.55, "customer number", 0.9, "account id", 0.85), neg: []string{"supplier", "company", "gstin", "pan", "group", "salesman", "route", "phone"}},
			{name: "name", kind: kindName, required: true, hints: hints("customer name", 1.0, "account name", 0.9, "name", 0.75, "firm name", 0.9, "customer", 0.5),
				neg: []string{"short", "alias", "contact", "owner", "supplier", "salesman", "company", "group", "code", "route", "bank"}},
			{name: "phone", kind: kindPhone, hints: hints("phone", 1.0, "phone number", 1.0, "customer phone", 1.0),
				neg: []string{"supplier", "office", "fax", "salesman", "user", "company"}},
			{name: "credit_limit", kind: kindMoney, hints: creditHints, neg: []string{"days", "debit", "period", "used", "total", "balance", "opening", "closing"}},
			{name: "outstanding", kind: kindMoney, hints: dueHints, neg: dueNeg},
			{name: "segment", kind: kindGroup, hints: hints("segment", 1.0, "category", 0.85, "customer type", 0.9, "type", 0.6,
				"class", 0.6, "group", 0.7, "customer group", 0.9, "grade", 0.7), neg: []string{"company", "code", "tax", "payment", "item"}},
			{name: "aliases", kind: kindText, hints: hints("alias", 1.0, "short name", 0.9, "alias name", 1.0, "other name", 0.8), neg: []string{"code", "company"}},
			{name: "payment_modes", kind: kindModes, hints: hints("payment mode", 1.0, "mode", 0.8, "payment type", 0.9, "payment", 0.6, "payment terms", 0.8),
				neg: []string{"days", "date", "amount", "limit"}},
		},
	},
	{
		entity: erpsync.Stock, tier: 5 * time.Minute,
		tableHint: hints("stock", 1.0, "closing stock", 1.0, "stock summary", 1.0, "item", 0.7, "product", 0.7, "material", 0.6, "sku", 0.7),
		tableNeg:  []string{"order", "sales", "purchase", "grn", "bill", "log", "customer", "supplier", "receipt", "voucher", "line", "return", "dispatch"},
		fields: []fieldDef{
			{name: "sku", kind: kindCode, required: true, ref: erpsync.Products, hints: skuHints, neg: skuNeg},
			{name: "stock_ready", kind: kindQty, required: true, hints: stockHints, neg: stockNeg},
			{name: "stock_wip", kind: kindQty, hints: wipHints, neg: []string{"rate", "price", "amount", "value"}},
		},
	},
	{
		entity: erpsync.Dues, tier: 2 * time.Minute,
		tableHint: hints("outstanding", 1.0, "due", 1.0, "receivable", 1.0, "balance", 0.8, "customer", 0.75, "account", 0.5, "debtor", 0.8),
		tableNeg:  []string{"supplier", "order", "item", "product", "log", "detail", "line", "stock", "purchase", "voucher"},
		fields: []fieldDef{
			{name: "customer_id", kind: kindCode, required: true, ref: erpsync.Customers, hints: custHints, neg: custNeg},
			{name: "outstanding", kind: kindMoney, required: true, hints: dueHints, neg: dueNeg},
			{name: "credit_limit", kind: kindMoney, hints: creditHints, neg: []string{"days", "debit", "period", "used", "total", "balance", "opening", "closing"}},
		},
	},
	{
		entity: erpsync.Bills, tier: 2 * time.Minute, join: true,
		tableHint: hints("bill", 1.0, "bill register", 1.0, "sales bill", 1.0, "tax bill", 1.0, "bill header", 1.0, "voucher", 0.5, "sales", 0.35, "outstanding", 0.5),
		tableNeg:  []string{"order", "purchase", "grn", "receipt", "payment", "detail", "line", "log", "item", "product", "supplier", "return"},
		fields: []fieldDef{
			{name: "bill_no", kind: kindCode, required: true, key: true, hints: hints("bill number", 1.0, "voucher number", 0.85, "bill", 0.7,
				"bill id", 0.9, "number", 0.45, "reference", 0.4, "document number", 0.8), neg: []string{"line", "serial", "item", "customer", "order", "cheque", "purchase"}},
			{name: "customer_id", kind: kindCode, required: true, ref: erpsync.Customers, hints: custHints, neg: custNeg},
			{name: "date", kind: kindDate, required: true, hints: dateHints, neg: dateNeg},
			{name: "amount", kind: kindMoney, required: true, hints: hints("bill amount", 1.0, "amount", 0.85, "total", 0.8, "net amount", 0.9,
				"bill value", 0.95, "total amount", 0.95, "gross amount", 0.8, "net", 0.6, "value", 0.6), neg: []string{"balance", "paid", "tax", "discount", "outstanding", "pending", "received", "due", "rate", "percent"}},
			{name: "balance", kind: kindMoney, hints: hints("balance", 1.0, "balance amount", 1.0, "outstanding", 1.0, "pending amount", 0.9,
				"pending", 0.7, "due amount", 0.9, "due", 0.8, "unpaid", 0.9), neg: []string{"tax", "discount", "opening", "percent", "date", "days"}},
		},
	},
	{
		entity: erpsync.Sales, tier: 15 * time.Minute, join: true, history: true,
		tableHint: hints("sales order", 1.0, "sales", 0.85, "order", 0.8, "sales detail", 1.0, "order detail", 1.0, "sales bill", 0.8, "bill detail", 0.8, "sales line", 1.0, "order line", 1.0),
		tableNeg:  []string{"purchase", "grn", "receipt", "payment", "log", "supplier", "return", "stock", "master"},
		fields:    lineFields(),
	},
	{
		entity: erpsync.OpenOrders, tier: 2 * time.Minute, join: true,
		tableHint: hints("pending order", 1.0, "open order", 1.0, "order pending", 1.0, "backorder", 1.0),
		tableNeg:  []string{"purchase", "grn", "receipt", "payment", "log", "supplier", "return", "master"},
		fields:    lineFields(),
	},
	{
		entity: erpsync.Payments, tier: 2 * time.Minute, join: true, history: true,
		tableHint: hints("receipt", 0.9, "payment", 1.0, "collection", 1.0, "money receipt", 1.0, "payment received", 1.0, "receipt voucher", 1.0, "cash", 0.6, "bank", 0.5),
		tableNeg:  []string{"grn", "goods", "purchase", "item", "product", "order", "log", "supplier", "stock", "inward", "production", "bill", "master"},
		fields: []fieldDef{
			{name: "date", kind: kindDate, required: true, hints: dateHints, neg: append([]string{"bill"}, dateNeg...)},
			{name: "customer_id", kind: kindCode, required: true, ref: erpsync.Customers, hints: custHints, neg: custNeg},
			{name: "amount", kind: kindMoney, required: true, hints: hints("amount", 1.0, "receipt amount", 1.0, "payment amount", 1.0, "amount received", 1.0,
				"received", 0.8, "value", 0.6, "net amount", 0.9, "total", 0.6), neg: []string{"balance", "bill", "tax", "discount", "pending", "due", "outstanding", "rate", "percent"}},
			{name: "mode", kind: kindMode, hints: hints("mode", 1.0, "payment mode", 1.0, "payment type", 1.0, "receipt mode", 1.0, "type", 0.5, "payment", 0.6, "instrument", 0.7),
				neg: []string{"number", "date", "amount", "bank", "code"}},
			{name: "reference", kind: kindCode, hints: hints("receipt number", 1.0, "voucher number", 0.95, "reference", 1.0, "reference number", 1.0,
				"cheque number", 0.75, "utr", 0.75, "number", 0.5, "transaction id", 0.8, "id", 0.35), neg: []string{"bill", "customer", "line", "date", "account", "bank"}},
		},
	},
	{
		entity: erpsync.Receipts, tier: 5 * time.Minute, join: true, history: true,
		tableHint: hints("grn", 1.0, "goods received", 1.0, "purchase", 0.85, "inward", 0.95, "production", 0.85, "stock received", 1.0,
			"purchase receipt", 1.0, "material receipt", 1.0, "receipt", 0.35, "production entry", 1.0),
		tableNeg: []string{"payment", "money", "collection", "sales", "log", "customer", "master", "cash", "bank", "bill"},
		fields: []fieldDef{
			{name: "reference", kind: kindCode, required: true, hints: hints("grn number", 1.0, "receipt number", 0.85, "voucher number", 0.85,
				"reference", 0.8, "number", 0.5, "bill number", 0.6, "purchase number", 0.8, "grn", 0.8, "document number", 0.8),
				neg: []string{"line", "item", "supplier", "date", "order", "serial"}},
			{name: "sku", kind: kindCode, required: true, ref: erpsync.Products, hints: skuHints, neg: skuNeg},
			{name: "qty", kind: kindQty, required: true, hints: append(hints("received quantity", 0.9, "accepted quantity", 1.0, "acc quantity", 0.95), qtyHints...), neg: qtyNeg},
			{name: "date", kind: kindDate, required: true, hints: dateHints, neg: append([]string{"bill", "order"}, dateNeg...)},
		},
	},
}

var (
	stockHints = hints("closing quantity", 1.0, "closing stock", 1.0, "stock", 0.85, "stock quantity", 1.0, "quantity hand", 1.0,
		"hand", 0.85, "available quantity", 1.0, "available", 0.8, "balance quantity", 0.9, "closing", 0.8, "quantity", 0.5, "current stock", 1.0)
	stockNeg    = []string{"wip", "process", "production", "order", "minimum", "opening", "rate", "price", "amount", "value", "pending", "prod", "receipt", "sales", "purchase"}
	wipHints    = hints("wip", 1.0, "wip quantity", 1.0, "process", 0.85, "process quantity", 1.0, "production", 0.85, "prod quantity", 0.9, "prod", 0.75)
	dueHints    = hints("outstanding", 1.0, "balance", 0.9, "closing balance", 1.0, "due", 0.9, "receivable", 1.0, "outstanding amount", 1.0, "balance amount", 0.95, "due amount", 1.0)
	dueNeg      = []string{"opening", "limit", "days", "bill", "quantity", "percent", "date"}
	creditHints = hints("credit limit", 1.0, "limit", 0.75, "credit", 0.4, "max credit", 0.9)
)

// lineFields are a sales line's: order, date, customer, SKU, quantity, price.
func lineFields() []fieldDef {
	return []fieldDef{
		{name: "order_id", kind: kindCode, required: true, hints: orderNoHints, neg: orderNoNeg},
		{name: "line", kind: kindLine, hints: hints("line", 1.0, "line number", 1.0, "serial", 0.9, "serial number", 0.95, "item serial", 0.9),
			neg: []string{"order", "bill", "item", "quantity", "rate", "amount", "tax", "percent", "customer", "status"}},
		{name: "date", kind: kindDate, required: true, hints: dateHints, neg: append([]string{"bill"}, dateNeg...)},
		{name: "customer_id", kind: kindCode, required: true, ref: erpsync.Customers, hints: custHints, neg: custNeg},
		{name: "sku", kind: kindCode, required: true, ref: erpsync.Products, hints: skuHints, neg: skuNeg},
		{name: "qty", kind: kindQty, required: true, hints: qtyHints, neg: qtyNeg},
		{name: "price", kind: kindMoney, required: true, hints: priceHints, neg: priceNeg},
		{name: "gst_percent", kind: kindPercent, hints: percentHint, neg: percentNeg},
		{name: "status", kind: kindStatus, hints: statusHints, neg: []string{"payment", "date", "tax", "bill"}},
	}
}

func defOf(e erpsync.Entity) *entityDef {
	for i := range entityDefs {
		if entityDefs[i].entity == e {
			return &entityDefs[i]
		}
	}
	return nil
}
