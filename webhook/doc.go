// Package webhook is Munshi's Twilio edge: it verifies X-Twilio-Signature,
// parses Twilio's incoming-message form, dedupes on MessageSid, holds each
// message to the time budget, and answers with TwiML. It also records
// delivery-status callbacks.
//
// The Pipeline (dedupe, budget, reply record) is shared with `munshi chat`,
// so the terminal and WhatsApp go through the same path. It must not know SQL
// or prompts: it sees the store and the conversation only through the narrow
// interfaces declared here.
package webhook
