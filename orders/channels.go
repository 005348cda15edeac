package orders

import (
	"fmt"
	"strings"
)

// Channels tells whether notifications to accounts can go out right now.
type Channels interface {
	// Problem reports that they cannot, and why in a few words
	// ("WhatsApp: authentication failed (Twilio 401)").
	Problem() (why string, ok bool)
}

// NotifiedLine is the sentence that ends the "✅ Order … placed" reply: what
// is true of telling accounts at this moment, on the ways they are told
// (their WhatsApp numbers, the accounts mailbox). Without Channels nothing
// is known to be wrong.
func NotifiedLine(ch Channels, byWhatsApp, byEmail bool) string {
	var ways string
	switch {
	case byWhatsApp && byEmail:
		ways = "on WhatsApp and by email"
	case byWhatsApp:
		ways = "on WhatsApp"
	case byEmail:
		ways = "by email"
	default:
		return "No one in accounts is set up to be told (no accounts user or mailbox): please tell them yourself."
	}
	why, held := "", false
	if ch != nil {
		why, held = ch.Problem()
	}
	if !held {
		return "Accounts are being told " + ways + "."
	}
	why = strings.TrimRight(strings.TrimSpace(why), ".")
	if why == "" {
		why = "sending is failing"
	}
	return fmt.Sprintf("⚠️ Accounts could not be told just now (%s). It will go out automatically once that works; "+
		"if it is urgent, tell them directly.", why)
}
