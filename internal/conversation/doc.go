// Package conversation answers one inbound message: it knows who sent it
// (an unknown number gets a polite refusal once a day, then silence, and
// nothing else), routes the text through the intent tiers, dispatches to
// the part of Munshi that handles that intent, and audits the message, the
// decision and the reply.
//
// Memory is read before and written after: the recent turns resolve
// follow-ups ("uska stock"), and the continuation an answer leaves is kept
// with the conversation, so that "MORE" continues it on whichever instance
// receives it. Each message may spend two LLM calls, set on its context
// with internal/llmbudget; the conversation knows no model vendor.
//
// When Munshi cannot help, the conversation is handed over to the office
// (handoff.go, internal/handoff): the person asked or disputes, two
// messages in a row were not understood, or a bounded step gave up
// (Service.GaveUp is the hook for the steps outside answer's own path).
// The office's "H-17 …" is relayed as text before anything routes it.
//
// It is the Responder behind the webhook pipeline and `munshi chat`. It must
// not know HTTP or Twilio.
package conversation
