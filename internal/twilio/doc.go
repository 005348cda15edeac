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
// TWILIO_API_URL redirects the REST calls to another host (a fake in tests)
// by rewriting each request's scheme and host, since twilio-go has no
// base-URL option.
package twilio
