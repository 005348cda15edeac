package reports

import "github.com/munshi/munshi/internal/domain"

var specs = []ToolSpec{
	{
		Name: ToolCheckStock,
		Description: "Stock in base units: ready in the godown, in production (work in progress), committed to open orders, and available = ready − committed. " +
			"With a product, that product's stock, and with a quantity also whether it can be committed. Without a product, the whole catalog's totals and the first products by name.",
		Parameters: []ParamSpec{
			{Name: "product", Type: "string", Description: "SKU or product name, as the person said it (\"GC\", \"phenyl\", \"फिनाइल\"); omit for the whole catalog"},
			{Name: "quantity", Type: "integer", Description: "a quantity to check against what is available, in the given unit"},
			{Name: "unit", Type: "string", Description: "the unit of quantity: the product's base unit or one of its packs (carton, box, dozen…); base unit when omitted"},
			{Name: "offset", Type: "integer", Description: "rows to skip, to page through the catalog"},
		},
	},
	{
		Name:        ToolOutOfStock,
		Description: "Products with nothing available (ready minus committed at or below zero), by name, with what is in production.",
		Parameters: []ParamSpec{
			{Name: "soon", Type: "boolean", Description: "instead, the products that run out first (\"kaunsa maal khatam hone wala hai\", \"running low\"): nothing available first, then the fewest days of cover at the last 28 days' sales"},
			{Name: "offset", Type: "integer", Description: "rows to skip, to page through the list"},
		},
	},
	{
		Name: ToolOutstanding,
		Description: "What customers owe: outstanding dues, credit limit, headroom (limit − outstanding) and the age of the oldest unpaid bill. " +
			"Without a customer, everyone who owes money, largest due first.",
		Parameters: []ParamSpec{
			{Name: "customer", Type: "string", Description: "customer id or name (\"Mehta ji\", \"C03\"); omit for everyone who owes"},
			{Name: "offset", Type: "integer", Description: "rows to skip, to page through the list"},
		},
	},
	{
		Name:        ToolPendingOrders,
		Description: "Open orders: waiting for an owner's approval, then committed and waiting for delivery, oldest first, with totals (with GST).",
		Parameters: []ParamSpec{
			{Name: "customer", Type: "string", Description: "customer id or name; omit for all customers"},
			{Name: "offset", Type: "integer", Description: "rows to skip, to page through the list"},
		},
	},
	{
		Name: ToolSalesSummary,
		Description: "Sales (committed and delivered orders) in a period: amount before GST, GST, orders and quantity, grouped by product, customer or day. " +
			"\"Who bought glass cleaner last week?\" is by=customer with product=glass cleaner.",
		Parameters: []ParamSpec{
			{Name: "period", Type: "string", Description: "today, yesterday, this_week, last_week, this_month, last_month, this_year or last_N_days such as last_30_days (weeks start on Monday); when omitted, this_month from the 8th of the month on and last_30_days before it"},
			{Name: "by", Type: "string", Enum: []string{string(ByProduct), string(ByCustomer), string(ByDay)}, Description: "how to group: product (default), customer (default when a product is given) or day"},
			{Name: "product", Type: "string", Description: "only this product (SKU or name)"},
			{Name: "customer", Type: "string", Description: "only this customer (id or name)"},
			{Name: "offset", Type: "integer", Description: "rows to skip, to page through the groups"},
		},
	},
	{
		Name:        ToolTopCustomers,
		Description: "Customers ranked by sales (before GST) in a period.",
		Parameters: []ParamSpec{
			{Name: "period", Type: "string", Description: "today, yesterday, this_week, last_week, this_month, last_month, this_year or last_N_days; when omitted, this_month from the 8th of the month on and last_30_days before it"},
			{Name: "offset", Type: "integer", Description: "rows to skip, to page through the ranking"},
		},
	},
	{
		Name: ToolOrderStatus,
		Description: "Orders and where each stands: waiting for an owner's approval, refused, committed (to deliver), delivered or cancelled, newest first. " +
			"Sales staff see only the orders they placed. \"ORD-1042 kahan hai\" is order=ORD-1042; \"aaj ke mere orders\" is period=today.",
		Parameters: []ParamSpec{
			{Name: "order", Type: "string", Description: "one order's number (\"ORD-1042\", \"1042\", an imported bill number); omit for a list"},
			{Name: "latest", Type: "boolean", Description: "only the newest order of the list (\"Rajesh ka last order\"), shown as one order"},
			{Name: "customer", Type: "string", Description: "only this customer's orders (id or name)"},
			{Name: "period", Type: "string", Description: "only orders placed in this period: today, yesterday, this_week, last_week, this_month, last_month, this_year or last_N_days; any time when omitted"},
			{Name: "offset", Type: "integer", Description: "rows to skip, to page through the list"},
		},
	},
	{
		Name: ToolPaymentsReceived,
		Description: "Payments received (collections) in a period: the total, how many payments and from how many customers, grouped by customer " +
			"(largest first), by mode (cash, UPI, cheque, bank transfer), by day, or each payment (newest first). Payments recorded through the chat " +
			"and imported history both count. \"aaj kitna payment aaya\" is period=today; \"is mahine UPI se kitna aaya\" is period=this_month, mode=upi; " +
			"\"kal kis kis ne payment kiya\" is period=yesterday; \"mode wise\" is by=mode.",
		Parameters: []ParamSpec{
			{Name: "period", Type: "string", Description: "today (default), yesterday, this_week, last_week, this_month, last_month, this_year or last_N_days (weeks start on Monday); omit when giving from and to"},
			{Name: "from", Type: "string", Description: "the first day of a period given by dates, YYYY-MM-DD; with to (default today), at most 366 days"},
			{Name: "to", Type: "string", Description: "the last day of a period given by dates, YYYY-MM-DD, counted in full"},
			{Name: "customer", Type: "string", Description: "only this customer's payments (id or name); then each payment is listed unless by is given"},
			{Name: "mode", Type: "string", Description: "only payments by this mode: cash, upi, cheque or bank_transfer (GPay, PhonePe and Paytm are UPI; NEFT, RTGS and IMPS bank transfer); several separated by commas; omit for every mode"},
			{Name: "by", Type: "string", Enum: []string{string(PaymentsByCustomer), string(PaymentsByMode), string(PaymentsByDay), string(PaymentsByPayment)}, Description: "how to group: customer (default), mode, day, or payment (each one; the default for one customer)"},
			{Name: "offset", Type: "integer", Description: "rows to skip, to page through the list"},
		},
	},
	{
		Name: ToolDailyDigest,
		Description: "A daily digest as it was sent (a day against a usual day of that weekday, customers to call, stock running out, work waiting); accounts get its dues part. " +
			"\"aaj ka digest\" is today's (about yesterday); \"kal ka digest\" is edition=yesterday (about the day before).",
		Parameters: []ParamSpec{
			{Name: "edition", Type: "string", Enum: []string{EditionToday, EditionYesterday}, Description: "the morning it came out: today (default) or yesterday"},
		},
	},
}

// Specs describes the tools for a tool-calling model's function
// declarations. The list is fixed, so declarations stay byte-identical
// across calls.
func Specs() []ToolSpec {
	out := make([]ToolSpec, len(specs))
	copy(out, specs)
	return out
}

func specByName(name string) (ToolSpec, bool) {
	for _, s := range specs {
		if s.Name == name {
			return s, true
		}
	}
	return ToolSpec{}, false
}

// SnapshotRows is how many rows a snapshot carries.
const SnapshotRows = 10

// Snapshot is the compact form of a result a model sees: the row count,
// the columns, the first rows and the totals, never a whole table. Money is
// written as rupees ("₹2,10,000"), quantities in base units. A failed or
// refused call snapshots as its error and message.
func (r Result) Snapshot(err error, maxRows int) map[string]any {
	if err != nil || r.Report == nil {
		msg := ErrorText(r, err)
		code := "error"
		if err != nil {
			code = domain.ErrorCode(err)
		}
		return map[string]any{"tool": r.Tool, "error": code, "message": msg}
	}
	if maxRows <= 0 {
		maxRows = SnapshotRows
	}
	c := r.at
	cols, rows, totals := r.Report.table(c)
	_, _, offset, total := r.Report.view(c)
	if len(rows) > maxRows {
		rows = rows[:maxRows]
	}
	snap := map[string]any{
		"tool": r.Tool, "as_of": c.now.In(c.loc).Format("2006-01-02 15:04"),
		"row_count": max(total, len(rows)), "offset": offset, "columns": cols, "rows": rows,
	}
	if len(totals) > 0 {
		snap["totals"] = totals
	}
	if rest := total - offset - len(rows); rest > 0 {
		snap["more_rows"] = rest
	}
	return snap
}
