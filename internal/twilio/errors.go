package twilio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/twilio/twilio-go/client"
)

// class is what a failed send means for the message.
type class int

const (
	transient class = iota // try again soon: the network, a rate limit, Twilio's own trouble
	held                   // nothing is wrong with the message: the account or the sender is not set up right
	permanent              // this message can never be sent: its recipient or its content is refused
)

// Error is a failed send. Permanent errors (a refused recipient or content)
// are not worth retrying; held errors (credentials, the sender) say nothing
// about the message and will pass once the configuration is put right.
type Error struct {
	Err    error
	class  class
	reason string
	code   int // Twilio's error code, 0 when Twilio did not answer with one
}

func (e *Error) Error() string   { return e.Err.Error() }
func (e *Error) Unwrap() error   { return e.Err }
func (e *Error) Permanent() bool { return e.class == permanent }
func (e *Error) Held() bool      { return e.class == held }

// Reason is the failure in a few words for people, without secrets:
// "authentication failed (Twilio 401)".
func (e *Error) Reason() string { return e.reason }

// Code is Twilio's error code ("63016"), or "" when it gave none.
func (e *Error) Code() string {
	if e.code == 0 {
		return ""
	}
	return strconv.Itoa(e.code)
}

// OutsideWindow is Twilio's error 63016: the recipient has not written in
// 24 hours, so WhatsApp takes only an approved template.
const OutsideWindow = "63016"

// Twilio error codes (https://www.twilio.com/docs/api/errors) whose meaning
// does not follow from the HTTP status alone.
var (
	// heldCodes are about the account or the sender, never the message.
	heldCodes = map[int]string{
		20003: "authentication failed",
		20005: "the Twilio account is not active",
		20008: "test credentials cannot send messages",
		20404: "the Twilio account was not found",
		21210: "the sender number is not verified",
		21212: "the sender number is not valid",
		21222: "the account SID is not valid",
		21224: "the auth token is not valid",
		21606: "the sender is not a WhatsApp sender of this account",
		21660: "the sender does not belong to this account",
		63001: "WhatsApp could not authenticate the sender",
		63007: "the sender is not a WhatsApp sender of this account",
	}
	// transientCodes pass with time.
	transientCodes = map[int]string{
		20429: "Twilio is rate limiting",
		63018: "WhatsApp is rate limiting",
		63038: "the daily message limit is reached",
	}
	// permanentCodes refuse this recipient or this message.
	permanentCodes = map[int]string{
		21211: "the number is not valid",
		21408: "sending to that country is not enabled",
		21602: "the message is empty",
		21610: "the recipient has unsubscribed",
		21612: "the number cannot be reached",
		21614: "the number is not a mobile number",
		21617: "the message is too long",
		21620: "a media link is not valid",
		63003: "the number is not on WhatsApp",
		63016: "it is outside WhatsApp's 24-hour window",
		63024: "the number is not a valid WhatsApp recipient",
	}
)

// classify turns what twilio-go returned into an *Error: by Twilio's code
// when it is one of the known ones, else by the HTTP status. Anything that
// is not an answer from Twilio (the network, a timeout) is transient.
func classify(err error) error {
	var rest *client.TwilioRestError
	if !errors.As(err, &rest) {
		return &Error{Err: fmt.Errorf("twilio: send: %w", err), reason: "Twilio could not be reached"}
	}
	e := &Error{Err: fmt.Errorf("twilio: send: status %d, code %d: %s", rest.Status, rest.Code, rest.Message), code: rest.Code}
	coded := func(c class, words string) *Error {
		e.class, e.reason = c, fmt.Sprintf("%s (Twilio error %d)", words, rest.Code)
		return e
	}
	statusOnly := func(c class, words string) *Error {
		e.class, e.reason = c, fmt.Sprintf("%s (Twilio %d)", words, rest.Status)
		return e
	}
	if rest.Status == http.StatusUnauthorized {
		return statusOnly(held, "authentication failed")
	}
	if w, ok := heldCodes[rest.Code]; ok {
		return coded(held, w)
	}
	if w, ok := transientCodes[rest.Code]; ok {
		return coded(transient, w)
	}
	if w, ok := permanentCodes[rest.Code]; ok {
		return coded(permanent, w)
	}
	switch s := rest.Status; {
	case s == http.StatusForbidden:
		return statusOnly(held, "Twilio refused the account")
	case s == http.StatusNotFound:
		return statusOnly(held, "the Twilio account was not found")
	case s == http.StatusTooManyRequests:
		return statusOnly(transient, "Twilio is rate limiting")
	case s >= 500 || s < 400:
		return statusOnly(transient, "Twilio is having trouble")
	}
	return statusOnly(permanent, "Twilio refused the message: "+shorten(rest.Message, 120))
}

// shorten cuts s to at most n runes, at a word where it can.
func shorten(s string, n int) string {
	s = strings.TrimSpace(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return cut + "…"
}

// errorBodies makes every error answer Twilio-shaped JSON. A proxy or a
// wrong TWILIO_API_URL answers with an HTML page, which twilio-go cannot
// decode and reports without its status; with the status kept, a 401 from
// anywhere is still an authentication failure and a 502 still transient.
type errorBodies struct{ next http.RoundTripper }

// maxErrorBody bounds what is read of an error answer.
const maxErrorBody = 64 << 10

func (t errorBodies) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.StatusCode < 400 {
		return resp, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var rest client.TwilioRestError
	if json.Unmarshal(body, &rest) != nil || rest.Status == 0 {
		body, _ = json.Marshal(client.TwilioRestError{Status: resp.StatusCode, Message: http.StatusText(resp.StatusCode)})
		resp.Header.Set("Content-Type", "application/json")
	}
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	resp.Header.Del("Content-Length")
	return resp, nil
}
