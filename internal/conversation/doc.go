// Package conversation answers one inbound message: it knows who sent it
// (an unknown number gets a polite refusal once a day, then silence, and
// nothing else), routes the text through the intent tiers, dispatches to
// the part of Munshi that handles that intent, and audits the message, the
// decision and the reply.
//
// It is the Responder behind the webhook pipeline and `munshi chat`. It must
// not know HTTP or Twilio.
package conversation
