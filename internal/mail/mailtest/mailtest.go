// Package mailtest runs a local SMTP server for tests (emersion/go-smtp on
// 127.0.0.1:0) that keeps every message it receives, with optional PLAIN
// authentication (wrong credentials get 535, as real servers answer), a
// number of deliveries to refuse first, and recipients to reject.
package mailtest

import (
	"encoding/base64"
	"io"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Message is one mail the server accepted.
type Message struct {
	From string
	To   []string
	Raw  string
	// Received is when the server took it (its 250 to DATA is on the way).
	Received time.Time
}

// Header parses the message's header.
func (m Message) Header() mail.Header {
	msg, err := mail.ReadMessage(strings.NewReader(m.Raw))
	if err != nil {
		return mail.Header{}
	}
	return msg.Header
}

// Server is a running test SMTP server.
type Server struct {
	Addr     string
	User     string // when set, PLAIN auth with User/Password is required
	Password string
	// EchoAuth makes a refused AUTH repeat the client's AUTH PLAIN line in
	// the error, credentials and all, as some servers do.
	EchoAuth bool

	mu       sync.Mutex
	msgs     []Message
	refuse   int
	rejected map[string]bool
	srv      *smtp.Server
	ln       net.Listener
}

// Start listens on 127.0.0.1:0 and stops when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr, s.ln = ln.Addr().String(), ln
	s.srv = smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }))
	s.srv.Domain = "localhost"
	s.srv.AllowInsecureAuth = true
	s.srv.ReadTimeout, s.srv.WriteTimeout = 10*time.Second, 10*time.Second
	go s.srv.Serve(ln)
	t.Cleanup(func() { s.srv.Close() })
	return s
}

// Close stops the server before the test ends: nothing listens at Addr.
func (s *Server) Close() {
	s.ln.Close() // Serve may not have taken the listener yet
	s.srv.Close()
}

// URL is the SMTP_URL for this server.
func (s *Server) URL() string {
	if s.User != "" {
		return "smtp://" + s.User + ":" + s.Password + "@" + s.Addr
	}
	return "smtp://" + s.Addr
}

// Refuse makes the next n deliveries fail with a temporary error.
func (s *Server) Refuse(n int) {
	s.mu.Lock()
	s.refuse = n
	s.mu.Unlock()
}

// Reject makes the server refuse mail to addr for good (550 at RCPT).
func (s *Server) Reject(addr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rejected == nil {
		s.rejected = map[string]bool{}
	}
	s.rejected[addr] = true
}

// Messages returns what the server accepted so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// Wait waits up to d for at least n messages and returns them.
func (s *Server) Wait(n int, d time.Duration) []Message {
	deadline := time.Now().Add(d)
	for {
		msgs := s.Messages()
		if len(msgs) >= n || time.Now().After(deadline) {
			return msgs
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type session struct {
	s      *Server
	authed bool
	from   string
	to     []string
}

func (ss *session) AuthMechanisms() []string {
	if ss.s.User == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (ss *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, user, pass string) error {
		if user != ss.s.User || pass != ss.s.Password {
			refused := *smtp.ErrAuthFailed // 535 5.7.8
			if ss.s.EchoAuth {
				blob := base64.StdEncoding.EncodeToString([]byte(identity + "\x00" + user + "\x00" + pass))
				refused.Message = "AUTH PLAIN " + blob + " rejected: authentication credentials invalid"
			}
			return &refused
		}
		ss.authed = true
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.s.User != "" && !ss.authed {
		return smtp.ErrAuthRequired
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.s.mu.Lock()
	rejected := ss.s.rejected[to]
	ss.s.mu.Unlock()
	if rejected {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such mailbox"}
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	ss.s.mu.Lock()
	defer ss.s.mu.Unlock()
	if ss.s.refuse > 0 {
		ss.s.refuse--
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	ss.s.msgs = append(ss.s.msgs, Message{From: ss.from, To: ss.to, Raw: string(raw), Received: time.Now()})
	return nil
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }
