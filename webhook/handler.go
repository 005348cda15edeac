package webhook

import (
	"context"
	"errors"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/twilio"
)

// MaxBodyBytes is the largest webhook body accepted; Twilio's forms are a
// few kilobytes.
const MaxBodyBytes = 64 << 10

// maxMedia bounds how many MediaUrlN fields are read; a URL longer than
// maxMediaURL is dropped and a MediaContentTypeN longer than maxMediaType
// read as none (Twilio's URLs run to about 130 characters, its types
// to a few dozen).
const (
	maxMedia     = 10
	maxMediaURL  = 2048
	maxMediaType = 128
)

// StatusRecorder records delivery-status callbacks.
type StatusRecorder interface {
	RecordDeliveryStatus(ctx context.Context, messageSID, status, errorCode string) error
}

// Observer hears how each webhook went, for metrics.
type Observer interface {
	Observed(route string, code int, outcome Outcome, took time.Duration)
}

// Handler serves Twilio's webhooks.
type Handler struct {
	Pipeline  *Pipeline
	Statuses  StatusRecorder
	AuthToken string // when set, every request must be signed
	PublicURL string // the base URL Twilio calls, for signatures
	// AllowUnsigned accepts unsigned requests when no token is configured;
	// the server enables it only on a loopback address.
	AllowUnsigned bool
	Logger        *slog.Logger
	Observer      Observer
}

// Register adds the webhook routes to mux.
func (h *Handler) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST /webhook/twilio", h.incoming)
	mux.HandleFunc("POST /webhook/twilio/status", h.status)
}

func (h *Handler) incoming(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	code, outcome := h.serveIncoming(w, r)
	h.observe("/webhook/twilio", code, outcome, time.Since(start))
}

func (h *Handler) serveIncoming(w http.ResponseWriter, r *http.Request) (int, Outcome) {
	form, code := h.readForm(w, r)
	if code != 0 {
		return code, ""
	}
	in, err := ParseInbound(form)
	// A message arrives by the pipeline's clock, the one its ages, leases
	// and waiting questions are read by.
	in.Received = h.Pipeline.now()
	if err != nil {
		h.logger().Warn("webhook: bad incoming form", "err", err)
		http.Error(w, domain.ErrorMessage(err), http.StatusBadRequest)
		return http.StatusBadRequest, ""
	}
	reply, outcome, err := h.Pipeline.Handle(r.Context(), in)
	if domain.ErrorCode(err) == domain.EUNAUTHORIZED {
		// Someone else's MessageSid: nothing was processed, nothing of the
		// first sender's message is shown.
		http.Error(w, OtherSender, http.StatusForbidden)
		return http.StatusForbidden, ""
	}
	if err != nil {
		h.logger().Error("webhook: handling failed", "sid", in.SID, "err", err)
		// Twilio shows nothing for a 5xx; a polite reply is better for the
		// person, and the message stays recorded for a retry.
		reply, outcome = domain.Reply{Text: FailureReply}, ""
	}
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.Write(TwiML(reply))
	return http.StatusOK, outcome
}

func (h *Handler) status(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	code := h.serveStatus(w, r)
	h.observe("/webhook/twilio/status", code, "", time.Since(start))
}

func (h *Handler) serveStatus(w http.ResponseWriter, r *http.Request) int {
	form, code := h.readForm(w, r)
	if code != 0 {
		return code
	}
	sid, status := form.Get("MessageSid"), form.Get("MessageStatus")
	if sid == "" || status == "" || len(sid) > MaxSIDLength || len(status) > 32 {
		http.Error(w, "MessageSid and MessageStatus are required", http.StatusBadRequest)
		return http.StatusBadRequest
	}
	if err := h.Statuses.RecordDeliveryStatus(r.Context(), sid, status, form.Get("ErrorCode")); err != nil {
		h.logger().Error("webhook: status not recorded", "sid", sid, "err", err)
		http.Error(w, "status not recorded", http.StatusServiceUnavailable) // Twilio retries
		return http.StatusServiceUnavailable
	}
	w.WriteHeader(http.StatusNoContent)
	return http.StatusNoContent
}

// readForm enforces size, content type and signature, writing the error
// response itself; code is 0 when the form is good.
func (h *Handler) readForm(w http.ResponseWriter, r *http.Request) (url.Values, int) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/x-www-form-urlencoded" {
		http.Error(w, "expected application/x-www-form-urlencoded", http.StatusUnsupportedMediaType)
		return nil, http.StatusUnsupportedMediaType
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	if err := r.ParseForm(); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return nil, http.StatusRequestEntityTooLarge
		}
		http.Error(w, "malformed form", http.StatusBadRequest)
		return nil, http.StatusBadRequest
	}
	switch {
	case h.AuthToken != "":
		full := h.PublicURL + r.URL.RequestURI()
		if !twilio.ValidSignature(h.AuthToken, full, r.PostForm, r.Header.Get("X-Twilio-Signature")) {
			h.logger().Warn("webhook: bad or missing signature", "path", r.URL.Path, "remote", r.RemoteAddr)
			http.Error(w, "forbidden", http.StatusForbidden)
			return nil, http.StatusForbidden
		}
	case !h.AllowUnsigned:
		http.Error(w, "forbidden", http.StatusForbidden)
		return nil, http.StatusForbidden
	}
	return r.PostForm, 0
}

// MaxSIDLength is the longest MessageSid accepted; Twilio's are 34
// characters.
const MaxSIDLength = 64

// ParseInbound reads Twilio's incoming-message form into a domain.Inbound.
// Every string is a copy: url.ParseQuery returns slices of the request body
// when nothing in a value is escaped, and a MessageSid kept for dedupe must
// not keep up to 64 KiB of body alive with it.
func ParseInbound(form url.Values) (domain.Inbound, error) {
	in := domain.Inbound{
		SID:         strings.Clone(strings.TrimSpace(form.Get("MessageSid"))),
		Body:        strings.Clone(strings.ToValidUTF8(form.Get("Body"), "\uFFFD")),
		ProfileName: strings.Clone(strings.ToValidUTF8(form.Get("ProfileName"), "\uFFFD")),
		Received:    time.Now(),
	}
	if in.SID == "" {
		in.SID = strings.Clone(strings.TrimSpace(form.Get("SmsMessageSid")))
	}
	if in.SID == "" {
		return in, domain.Errorf(domain.EINVALID, "MessageSid is required")
	}
	if len(in.SID) > MaxSIDLength {
		return in, domain.Errorf(domain.EINVALID, "MessageSid is longer than %d characters", MaxSIDLength)
	}
	from := strings.TrimSpace(form.Get("From"))
	if !strings.HasPrefix(from, "whatsapp:") {
		return in, domain.Errorf(domain.EINVALID, "From must be a WhatsApp address (whatsapp:+E164)")
	}
	phone, err := domain.ParsePhone(strings.TrimPrefix(from, "whatsapp:"))
	if err != nil {
		return in, domain.Errorf(domain.EINVALID, "From is not a phone number in E.164 form")
	}
	in.From = phone
	if n, err := strconv.Atoi(form.Get("NumMedia")); err == nil && n > 0 {
		for i := 0; i < min(n, maxMedia); i++ {
			u := form.Get("MediaUrl" + strconv.Itoa(i))
			if u == "" || len(u) > maxMediaURL {
				continue
			}
			t := strings.TrimSpace(form.Get("MediaContentType" + strconv.Itoa(i)))
			if len(t) > maxMediaType {
				t = ""
			}
			in.MediaURLs = append(in.MediaURLs, strings.Clone(u))
			in.MediaTypes = append(in.MediaTypes, strings.Clone(t))
		}
	}
	return in, nil
}

func (h *Handler) observe(route string, code int, outcome Outcome, took time.Duration) {
	if h.Observer != nil {
		h.Observer.Observed(route, code, outcome, took)
	}
}

func (h *Handler) logger() *slog.Logger {
	if h.Logger == nil {
		return slog.Default()
	}
	return h.Logger
}
