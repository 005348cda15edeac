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
// Each edition is kept (Sends.KeepEdition) when it is first composed for
// sending, and everyone who gets that day's brief later (a manual send, a
// second instance) gets the kept one. A person who asks for a digest in
// the chat (Brief: "aaj ka digest" is today's edition, about yesterday;
// "kal ka digest" yesterday's) reads it as it was sent, after a line
// naming the headline figures that read differently in the books now; a
// day never sent is composed from the books as they are, without the
// model, inside the webhook's budget.
//
// HeldBriefs wraps the webhook's inbox so that a held brief goes when its
// reader next writes, and Statuses its status callbacks so that a 63016
// falls back; both are declared here (Inbox, StatusRecorder) rather than
// imported, so that delivery does not depend on the Twilio edge. Each run
// logs what went (briefs, templates, mails) or why nothing did.
//
// What the digest says is not this package's: it asks Editions for it. It
// must not import the store, Twilio, SMTP, the webhook or any report
// package.
package briefing
