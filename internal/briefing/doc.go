// Package briefing delivers the daily digest: at MUNSHI_DIGEST_AT in
// MUNSHI_TZ (7 am in Kolkata by default), and at start when Munshi was
// down then, until MUNSHI_DIGEST_LATEST. Owners get the owner brief on
// WhatsApp and OWNER_EMAIL the owner mail; accounts users get the dues
// part and ACCOUNTS_EMAIL the accounts mail.
//
// Each delivery (date, recipient, channel) is claimed in the database in
// the same transaction as the outbox effect it enqueues, so a digest goes
// out once whatever the number of instances, restarts or manual sends
// ("munshi digest --send").
//
// WhatsApp lets a business start a conversation only with an approved
// template: someone who has not written in 24 hours gets the template
// MUNSHI_DIGEST_TEMPLATE_SID (the date and the headline), and the full
// brief is held until they next write. Without a template they get only
// the email, and the log and /readyz say so. A send Twilio refuses with
// 63016 (outside the window) falls back the same way.
//
// What the digest says is not this package's: it asks Editions for it. It
// must not import the store, Twilio, SMTP or any report package.
package briefing
