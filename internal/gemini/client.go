package gemini

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"google.golang.org/genai"

	"github.com/munshi/munshi/intent"
	"github.com/munshi/munshi/reports"
)

// Defaults. The call timeout leaves room for a retry or a second call
// inside the webhook's 12 s budget; the reserve is kept back from the
// caller's deadline so it can still reply with the local tiers' answer.
const (
	DefaultModel           = "gemini-2.5-flash-lite"
	DefaultBaseURL         = "https://generativelanguage.googleapis.com/"
	DefaultCallTimeout     = 4 * time.Second
	DefaultMediaTimeout    = 8 * time.Second
	DefaultReserve         = 200 * time.Millisecond
	DefaultMinCallTime     = 500 * time.Millisecond
	DefaultBreakerFailures = 5
	DefaultBreakerCoolDown = 30 * time.Second
)

// Config configures a Client. Only APIKey is required.
type Config struct {
	APIKey  string // GEMINI_API_KEY; sent in a header, never logged
	Model   string // GEMINI_MODEL, default DefaultModel
	BaseURL string // GEMINI_BASE_URL, for fakes; default DefaultBaseURL

	// CallTimeout bounds one request (default DefaultCallTimeout). A
	// closer deadline on the caller's context shortens it, less Reserve;
	// when less than MinCallTime would be left, no request is made.
	CallTimeout time.Duration
	// MediaTimeout bounds a request that carries a voice note or a photo
	// (default DefaultMediaTimeout): hearing a minute of speech takes
	// longer than reading a line of text. The caller's deadline still cuts it.
	MediaTimeout time.Duration
	Reserve      time.Duration // default DefaultReserve
	MinCallTime  time.Duration // default DefaultMinCallTime

	// The breaker opens after BreakerFailures consecutive failed requests
	// and lets one probe through after BreakerCoolDown.
	BreakerFailures int           // default DefaultBreakerFailures
	BreakerCoolDown time.Duration // default DefaultBreakerCoolDown

	// Recorder receives every call, made or refused, for the audit log and
	// metrics. It is called synchronously and concurrently: keep it quick.
	Recorder func(Call)
	// Now is the breaker's clock (default time.Now). Latencies and
	// deadlines always use the real clock.
	Now func() time.Time
	// HTTPClient carries the requests (default a new http.Client).
	HTTPClient *http.Client
}

// Client calls Gemini for Munshi. It is safe for concurrent use.
type Client struct {
	models       *genai.Models
	model        string
	key          string // only to scrub it from errors
	timeout      time.Duration
	mediaTimeout time.Duration
	reserve      time.Duration
	minCall      time.Duration
	record       func(Call)
	breaker      *breaker
}

var (
	_ intent.Classifier  = (*Client)(nil)
	_ reports.AgentModel = (*Client)(nil)
)

// New validates cfg and returns a Client. It makes no request.
func New(cfg Config) (*Client, error) {
	if cfg.APIKey == "" {
		return nil, errors.New("gemini: an API key is required")
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	if u, err := url.Parse(cfg.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("gemini: base URL %q must be an http(s) URL", cfg.BaseURL)
	}
	for _, d := range []*time.Duration{&cfg.CallTimeout, &cfg.MediaTimeout, &cfg.Reserve, &cfg.MinCallTime, &cfg.BreakerCoolDown} {
		if *d < 0 {
			return nil, errors.New("gemini: timeouts and the cool-down must not be negative")
		}
	}
	if cfg.BreakerFailures < 0 {
		return nil, errors.New("gemini: breaker failures must not be negative")
	}
	orDefault(&cfg.CallTimeout, DefaultCallTimeout)
	orDefault(&cfg.MediaTimeout, DefaultMediaTimeout)
	orDefault(&cfg.Reserve, DefaultReserve)
	orDefault(&cfg.MinCallTime, DefaultMinCallTime)
	orDefault(&cfg.BreakerCoolDown, DefaultBreakerCoolDown)
	orDefault(&cfg.BreakerFailures, DefaultBreakerFailures)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	// Backend and BaseURL are set explicitly so that no environment
	// variable of the SDK's can send Munshi's requests elsewhere. RetryOptions
	// stay nil: the SDK must not retry on its own, retries are counted here.
	gc, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey:      cfg.APIKey,
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  cfg.HTTPClient,
		HTTPOptions: genai.HTTPOptions{BaseURL: cfg.BaseURL},
	})
	if err != nil {
		return nil, fmt.Errorf("gemini: %w", scrub(err, cfg.APIKey))
	}
	return &Client{
		models:       gc.Models,
		model:        cfg.Model,
		key:          cfg.APIKey,
		timeout:      cfg.CallTimeout,
		mediaTimeout: cfg.MediaTimeout,
		reserve:      cfg.Reserve,
		minCall:      cfg.MinCallTime,
		record:       cfg.Recorder,
		breaker:      newBreaker(cfg.BreakerFailures, cfg.BreakerCoolDown, cfg.Now),
	}, nil
}

func orDefault[T int | time.Duration](v *T, d T) {
	if *v == 0 {
		*v = d
	}
}

// Model returns the model the client calls.
func (c *Client) Model() string { return c.model }

// String and GoString keep the key out of anything that prints a Client.
func (c *Client) String() string   { return "gemini.Client(" + c.model + ")" }
func (c *Client) GoString() string { return c.String() }
