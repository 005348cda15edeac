// Package loadtest sends Munshi the traffic Twilio would: incoming-message
// webhooks, form-encoded as Twilio posts them and signed with
// X-Twilio-Signature over MUNSHI_PUBLIC_URL and the auth token (the
// scheme the webhook verifies, internal/twilio.Sign), spread over one or
// more running instances.
//
// Traffic is a list of Senders, each a phone that is a user in the books
// and what that person says, in order. Each sender's messages go one at
// a time, the next only once every delivery of the one before has been
// answered; different senders talk at once. Mix builds the usual traffic
// from a Roster of owners, sales and accounts: owners' questions (stock,
// dues, sales), greetings, and orders each followed by "ok".
//
// Options.Rate makes the loop open: messages are offered at a fixed rate
// in all, as they arrive from many people, and latencies count from when
// each was due. That measures the latency at a given load; the closed
// loop measures the most an instance answers.
//
// Options.Copies delivers every message several times under the same
// MessageSid, each copy to another instance, Options.AtOnce of them at
// the same time and the rest one after another: Twilio's retry storm.
//
// Run returns a Report: every delivery with its instance, HTTP status,
// latency and TwiML reply, so that callers check outcomes; and messages
// per second, the latency percentiles and the errors (anything but a
// 200), for measurements.
//
// It is a tool of tests and measurements: Munshi itself must not import
// it. It imports nothing of Munshi but the signature scheme.
package loadtest
