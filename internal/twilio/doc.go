// Package twilio adapts Twilio's WhatsApp API to Munshi through twilio-go:
// it verifies webhook signatures with client.RequestValidator and sends
// messages with Api.CreateMessage. Twilio's types stop here; callers see
// domain.Outbound and plain strings.
//
// TWILIO_API_URL redirects the REST calls to another host (a fake in tests)
// by rewriting each request's scheme and host, since twilio-go has no
// base-URL option.
package twilio
