package twilio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
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
	params.SetTo(channel(m.To)).SetFrom(s.from).SetBody(m.Body)
	if len(m.MediaURLs) > 0 {
		params.SetMediaUrl(m.MediaURLs)
	}
	if s.statusCallback != "" {
		params.SetStatusCallback(s.statusCallback)
	}
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("twilio: send: %w", err)
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
		return m, &Error{Err: fmt.Errorf("twilio: bad outbox payload: %w", err), permanent: true}
	}
	return m, nil
}

// Error is a failed send. Permanent errors (a 4xx other than 429: a bad
// number, a blocked recipient) are not worth retrying.
type Error struct {
	Err       error
	permanent bool
}

func (e *Error) Error() string   { return e.Err.Error() }
func (e *Error) Unwrap() error   { return e.Err }
func (e *Error) Permanent() bool { return e.permanent }

func classify(err error) error {
	var rest *client.TwilioRestError
	if errors.As(err, &rest) {
		permanent := rest.Status >= 400 && rest.Status < 500 && rest.Status != http.StatusTooManyRequests
		return &Error{Err: fmt.Errorf("twilio: send: status %d, code %d: %s", rest.Status, rest.Code, rest.Message), permanent: permanent}
	}
	return &Error{Err: fmt.Errorf("twilio: send: %w", err)}
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
	l.Logger.Info("outbound WhatsApp message (not sent: no Twilio credentials)", "to", m.To, "body", m.Body, "media", m.MediaURLs, "sid", sid)
	return sid, nil
}
