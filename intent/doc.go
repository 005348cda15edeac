// Package intent decides what a person wants from a WhatsApp message: one of
// the domain intents (greeting, help, order, confirm, cancel, stock,
// outstanding, pending_orders, report, unknown, and for the books after an
// order delivery, payment, stock_received, order_status).
//
// It owns three things:
//
//   - normalisation: lower-casing, punctuation, emoji, Devanagari digits,
//     the many romanised-Hindi spellings of the same word (a Devanagari word
//     no table lists is read as the Hinglish word it is written for,
//     hinglish.go), and the entities a
//     message names (products, customers, units, numbers, order references),
//     recognised against the Vocabulary the Router is built with;
//   - the routing tiers: exact rules for the unambiguous, a small statistical
//     model trained at start-up on the embedded corpus for the rest, and an
//     optional Classifier (an LLM adapter) for what the model abstains on;
//   - the evaluation logic behind `munshi route` and `munshi eval`.
//
// Routing is advisory: this package never sends a message, writes an order
// or approves anything. A confirm or cancel decision only ever comes from the
// rules or the local model, never from the LLM tier.
// A delivery, a payment or goods received, from any tier, carries its
// evidence (lifecycle.go): an order reference, an amount and a payer, a
// quantity of goods that arrived.
//
// It imports only the standard library and internal/domain. Product and
// customer names never appear in its code: they come from the Vocabulary, so
// the same router serves any distributor's catalog.
package intent
