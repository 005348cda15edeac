package twilio

import (
	"context"
	"fmt"
	"net/url"
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

// Twilio lists the messages to one person newest first, pageSize at a
// time; they are read back to the one written when the in-doubt message
// was (less the clocks' drift), and no further than maxPages. An
// in-doubt message is minutes old, but a busy recipient (the accounts
// team, told of every order) may have had many messages since: reading
// only the newest page missed it, and sent it again.
const (
	pageSize = 50
	maxPages = 20
)

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
	params.SetTo(channel(m.To)).SetFrom(s.from).SetPageSize(pageSize)
	cutoff := since.Add(-clockSkew)
	var out []string
	token, page := "", ""
	for range maxPages {
		resp, err := s.rest.Api.PageMessage(params, token, page)
		if err != nil {
			return nil, fmt.Errorf("twilio: messages sent to %s: %w", m.To, classify(err))
		}
		older := false
		for _, msg := range resp.Messages {
			if createdBefore(msg.DateCreated, cutoff) {
				older = true
				continue
			}
			if msg.Sid == nil || !createdSince(msg.DateCreated, cutoff) || !delivering(msg.Status) || !same(m, msg) {
				continue
			}
			out = append(out, *msg.Sid)
		}
		if older || resp.NextPageUri == nil {
			return out, nil
		}
		if token, page = nextPage(*resp.NextPageUri); token == "" && page == "" {
			return out, nil
		}
	}
	// Whether it went cannot be told: it waits rather than risk going twice.
	return nil, fmt.Errorf("twilio: messages sent to %s: more than %d since %s", m.To, maxPages*pageSize, cutoff.Format(time.RFC3339))
}

// nextPage reads the page token and number of a next_page_uri; both
// empty when it names no further page.
func nextPage(uri string) (token, page string) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", ""
	}
	q := u.Query()
	return q.Get("PageToken"), q.Get("Page")
}

// createdBefore reports whether a message was created before t, by the
// date Twilio gives; false when it gives none.
func createdBefore(date *string, t time.Time) bool {
	if date == nil {
		return false
	}
	d, err := time.Parse(time.RFC1123Z, *date)
	return err == nil && d.Before(t)
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
