package main

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/health"
	"github.com/munshi/munshi/internal/mail"
	"github.com/munshi/munshi/internal/outbox"
	"github.com/munshi/munshi/internal/twilio"
	"github.com/munshi/munshi/orders"
)

func (m *Main) senders() (map[string]outbox.Sender, error) {
	c := m.Config
	senders := map[string]outbox.Sender{}
	if c.TwilioAccountSID == "" {
		m.Logger.Warn("no Twilio credentials: outbound WhatsApp messages are logged, not sent")
		senders[domain.EffectWhatsApp] = &twilio.LogSender{Logger: m.Logger}
	} else {
		s, err := twilio.NewSender(twilio.SenderConfig{AccountSID: c.TwilioAccountSID, AuthToken: c.TwilioAuthToken,
			From: c.TwilioWhatsAppFrom, APIURL: c.TwilioAPIURL, PublicURL: c.PublicURL})
		if err != nil {
			return nil, err
		}
		senders[domain.EffectWhatsApp] = s
	}
	if c.SMTPURL != "" {
		s, err := mail.NewSender(c.SMTPURL, c.MailFrom)
		if err != nil {
			return nil, err
		}
		senders[domain.EffectEmail] = s
	}
	return senders, nil
}

// notifyChannels tells orders whether notifications can go out now, from
// the dispatcher's holds.
type notifyChannels struct{ d *outbox.Dispatcher }

var _ orders.Channels = notifyChannels{}

// channelNames are the kinds of outbox message as people say them.
var channelNames = map[string]string{domain.EffectWhatsApp: "WhatsApp", domain.EffectEmail: "email"}

// Problem reports every held kind that tells accounts: "WhatsApp:
// authentication failed (Twilio 401)". The order log (the Sheet) tells
// no one.
func (c notifyChannels) Problem() (string, bool) {
	holds := c.d.Holds()
	var parts []string
	for _, kind := range slices.Sorted(maps.Keys(holds)) {
		if kind == domain.EffectSheets {
			continue
		}
		name := channelNames[kind]
		if name == "" {
			name = kind
		}
		parts = append(parts, name+": "+holds[kind].Reason)
	}
	return strings.Join(parts, "; "), len(parts) > 0
}

// outboxChecks are the readiness checks of the outbox, one per kind that
// has a sender: degraded while sending that kind is held.
func (m *Main) outboxChecks() []health.Check {
	var checks []health.Check
	for _, kind := range slices.Sorted(maps.Keys(m.Dispatcher.Senders)) {
		checks = append(checks, health.Check{Name: kind, Degraded: true,
			Probe: func(context.Context) error { return m.Dispatcher.Check(kind) }})
	}
	return checks
}
