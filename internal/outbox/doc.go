// Package outbox delivers Munshi's side effects. Callers write messages to
// the outbox table in the same transaction as the change that caused them;
// the Dispatcher leases due rows, hands each to the sender for its kind
// (WhatsApp, email), and records the outcome, retrying with exponential
// backoff. Leases make a crash or restart safe: an unfinished send becomes
// due again and nothing is lost.
//
// It must not know what the messages say.
package outbox
