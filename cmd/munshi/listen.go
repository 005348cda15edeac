package main

import (
	"time"

	"github.com/munshi/munshi/internal/conversation"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/metrics"
	"github.com/munshi/munshi/internal/twilio"
)

// MediaFetchTimeout bounds the download of one voice note or photo: it
// leaves the webhook's budget room for the model and the answer.
const MediaFetchTimeout = 4 * time.Second

// listen lets the conversation hear voice notes and read photos of order
// slips: files are fetched from Twilio with the account's credentials,
// and heard or read by the LLM. Without Twilio's credentials or the LLM
// (the demo), such messages are asked to be typed.
func (m *Main) listen(answers *conversation.Service) error {
	answers.MediaObserver = mediaMetrics{m.Metrics}
	if m.LLM == nil || m.Config.TwilioAccountSID == "" || m.Config.TwilioAuthToken == "" {
		return nil
	}
	fetcher, err := twilio.NewMediaFetcher(twilio.MediaConfig{
		AccountSID: m.Config.TwilioAccountSID, AuthToken: m.Config.TwilioAuthToken,
		APIURL: m.Config.TwilioAPIURL, Timeout: MediaFetchTimeout,
	})
	if err != nil {
		return err
	}
	answers.Media, answers.Transcriber = fetcher, m.LLM
	m.Orders.Slips = m.LLM
	return nil
}

type mediaMetrics struct{ m *metrics.Metrics }

func (x mediaMetrics) MediaHandled(kind domain.MediaKind, o conversation.MediaOutcome) {
	x.m.Media.WithLabelValues(string(kind), string(o)).Inc()
}
