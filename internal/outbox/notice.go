package outbox

import (
	"fmt"
	"strings"

	"github.com/munshi/munshi/internal/domain"
)

// failureNotices are the warnings a message given up for good asks for:
// one WhatsApp message to the phone it names, so that the person who placed
// the order tells accounts themselves. The warning names nobody to warn in
// turn, so a warning that cannot be delivered ends there.
func failureNotices(m Message, reason string) []domain.Effect {
	if m.TellOnFailure == "" {
		return nil
	}
	about := ""
	if m.About != "" {
		about = " about " + m.About
	}
	body := fmt.Sprintf("⚠️ Accounts could not be told%s %s: %s. Please tell them directly.",
		about, channelName(m.Kind), strings.TrimRight(reason, ". "))
	return []domain.Effect{domain.WhatsApp(domain.Outbound{To: m.TellOnFailure, Body: body})}
}

// channelName is how people say a kind of message: "by email".
func channelName(kind string) string {
	switch kind {
	case domain.EffectWhatsApp:
		return "on WhatsApp"
	case domain.EffectEmail:
		return "by email"
	}
	return "by " + kind
}
