package twilio

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	api "github.com/twilio/twilio-go/rest/api/v2010"

	"github.com/munshi/munshi/internal/domain"
)

// An outbox message whose last try has no known outcome (the process died
// while Twilio's request was in flight, or the answer was lost on the way)
// may have been sent. Before it is sent again, Twilio's own record of the
// messages to that person says whether it was.

// recentMessages is how many of the newest messages to one person are
// looked through: an in-doubt message is minutes old.
const recentMessages = 20

// clockSkew allows for Twilio's clock and Munshi's disagreeing.
const clockSkew = 2 * time.Minute

// SentSince looks in Twilio's record of the messages from Munshi's number
// to the payload's recipient, created since, for one that is the payload:
// the same text (and as many media), or for a template one whose text holds
// every variable. It returns their SIDs, newest first; a message Twilio
// reports failed or undelivered does not count, since it never reached the
// person.
func (s *Sender) SentSince(ctx context.Context, payload []byte, since time.Time) ([]string, error) {
	m, err := decode(payload)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("twilio: messages sent to %s: %w", m.To, err)
	}
	params := &api.ListMessageParams{}
	params.SetTo(channel(m.To)).SetFrom(s.from).SetPageSize(recentMessages).SetLimit(recentMessages)
	msgs, err := s.rest.Api.ListMessage(params)
	if err != nil {
		return nil, fmt.Errorf("twilio: messages sent to %s: %w", m.To, classify(err))
	}
	var out []string
	for _, msg := range msgs {
		if msg.Sid == nil || !createdSince(msg.DateCreated, since.Add(-clockSkew)) || !delivering(msg.Status) || !same(m, msg) {
			continue
		}
		out = append(out, *msg.Sid)
	}
	return out, nil
}

func createdSince(date *string, since time.Time) bool {
	if date == nil {
		return false
	}
	t, err := time.Parse(time.RFC1123Z, *date)
	return err == nil && !t.Before(since)
}

func delivering(status *string) bool {
	if status == nil {
		return true
	}
	switch *status {
	case "failed", "undelivered", "canceled":
		return false
	}
	return true
}

// same reports whether Twilio's message is the outbound one.
func same(m domain.Outbound, msg api.ApiV2010Message) bool {
	body := ""
	if msg.Body != nil {
		body = *msg.Body
	}
	if m.ContentSID != "" {
		for _, v := range m.ContentVariables {
			if !strings.Contains(body, v) {
				return false
			}
		}
		return true
	}
	media := 0
	if msg.NumMedia != nil {
		media, _ = strconv.Atoi(*msg.NumMedia)
	}
	return strings.TrimSpace(body) == strings.TrimSpace(m.Body) && media == len(m.MediaURLs)
}
