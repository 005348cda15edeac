package mail

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
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
// alternative, with its attachments (inline pictures related to the HTML). It connects, sends and hangs up itself (rather than through
// DialAndSend) so that a failure is classified by the stage it happened at.
func (s *Sender) Send(ctx context.Context, e domain.Email) (string, error) {
	m := gomail.NewMsg()
	if err := m.From(s.from); err != nil {
		return "", failure(held, fmt.Errorf("mail: from %q: %w", s.from, err), "the sender address is not valid")
	}
	if err := m.To(e.To...); err != nil {
		return "", failure(permanent, fmt.Errorf("mail: to %v: %w", e.To, err), "a recipient address is not valid")
	}
	m.Subject(e.Subject)
	m.SetDate()
	m.SetMessageID()
	m.SetBodyString(gomail.TypeTextPlain, e.Text)
	if e.HTML != "" {
		m.AddAlternativeString(gomail.TypeTextHTML, e.HTML)
	}
	for _, a := range e.Attachments {
		opts := []gomail.FileOption{gomail.WithFileContentType(gomail.ContentType(a.ContentType))}
		add := m.AttachReader
		if a.ContentID != "" {
			// RFC 2392: the header holds the id in angle brackets; the
			// HTML's cid: URL names it without them.
			id := "<" + strings.Trim(a.ContentID, "<>") + ">"
			opts, add = append(opts, gomail.WithFileContentID(id)), m.EmbedReader
		}
		if err := add(a.Name, bytes.NewReader(a.Data), opts...); err != nil {
			return "", failure(permanent, fmt.Errorf("mail: attach %q: %w", a.Name, err), "an attachment could not be added")
		}
	}
	conn, err := s.client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return "", dialFailure(err)
	}
	err = s.client.SendWithSMTPClient(conn, m)
	// The server took the mail (or refused it) before QUIT: a failure to
	// hang up cleanly changes nothing, and reporting it would send twice.
	_ = s.client.CloseWithSMTPClient(conn)
	if err != nil {
		return "", sendFailure(fmt.Errorf("mail: send %q: %w", e.Subject, err))
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
		return "", failure(permanent, fmt.Errorf("mail: bad outbox payload: %w", err), "the mail could not be read")
	}
	return s.Send(ctx, e)
}
