package twilio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	twiliogo "github.com/twilio/twilio-go"
	"github.com/twilio/twilio-go/client"
	api "github.com/twilio/twilio-go/rest/api/v2010"

	"github.com/munshi/munshi/internal/domain"
)

// Sender sends WhatsApp messages through Twilio's Messages API.
type Sender struct {
	rest           *twiliogo.RestClient
	from           string
	statusCallback string
}

// SenderConfig configures a Sender.
type SenderConfig struct {
	AccountSID, AuthToken string
	From                  string // whatsapp:+E164 or +E164
	APIURL                string // optional override of https://api.twilio.com
	PublicURL             string // when set, delivery statuses are asked for
	Timeout               time.Duration
}

// NewSender returns a Sender for the account.
func NewSender(c SenderConfig) (*Sender, error) {
	if c.AccountSID == "" || c.AuthToken == "" || c.From == "" {
		return nil, errors.New("twilio: account SID, auth token and sender are all required")
	}
	if c.Timeout == 0 {
		c.Timeout = 10 * time.Second
	}
	transport := http.DefaultTransport
	if c.APIURL != "" {
		base, err := url.Parse(c.APIURL)
		if err != nil || base.Host == "" {
			return nil, fmt.Errorf("twilio: bad API URL %q", c.APIURL)
		}
		transport = rewriteHost{base: base, next: http.DefaultTransport}
	}
	transport = errorBodies{next: transport}
	hc := &client.Client{
		Credentials: client.NewCredentials(c.AccountSID, c.AuthToken),
		HTTPClient: &http.Client{
			Transport:     transport,
			Timeout:       c.Timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
	hc.SetAccountSid(c.AccountSID)
	s := &Sender{
		rest: twiliogo.NewRestClientWithParams(twiliogo.ClientParams{Client: hc}),
		from: channel(c.From),
	}
	if c.PublicURL != "" {
		s.statusCallback = strings.TrimRight(c.PublicURL, "/") + "/webhook/twilio/status"
	}
	return s, nil
}

// Send sends one WhatsApp message and returns Twilio's message SID.
func (s *Sender) Send(ctx context.Context, m domain.Outbound) (string, error) {
	params := &api.CreateMessageParams{}
	params.SetTo(channel(m.To)).SetFrom(s.from)
	if m.ContentSID != "" {
		// A template carries its own text: Twilio refuses a Body beside it.
		params.SetContentSid(m.ContentSID)
		if len(m.ContentVariables) > 0 {
			vars, err := json.Marshal(m.ContentVariables)
			if err != nil {
				return "", &Error{Err: fmt.Errorf("twilio: template variables: %w", err), class: permanent,
					reason: "the template variables could not be written"}
			}
			params.SetContentVariables(string(vars))
		}
	} else {
		params.SetBody(m.Body)
	}
	if len(m.MediaURLs) > 0 {
		params.SetMediaUrl(m.MediaURLs)
	}
	if s.statusCallback != "" {
		params.SetStatusCallback(s.statusCallback)
	}
	if err := ctx.Err(); err != nil {
		return "", &Error{Err: fmt.Errorf("twilio: send: %w", err), reason: "the send was cancelled"}
	}
	msg, err := s.rest.Api.CreateMessage(params)
	if err != nil {
		return "", classify(err)
	}
	if msg.Sid == nil {
		return "", errors.New("twilio: send: reply without a message SID")
	}
	return *msg.Sid, nil
}

// SendPayload sends an outbox payload (a JSON domain.Outbound).
func (s *Sender) SendPayload(ctx context.Context, payload []byte) (string, error) {
	m, err := decode(payload)
	if err != nil {
		return "", err
	}
	return s.Send(ctx, m)
}

// decode reads an outbox payload; a bad one will never send, so the error
// is permanent.
func decode(payload []byte) (domain.Outbound, error) {
	var m domain.Outbound
	if err := json.Unmarshal(payload, &m); err != nil {
		return m, &Error{Err: fmt.Errorf("twilio: bad outbox payload: %w", err), class: permanent,
			reason: "the message could not be read"}
	}
	return m, nil
}

func channel(phone string) string {
	if strings.HasPrefix(phone, "whatsapp:") {
		return phone
	}
	return "whatsapp:" + phone
}

// rewriteHost sends every request to base's scheme and host instead.
type rewriteHost struct {
	base *url.URL
	next http.RoundTripper
}

func (r rewriteHost) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.Scheme, req.URL.Host = r.base.Scheme, r.base.Host
	if p := strings.TrimRight(r.base.Path, "/"); p != "" {
		req.URL.Path = p + req.URL.Path
	}
	req.Host = r.base.Host
	return r.next.RoundTrip(req)
}

// LogSender writes outbound messages to the log instead of sending them: the
// offline demo's stand-in for Twilio.
type LogSender struct {
	Logger *slog.Logger
	seq    atomic.Int64
}

// SendPayload logs the message and returns a made-up SID.
func (l *LogSender) SendPayload(_ context.Context, payload []byte) (string, error) {
	m, err := decode(payload)
	if err != nil {
		return "", err
	}
	sid := fmt.Sprintf("SMlogged%06d", l.seq.Add(1))
	if m.ContentSID != "" {
		l.Logger.Info("outbound WhatsApp template (not sent: no Twilio credentials)", "to", m.To, "content_sid", m.ContentSID,
			"variables", m.ContentVariables, "sid", sid)
		return sid, nil
	}
	// A media link's id is its only secret: info shows links cut short,
	// debug (an operator opening the demo's files) shows them whole.
	short := make([]string, len(m.MediaURLs))
	for i, u := range m.MediaURLs {
		short[i] = HideMediaLinks(u)
	}
	l.Logger.Info("outbound WhatsApp message (not sent: no Twilio credentials)", "to", m.To, "body", HideMediaLinks(m.Body), "media", short, "sid", sid)
	if len(m.MediaURLs) > 0 || mediaLink.MatchString(m.Body) {
		l.Logger.Debug("outbound WhatsApp message links", "sid", sid, "body", m.Body, "media", m.MediaURLs)
	}
	return sid, nil
}

// mediaLink is the id in a link to a generated file (/media/{id}): 26
// base32 characters, of which logs keep the first four.
var mediaLink = regexp.MustCompile(`/media/([A-Z2-7]{4})[A-Z2-7]{22}`)

// HideMediaLinks cuts the ids of links to generated files short, so that a
// log line cannot be used to fetch the file.
func HideMediaLinks(s string) string { return mediaLink.ReplaceAllString(s, "/media/${1}…") }
