// Package handoff hands a conversation over to the office when Munshi
// cannot help: the person asked for someone ("owner se baat karao"), two
// messages in a row were not understood, a bounded step gave up (the agent
// ran out of steps or calls, the LLM was down and the local tiers
// abstained, a voice note or photo could not be read), or the person
// disputes what Munshi said ("price galat hai").
//
// A Handoff has a short handle ("H-17") and at most one is open per
// person, which the database enforces: a second trigger, and whatever
// Munshi cannot answer while it is open, is added to the open one and
// relayed to the office. Every phone of the office (MUNSHI_HANDOFF_TO, by
// default the owners) gets one WhatsApp when it opens: the handle, who it
// is, why, the last messages of the conversation (redacted as the audit
// log redacts) and what Munshi tried. The office answers "H-17 haan, 5%
// discount de do", which is relayed to the person as coming from that
// owner, and "H-17 done" closes it. A reply from a phone that is not the
// handoff's office is refused. A relayed text carries no authority: it is
// passed on as text and never read as an approval, an order or anything
// else.
//
// A handoff the office has not answered within MUNSHI_HANDOFF_TIMEOUT of
// office time (MUNSHI_OFFICE_HOURS; see Hours.Due) is reminded once, and
// the person is told when to expect an answer. Every message goes through
// the outbox, written in the same transaction as the change to the
// handoff; to an office phone outside WhatsApp's 24-hour window it goes
// as the approved template the digest uses (Window). Opening, each relay,
// the close and the reminder are audited.
//
// The package must not import the store, Twilio, the conversation or the
// intent tiers: it is told what Munshi tried, and declares the storage it
// needs (Store).
package handoff
