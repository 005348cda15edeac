package mail

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/munshi/munshi/internal/domain"
)

// Sender mails domain.Email payloads.
type Sender struct {
	client *gomail.Client
	from   string
}

// NewSender parses an SMTP URL and returns a Sender from the address.
func NewSender(smtpURL, from string) (*Sender, error) {
	u, err := url.Parse(smtpURL)
	if err != nil || u.Host == "" || (u.Scheme != "smtp" && u.Scheme != "smtps") {
		return nil, fmt.Errorf("mail: SMTP_URL must look like smtp://user:pass@host:587")
	}
	port := 587
	if u.Scheme == "smtps" {
		port = 465
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil {
			return nil, fmt.Errorf("mail: bad SMTP port %q", p)
		}
	}
	opts := []gomail.Option{gomail.WithPort(port), gomail.WithTimeout(20 * time.Second)}
	if u.Scheme == "smtps" {
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if u.User != nil && u.User.Username() != "" {
		pass, _ := u.User.Password()
		// Credentials cross the network only encrypted: the strongest
		// mechanism the server offers after STARTTLS. A relay on this
		// machine may take PLAIN without TLS.
		auth := gomail.SMTPAuthAutoDiscover
		if ip := net.ParseIP(u.Hostname()); u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback()) {
			auth = gomail.SMTPAuthPlain
		}
		opts = append(opts, gomail.WithSMTPAuth(auth),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	c, err := gomail.NewClient(u.Hostname(), opts...)
	if err != nil {
		return nil, fmt.Errorf("mail: %w", err)
	}
	return &Sender{client: c, from: from}, nil
}

// Send mails one message with a text part and, when there is one, an HTML
// alternative.
func (s *Sender) Send(ctx context.Context, e domain.Email) (string, error) {
	m := gomail.NewMsg()
	if err := m.From(s.from); err != nil {
		return "", permanent(fmt.Errorf("mail: from %q: %w", s.from, err))
	}
	if err := m.To(e.To...); err != nil {
		return "", permanent(fmt.Errorf("mail: to %v: %w", e.To, err))
	}
	m.Subject(e.Subject)
	m.SetDate()
	m.SetMessageID()
	m.SetBodyString(gomail.TypeTextPlain, e.Text)
	if e.HTML != "" {
		m.AddAlternativeString(gomail.TypeTextHTML, e.HTML)
	}
	if err := s.client.DialAndSendWithContext(ctx, m); err != nil {
		return "", fmt.Errorf("mail: send %q: %w", e.Subject, err)
	}
	id := ""
	if ids := m.GetGenHeader(gomail.HeaderMessageID); len(ids) > 0 {
		id = ids[0]
	}
	return id, nil
}

// SendPayload mails an outbox payload (a JSON domain.Email).
func (s *Sender) SendPayload(ctx context.Context, payload []byte) (string, error) {
	var e domain.Email
	if err := json.Unmarshal(payload, &e); err != nil {
		return "", permanent(fmt.Errorf("mail: bad outbox payload: %w", err))
	}
	return s.Send(ctx, e)
}

type permanentError struct{ error }

func (e permanentError) Permanent() bool { return true }
func (e permanentError) Unwrap() error   { return e.error }

func permanent(err error) error { return permanentError{err} }
