// Package outbox delivers Munshi's side effects. Callers write effects
// (domain.Effect: a kind, a recipient, the sender's JSON payload) to the
// outbox in the same transaction as the change that caused them; the
// Dispatcher leases due messages, hands each payload to the one Sender
// registered for its kind (WhatsApp, email, the Google Sheet's order log;
// a new kind is a new sender), and records the outcome. Leases make a
// crash or restart safe: an unfinished send becomes due again and nothing
// is lost.
//
// A BatchSender (the Sheet, whose quota is requests a minute) gets its
// kind's due messages together: those claimed while its previous batch
// was being sent, after lingering briefly for more, at most MaxBatch at
// once; each message is settled by its own result. A Patient sender's
// messages are retried for longer than MaxAge.
//
// A failed send is one of three things, as the sender's error says:
//
//   - held: the credentials or the set-up are wrong (a Twilio 401, an SMTP
//     535, no sender for the kind). Nothing is wrong with the message: it
//     stays pending without using up attempts, is tried again every few
//     minutes, and is due at once when the dispatcher starts. The kind is
//     held until a send of it succeeds; the dispatcher logs the hold once
//     and reports it through Holds and Check.
//   - permanent: this message is refused (an invalid number, a rejected
//     mailbox). It is given up at once.
//   - transient: anything else. It is retried with backoff, never sooner
//     than a wait the provider asked for (a 429's Retry-After), and given
//     up only once the message is MaxAge old (24 hours, WhatsApp's window).
//
// A message given up for good that names a phone to tell on failure
// enqueues one WhatsApp warning to it in the same transaction. Provider
// error text is redacted before it is stored, logged or recorded.
//
// It must not know what the messages say.
package outbox
