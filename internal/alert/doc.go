// Package alert tells people, on WhatsApp through the outbox, about a
// problem with something outside Munshi (the Google Sheet, the ERP): once
// per distinct problem of a topic, not at every try, and once when it is
// put right. What was told is kept in the audit log under the teller's own
// kind, so that a restart does not tell the same problem again.
//
// It imports internal/domain and internal/audit (the entries it reads
// back) only; it knows nothing of what goes wrong or what the messages
// say.
package alert
