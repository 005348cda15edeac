// Package twilio adapts Twilio's WhatsApp API to Munshi through twilio-go:
// it verifies webhook signatures with client.RequestValidator and sends
// messages with Api.CreateMessage. Twilio's types stop here; callers see
// domain.Outbound and plain strings.
//
// A failed send is an *Error that says what it means for the message:
// permanent (Twilio refuses this recipient or this content), held (the
// credentials, the account or the sender are wrong, which says nothing
// about the message) or transient (the network, rate limits, Twilio's own
// trouble), with a short reason for people.
//
// MediaFetcher downloads an inbound message's media (MediaUrlN): only a
// media URL of the account on api.twilio.com, with the account's basic
// auth, following at most three redirects and only to Twilio's media hosts
// (*.twiliocdn.com, api.twilio.com), without the credentials. Only the
// types domain.KindOf reads are fetched, declared and served, up to a size
// cap, within a timeout; the bytes are never logged.
//
// TWILIO_API_URL redirects the REST calls to another host (a fake in tests)
// by rewriting each request's scheme and host, since twilio-go has no
// base-URL option; a media fetch also follows redirects to its host.
package twilio
