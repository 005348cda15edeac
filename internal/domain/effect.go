package domain

import (
	"encoding/json"
	"strings"
)

// Kinds of side effect, one sender each.
const (
	EffectWhatsApp = "whatsapp"
	EffectEmail    = "email"
)

// Effect is one side effect Munshi owes the world — a WhatsApp message, a
// mail — written to the outbox in the same transaction as the change that
// caused it and carried out by the sender registered for its Kind. The
// store keeps it as data and never looks inside Payload: a new kind of
// effect is a new sender, not a new method on the store.
type Effect struct {
	Kind    string
	To      string // the recipient or target, for operators and the audit log
	Payload []byte // the sender's JSON
	// About is what the effect concerns ("ORD-1042") and TellOnFailure the
	// phone to warn if it is given up for good; both may be empty.
	About         string
	TellOnFailure string
}

// WhatsApp is the effect that sends a WhatsApp message. The notice goes
// beside the payload, never inside it: the provider is not told about it.
func WhatsApp(m Outbound) Effect {
	return Effect{Kind: EffectWhatsApp, To: m.To, Payload: mustJSON(m), About: m.About, TellOnFailure: m.TellOnFailure}
}

// Mail is the effect that sends an email.
func Mail(e Email) Effect {
	return Effect{Kind: EffectEmail, To: strings.Join(e.To, ","), Payload: mustJSON(e), About: e.About,
		TellOnFailure: e.TellOnFailure}
}

// mustJSON encodes a message made of strings, lists of strings and bytes,
// which always encodes (invalid UTF-8 is replaced, not refused; bytes are
// base64).
func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
