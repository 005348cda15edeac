package gemini

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/llmbudget"
	"google.golang.org/genai"
)

// Purpose says what a call was for.
type Purpose string

const (
	PurposeClassify Purpose = "classify"
	PurposeExtract  Purpose = "extract"
	PurposeAgent    Purpose = "agent"
	PurposeChoose   Purpose = "choose"
	PurposeSuggest  Purpose = "suggest"

	PurposeTranscribe Purpose = "transcribe"
	PurposeReadSlip   Purpose = "read_slip"
)

// Outcome is how a call ended, for the audit log and metrics.
type Outcome string

const (
	OutcomeOK          Outcome = "ok"
	OutcomeError       Outcome = "error"
	OutcomeTimeout     Outcome = "timeout"
	OutcomeQuota       Outcome = "quota"        // 429: not retried
	OutcomeMalformed   Outcome = "malformed"    // answered outside the schema
	OutcomeBreakerOpen Outcome = "breaker_open" // not made: the breaker is open
	OutcomeNoBudget    Outcome = "no_budget"    // not made: no call or time left
)

// Call is one request to Gemini, or one refused before it was made.
type Call struct {
	Purpose        Purpose
	Model          string
	Latency        time.Duration
	PromptTokens   int
	ResponseTokens int
	Outcome        Outcome
	Retry          bool  // the one retry of a failed request
	Err            error // nil when Outcome is ok; never contains the key
}

// Errors a call returns, wrapped with the purpose and the cause; test them
// with errors.Is. Every one leaves the caller to answer from the local
// tiers: none of them changed anything.
var (
	ErrTimeout     = errors.New("gemini: timed out")
	ErrQuota       = errors.New("gemini: quota exhausted")
	ErrMalformed   = errors.New("gemini: malformed output")
	ErrBreakerOpen = errors.New("gemini: circuit breaker open")
	ErrNoBudget    = errors.New("gemini: no call budget left")
	ErrFailed      = errors.New("gemini: request failed")
)

// callError is a failed call: what kind of failure, and why.
type callError struct {
	purpose   Purpose
	kind      error
	cause     error
	retryable bool
}

func (e *callError) Error() string {
	s := "gemini: " + string(e.purpose) + ": " + strings.TrimPrefix(e.kind.Error(), "gemini: ")
	if e.cause != nil {
		s += ": " + e.cause.Error()
	}
	return s
}

func (e *callError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}

// decodeFunc reads a response into the caller's result; its error makes
// the call malformed.
type decodeFunc func(*genai.GenerateContentResponse) error

// generate makes one request, and one retry when the first failed in a way
// worth retrying and time, budget and the breaker allow it.
func (c *Client) generate(ctx context.Context, p Purpose, contents []*genai.Content, cfg *genai.GenerateContentConfig, decode decodeFunc) error {
	err := c.attempt(ctx, p, contents, cfg, decode, false)
	var ce *callError
	if err == nil || !errors.As(err, &ce) || !ce.retryable {
		return err
	}
	if _, ok := c.window(ctx, p); !ok || !llmbudget.Remaining(ctx) || !c.breaker.closed() {
		return err
	}
	return c.attempt(ctx, p, contents, cfg, decode, true)
}

// attempt makes at most one request and records it.
func (c *Client) attempt(ctx context.Context, p Purpose, contents []*genai.Content, cfg *genai.GenerateContentConfig, decode decodeFunc, retry bool) error {
	call := Call{Purpose: p, Model: c.model, Retry: retry}
	fail := func(o Outcome, kind, cause error, retryable bool) error {
		err := &callError{purpose: p, kind: kind, cause: scrub(cause, c.key), retryable: retryable}
		call.Outcome, call.Err = o, err
		c.report(call)
		return err
	}

	d, ok := c.window(ctx, p)
	if !ok {
		cause := ctx.Err()
		if cause == nil {
			cause = errors.New("not enough time left before the reply is due")
		}
		return fail(OutcomeNoBudget, ErrNoBudget, cause, false)
	}
	if !llmbudget.Take(ctx) {
		return fail(OutcomeNoBudget, ErrNoBudget, errors.New("this message's calls are spent"), false)
	}
	allowed, probe := c.breaker.allow()
	if !allowed {
		llmbudget.Refund(ctx)
		return fail(OutcomeBreakerOpen, ErrBreakerOpen, nil, false)
	}

	actx, cancel := context.WithTimeout(ctx, d)
	start := time.Now()
	resp, err := c.models.GenerateContent(actx, c.model, contents, cfg)
	call.Latency = time.Since(start)
	timedOut := actx.Err() != nil
	cancel()
	if resp != nil && resp.UsageMetadata != nil {
		call.PromptTokens = int(resp.UsageMetadata.PromptTokenCount)
		call.ResponseTokens = int(resp.UsageMetadata.CandidatesTokenCount)
	}

	if err == nil {
		c.breaker.done(healthy, probe)
		if derr := decode(resp); derr != nil {
			return fail(OutcomeMalformed, ErrMalformed, derr, false)
		}
		call.Outcome = OutcomeOK
		c.report(call)
		return nil
	}
	var apiErr genai.APIError
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		c.breaker.done(unknown, probe) // the caller left: no news of Gemini
		return fail(OutcomeError, context.Canceled, err, false)
	case timedOut || errors.Is(err, context.DeadlineExceeded):
		c.breaker.done(unhealthy, probe)
		return fail(OutcomeTimeout, ErrTimeout, err, ctx.Err() == nil)
	case errors.As(err, &apiErr) && (apiErr.Code == http.StatusTooManyRequests || apiErr.Status == "RESOURCE_EXHAUSTED"):
		// Quota is not a blip: retrying spends the budget and the quota.
		c.breaker.done(unhealthy, probe)
		return fail(OutcomeQuota, ErrQuota, err, false)
	case errors.As(err, &apiErr):
		c.breaker.done(unhealthy, probe)
		return fail(OutcomeError, ErrFailed, err, transient(apiErr.Code))
	default:
		c.breaker.done(unhealthy, probe)
		return fail(OutcomeError, ErrFailed, err, false)
	}
}

func transient(code int) bool {
	switch code {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// window is how long the next request may take: the call timeout (the
// media timeout for hearing a voice note or reading a photo, which send a
// file and take longer), cut to what is left of the caller's deadline less
// the reserve. false means too little is left to be worth a request.
func (c *Client) window(ctx context.Context, p Purpose) (time.Duration, bool) {
	if ctx.Err() != nil {
		return 0, false
	}
	timeout := c.timeout
	if p == PurposeTranscribe || p == PurposeReadSlip {
		timeout = c.mediaTimeout
	}
	d := timeout
	if dl, ok := ctx.Deadline(); ok {
		left := time.Until(dl) - c.reserve
		if left < min(c.minCall, timeout) {
			return 0, false
		}
		d = min(d, left)
	}
	return d, true
}

func (c *Client) report(call Call) {
	if c.record != nil {
		c.record(call)
	}
}

// scrub removes the API key from an error's text. The key travels in a
// header, but a server or a proxy may still echo it.
func scrub(err error, key string) error {
	if err == nil || key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), key, "[redacted]"))
}
