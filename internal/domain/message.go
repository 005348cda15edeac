package domain

import "time"

// Intent is what a person wants from a message.
type Intent string

const (
	IntentGreeting      Intent = "greeting"
	IntentHelp          Intent = "help"
	IntentOrder         Intent = "order"
	IntentConfirm       Intent = "confirm"
	IntentCancel        Intent = "cancel"
	IntentStock         Intent = "stock"
	IntentOutstanding   Intent = "outstanding"
	IntentPendingOrders Intent = "pending_orders"
	IntentReport        Intent = "report"
	IntentUnknown       Intent = "unknown"

	// The books after an order: recorded from the chat by owners and
	// accounts, asked about by everyone.
	IntentDelivery      Intent = "delivery"
	IntentPayment       Intent = "payment"
	IntentStockReceived Intent = "stock_received"
	IntentOrderStatus   Intent = "order_status"
	// IntentHandoff asks for a person of the office, or disputes what
	// Munshi said: the conversation is handed over (internal/handoff).
	IntentHandoff Intent = "handoff"
	// IntentPaymentsReceived asks what was collected over a period.
	IntentPaymentsReceived Intent = "payments_received"
)

// Intents lists every intent in the contract's order.
var Intents = []Intent{
	IntentGreeting, IntentHelp, IntentOrder, IntentConfirm, IntentCancel,
	IntentStock, IntentOutstanding, IntentPendingOrders, IntentReport, IntentUnknown,
	IntentDelivery, IntentPayment, IntentStockReceived, IntentOrderStatus, IntentHandoff, IntentPaymentsReceived,
}

// Inbound is one message a person sent to Munshi.
type Inbound struct {
	SID         string // the provider's message id, the idempotency key
	From        string // E.164 phone, without any channel prefix
	Body        string
	ProfileName string
	MediaURLs   []string
	// MediaTypes are the content types Twilio declared for MediaURLs,
	// index by index (MediaContentTypeN); "" where none was given.
	MediaTypes []string `json:",omitempty"`
	Received   time.Time
	// Chars is the body's length as sent when Body holds only its start
	// (a message refused as too long is recorded so); 0 when Body is whole.
	Chars int `json:",omitempty"`
	// Recovered marks a message answered by the recovery after a crash,
	// long after it was sent; Overtaken, that the inbox holds a later
	// message of its sender. A recovered message is answered only when
	// nothing was said since, and then as a late answer.
	Recovered bool `json:",omitempty"`
	Overtaken bool `json:",omitempty"`
}

// Reply is what Munshi answers to an inbound message.
type Reply struct {
	Text      string
	MediaURLs []string
	// About is the order or draft the reply concerns ("ORD-1042"), so that
	// a follow-up such as "cancel that" can refer to it.
	About string `json:",omitempty"`
	// Question is set when the reply asks something before anything can
	// be shown, so that an "ok" after it is answered about the question.
	Question bool `json:",omitempty"`
	// Pending, on a question, is what Munshi now waits on (its own data,
	// opaque here), kept in conversation memory so that the next message
	// is read as the answer; empty when nothing waits.
	Pending string `json:",omitempty"`
	// Stale, on the answer to a recovered message, says that it was not
	// acted on because its sender had written since.
	Stale bool `json:",omitempty"`
}

// Outbound is a WhatsApp message Munshi sends on its own initiative (a
// notification, a digest), through the outbox.
type Outbound struct {
	To        string // E.164 phone
	Body      string
	MediaURLs []string
	// ContentSID names an approved template (Twilio's Content SID, HX…)
	// sent instead of Body: the only message WhatsApp lets a business
	// start with someone who has not written in 24 hours.
	// ContentVariables fill its placeholders: {"1": "13 Mar 2026"}.
	ContentSID       string            `json:",omitempty"`
	ContentVariables map[string]string `json:",omitempty"`
	Notice
}

// Email is a mail Munshi sends through the outbox.
type Email struct {
	To      []string
	Subject string
	Text    string
	HTML    string
	// Attachments travel with the mail: files, or pictures the HTML shows
	// inline (those with a ContentID, as <img src="cid:ID">).
	Attachments []Attachment `json:",omitempty"`
	Notice
}

// Attachment is a file sent with a mail.
type Attachment struct {
	Name        string // the file name the reader sees
	ContentType string // "image/png"
	// ContentID makes the file an inline picture of the HTML part.
	ContentID string `json:",omitempty"`
	Data      []byte
}

// Notice says who must hear of it when a message can never be delivered:
// the accounts' copy of an order names the order and the person who placed
// it, so that they can tell accounts themselves. It travels beside the
// message, never inside what the provider is sent.
type Notice struct {
	About         string `json:"-"` // the order the message is about, "ORD-1042"
	TellOnFailure string `json:"-"` // E.164 phone to warn if it is refused for good
}
