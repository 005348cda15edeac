// Package orders turns a salesperson's message into a committed order: it
// parses the text against the catalog and customers, prices it (integer
// paise, GST per line), checks the five business rules in parallel, keeps the
// draft that was shown, and approves, escalates or commits it.
//
// A draft is shown under a reference of its own (D-57), which the
// salesperson and the owners use until it is placed; the order number
// (ORD-1042) is taken by the commit, inside its transaction, so the books'
// numbers run on without gaps whatever drafts were dropped or refused.
//
// Rounding: each line's amount is quantity × price per base unit, exact in
// paise; GST is computed per line and rounded half up to the paisa; the
// order's subtotal, GST and total are sums of the lines. The minimum order
// value and the credit limit are checked against the total including GST,
// the amount the customer will owe.
//
// It must not talk HTTP or send messages itself: notifications are effects
// (domain.Effect) the store writes to the outbox in the commit's or the
// draft move's transaction.
package orders
