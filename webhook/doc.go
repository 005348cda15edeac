// Package webhook is Munshi's Twilio edge: it verifies X-Twilio-Signature,
// parses Twilio's incoming-message form, dedupes on MessageSid, holds each
// message to the time budget, and answers with TwiML. It also records
// delivery-status callbacks.
//
// The Pipeline (dedupe, budget, reply record) is shared with `munshi chat`,
// so the terminal and WhatsApp go through the same path. A message is
// claimed with a lease longer than any answer takes and bound to its
// sender: a MessageSid from another number is refused (403) and audited. A
// claim that runs out unanswered means the process died answering it; a
// retry then takes the message over, and Recover, run at start and
// periodically, answers what is left through Late (or closes it, past
// WhatsApp's 24-hour window). With a shared Seer (Redis), instances with
// their own databases claim each message once across all of them. The
// audit entries that describe a message are held in its context and
// committed with its reply (audit.Hold), before the webhook answers.
//
// It must not know SQL or prompts: it sees the store, the shared dedupe and
// the conversation only through the narrow interfaces declared here.
package webhook
