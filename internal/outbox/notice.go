package outbox

import (
	"fmt"
	"strings"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store/sqlite"
)

// failureNotices are the warnings a message given up for good asks for:
// one WhatsApp message to the phone it names, so that the person who placed
// the order tells accounts themselves. The warning names nobody to warn in
// turn, so a warning that cannot be delivered ends there.
func failureNotices(m sqlite.OutboxMessage, reason string) []sqlite.OutboxMessage {
	if m.TellOnFailure == "" {
		return nil
	}
	about := ""
	if m.Subject != "" {
		about = " about " + m.Subject
	}
	body := fmt.Sprintf("⚠️ Accounts could not be told%s %s: %s. Please tell them directly.",
		about, channelName(m.Kind), strings.TrimRight(reason, ". "))
	return []sqlite.OutboxMessage{sqlite.WhatsAppMessage(domain.Outbound{To: m.TellOnFailure, Body: body})}
}

// channelName is how people say a kind of message: "by email".
func channelName(kind string) string {
	switch kind {
	case sqlite.KindWhatsApp:
		return "on WhatsApp"
	case sqlite.KindEmail:
		return "by email"
	}
	return "by " + kind
}
