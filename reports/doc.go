// Package reports answers owners' and accounts' questions from the books:
// typed, read-only business tools (stock, out of stock, outstanding, pending
// orders, sales summaries, top customers, payments received) with role
// permissions enforced here, deterministic rendering for WhatsApp, and a
// bounded tool-calling agent for questions the deterministic path cannot
// map.
//
// It must not send messages itself, and never offers a raw-SQL tool. It
// must not import the store (the store imports it for its row types);
// Books is the narrow, read-only interface it needs; every store behind
// internal/store implements it.
//
// # Tools
//
// Tools.Call(ctx, user, name, args) is the one entry every way of asking
// goes through — the WhatsApp path, the agent and `munshi mcp`:
//
//  1. the role check (owners: every tool; accounts: outstanding, pending
//     orders, order status, sales and payments received; sales staff:
//     stock, and the pending orders and order status of the orders they
//     placed — asked about someone else's order by number, they are told
//     it is not theirs, a refusal; anyone else: nothing), refusing
//     politely and saying who can see it;
//  2. the arguments, with product and customer names resolved (exact SKU
//     or id, name or alias in the books, then the Normalizer's reading with
//     Hindi spellings and typos; a shared name such as "Gupta" means all of
//     its customers);
//  3. the books, under CallTimeout (each query also has its own time limit
//     and a row limit of MaxRows);
//  4. the audit entry: actor, tool, arguments (cut to the tool's own
//     parameters), rows returned, latency, refused or not — kind "tool", or
//     "refusal" when refused.
//
// The tools, as Specs describes them to a model:
//
//	check_stock(product?, quantity?, unit?)  ready, in production, committed to open orders, available = ready − committed;
//	                                         with a quantity, whether it can be committed
//	out_of_stock()                           products with nothing available
//	outstanding(customer?)                   dues, credit limit, headroom, age of the oldest unpaid bill
//	pending_orders(customer?)                waiting for approval, then to deliver
//	sales_summary(period, by, product?, customer?)  by product, customer or day, before GST
//	top_customers(period)                    customers by sales
//	order_status(order?, customer?, period?) where orders stand: waiting for the owner, not approved,
//	                                         committed (to deliver), delivered, cancelled; newest first
//	payments_received(period | from, to, customer?, mode?, by?)
//	                                         collections: the total, payments and customers, by customer
//	                                         (largest first), mode, day or each payment (newest first)
//
// Imported history (orders from another system's files) counts in sales
// and in the age of the oldest unpaid bill, whatever its payment mode; it
// holds no stock and is never pending (the other system had it open, and
// Munshi cannot deliver it); order_status shows it, marked as imported
// history. Imported payments count in payments_received like those
// recorded in the chat: both are money that came in.
//
// A payments question names its period like a sales question, or gives
// dates (from, to; at most MaxPeriodDays), and covers today when it names
// neither: collections are counted day by day. Modes are read from the
// words people use (GPay and PhonePe are UPI, NEFT a bank transfer, nakad
// cash), as the router hands no entity for them; one customer's payments
// are listed one by one.
//
// Every list tool also takes offset. Periods: today, yesterday, this_week,
// last_week, this_month, last_month, this_year, last_N_days; weeks start on
// Monday, in Tools.Location (Asia/Kolkata by default). A sales question
// that names no period covers this month so far from the 8th of the month
// on, and the last 30 days before it, so that on the 1st it still has sales
// to show; the answer's title says which. A "this" period named by the
// person keeps its meaning and says how many days it holds.
//
// The oldest unpaid bill is derived first in, first out: payments settle
// the oldest bills first, so walking a customer's credit orders (committed
// or delivered) newest first and adding up their totals until they reach
// customers.outstanding_paise (the truth for dues), the last order reached
// is the oldest unpaid bill. When every credit order on record adds up to
// less, part of the due (an opening balance) is older than the records, and
// the answer says so.
//
// # The deterministic path
//
// Plan maps a routed message (intent.Decision: the intent and the
// products, customers, quantities and period words the router found) to
// one tool call; Answer runs it and renders a WhatsApp message: short
// lines, ₹ with Indian grouping, quantities in base units with packs, at
// most MaxMessageChars (1,600). When rows remain, the message says "Reply
// MORE for the rest", and ReplyKeys hands back the Place it stopped at (in
// Keys.More, valid for MoreTTL) for the caller's conversation memory to
// keep, so that whichever instance gets the MORE can Continue it. Reply
// and More keep the place in this process instead, for callers without a
// memory of their own.
//
// Each report's Table is the page of typed rows (text, money in paise,
// quantities with their unit, counts, dates, days) and the totals its text
// is made from, so that a chart or a spreadsheet shows the same figures as
// the reply.
//
// # The agent
//
// Agent.Ask runs a tool-calling loop for what Plan cannot map: at most
// MaxSteps model calls, each under StepTimeout, all under TotalTimeout,
// over the same tools (so the same permissions and audit). Results go back
// to the model as compact snapshots (Result.Snapshot: row count, columns,
// the first rows, totals). Every number in the model's final text must
// appear in those snapshots or in the question (₹, Indian grouping and
// trailing decimals normalised); otherwise, and on a model error, a
// timeout or running out of steps, the person gets the deterministic
// rendering of the results gathered instead. AgentPrompt is the static
// system instruction for the model adapter.
package reports
