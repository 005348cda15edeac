package mail

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"

	gomail "github.com/wneessen/go-mail"
)

// kind is how a failed mail stands.
type kind int

const (
	// Transient failures pass: the network, a server asking to try later.
	transient kind = iota
	// Held failures are the set-up's, not the mail's: credentials, TLS,
	// the sender address. Every mail fails alike until it is put right.
	held
	// Permanent failures refuse this mail: its recipient or its content.
	permanent
)

// Error is a failed send: whether it is the mail's fault (permanent), the
// set-up's (held) or neither, and a short reason for people ("SMTP
// authentication failed (535)").
type Error struct {
	Err    error
	kind   kind
	reason string
}

func (e *Error) Error() string   { return e.Err.Error() }
func (e *Error) Unwrap() error   { return e.Err }
func (e *Error) Permanent() bool { return e.kind == permanent }
func (e *Error) Held() bool      { return e.kind == held }
func (e *Error) Reason() string  { return e.reason }

func failure(k kind, err error, format string, args ...any) *Error {
	return &Error{Err: err, kind: k, reason: fmt.Sprintf(format, args...)}
}

// authCodes are the SMTP replies about authentication (RFC 4954):
// required, mechanism too weak, credentials invalid, encryption required.
var authCodes = map[int]bool{530: true, 534: true, 535: true, 538: true}

// dialFailure classifies a failure to connect, greet, start TLS or log in.
// Short of the network, all of that is set-up: the same for every mail.
func dialFailure(err error) *Error {
	err = fmt.Errorf("mail: connect: %w", err)
	var reply *textproto.Error
	var cert *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	switch {
	case errors.As(err, &reply) && authCodes[reply.Code]:
		return failure(held, err, "SMTP authentication failed (%d)", reply.Code)
	case errors.As(err, &reply) && reply.Code >= 500:
		return failure(held, err, "the mail server refused the connection (%d)", reply.Code)
	case errors.As(err, &reply):
		return failure(transient, err, "the mail server asked to try later (%d)", reply.Code)
	case errors.As(err, &cert), errors.As(err, &unknownCA), errors.As(err, &hostname):
		return failure(held, err, "the mail server's TLS certificate is not trusted")
	case isNetwork(err):
		return failure(transient, err, "the mail server could not be reached")
	}
	// go-mail's own refusals: no common AUTH mechanism, STARTTLS missing,
	// PLAIN over an unencrypted connection.
	return failure(held, err, "the mail server set-up is not usable: %s", shorten(errors.Unwrap(err).Error(), 100))
}

func isNetwork(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// sendFailure classifies a failure once logged in, by go-mail's SendError:
// the stage it failed at and the server's reply code.
func sendFailure(err error) *Error {
	var se *gomail.SendError
	if !errors.As(err, &se) {
		return failure(transient, err, "the mail server connection failed")
	}
	code := se.ErrorCode()
	switch {
	case authCodes[code]:
		return failure(held, err, "SMTP authentication failed (%d)", code)
	case se.Reason == gomail.ErrGetSender:
		return failure(held, err, "the sender address is not set")
	case se.Reason == gomail.ErrNoUnencoded:
		return failure(held, err, "the mail server does not take 8-bit mail")
	case se.IsTemp():
		return failure(transient, err, "the mail server asked to try later (%d)", code)
	case se.Reason == gomail.ErrSMTPMailFrom && code >= 500:
		return failure(held, err, "the mail server refused mail from Munshi (%d)", code)
	case se.Reason == gomail.ErrGetRcpts:
		return failure(permanent, err, "the mail has no valid recipient")
	case se.Reason == gomail.ErrSMTPRcptTo && code >= 500:
		return failure(permanent, err, "the mail server refused the recipient (%d)", code)
	case code >= 500:
		return failure(permanent, err, "the mail server refused the mail (%d)", code)
	}
	return failure(transient, err, "the mail server connection failed")
}

// shorten cuts s to at most n runes.
func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
