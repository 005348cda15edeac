package twilio

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Where inbound media lives: a webhook's MediaUrlN is on Twilio's API host,
// which answers it with a redirect to a signed URL on Twilio's CDN.
const (
	apiHost   = "api.twilio.com"
	cdnDomain = ".twiliocdn.com" // media.twiliocdn.com, mms.twiliocdn.com…
)

// Bounds of a media fetch.
const (
	defaultMediaBytes   = 16 << 20
	defaultMediaTimeout = 5 * time.Second
	maxMediaRedirects   = 3
	maxMediaURL         = 2048
)

// MediaConfig configures a MediaFetcher.
type MediaConfig struct {
	AccountSID, AuthToken string
	// APIURL overrides https://api.twilio.com (TWILIO_API_URL, a fake in
	// tests): media URLs are rewritten to it as the REST calls are, and
	// redirects to its host are followed.
	APIURL   string
	MaxBytes int64         // default 16 MiB
	Timeout  time.Duration // the whole fetch, redirects included; default 5s
}

// MediaFetcher downloads the media of inbound messages (voice notes,
// photos) from Twilio. It fetches only media URLs of its own account on
// Twilio's API host, sends the credentials there alone, and follows
// redirects only to Twilio's media hosts. It never logs what it fetches.
type MediaFetcher struct {
	client     *http.Client
	sid, token string
	api        *url.URL // TWILIO_API_URL, when set
	maxBytes   int64
	timeout    time.Duration
}

// NewMediaFetcher returns a MediaFetcher for the account.
func NewMediaFetcher(c MediaConfig) (*MediaFetcher, error) {
	if c.AccountSID == "" || c.AuthToken == "" {
		return nil, errors.New("twilio: media: account SID and auth token are both required")
	}
	if c.MaxBytes < 0 || c.Timeout < 0 {
		return nil, errors.New("twilio: media: size cap and timeout must not be negative")
	}
	f := &MediaFetcher{sid: c.AccountSID, token: c.AuthToken, maxBytes: c.MaxBytes, timeout: c.Timeout}
	if f.maxBytes == 0 {
		f.maxBytes = defaultMediaBytes
	}
	if f.timeout == 0 {
		f.timeout = defaultMediaTimeout
	}
	transport := http.DefaultTransport
	if c.APIURL != "" {
		base, err := url.Parse(c.APIURL)
		if err != nil || base.Host == "" || base.Scheme != "http" && base.Scheme != "https" {
			return nil, fmt.Errorf("twilio: media: bad API URL %q", c.APIURL)
		}
		f.api = base
		transport = apiOnly{rewriteHost{base: base, next: transport}}
	}
	f.client = &http.Client{Transport: transport, CheckRedirect: f.checkRedirect}
	return f, nil
}

// apiOnly rewrites the requests for Twilio's API host to TWILIO_API_URL's
// and sends the others (a redirect to the fake's CDN, already on that
// host) as they are.
type apiOnly struct{ rewriteHost }

func (a apiOnly) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.EqualFold(req.URL.Host, apiHost) {
		return a.rewriteHost.RoundTrip(req)
	}
	return a.next.RoundTrip(req)
}

// Fetch downloads one media file. declaredType is the webhook's
// MediaContentTypeN: a type Munshi does not read is refused before any
// download. Errors wrap domain.ErrMediaUnsupported and
// domain.ErrMediaTooLarge; none carries the auth token or the file.
func (f *MediaFetcher) Fetch(ctx context.Context, rawURL, declaredType string) (domain.InboundMedia, error) {
	var none domain.InboundMedia
	u, err := mediaURL(rawURL, f.sid)
	if err != nil {
		return none, err
	}
	name := u.Path[strings.LastIndexByte(u.Path, '/')+1:] // the media SID, ME…
	fail := func(format string, a ...any) (domain.InboundMedia, error) {
		return none, fmt.Errorf("twilio: media: %s: "+format, append([]any{name}, a...)...)
	}
	if domain.KindOf(declaredType) == domain.MediaOther {
		return fail("declared type %q: %w", shorten(declaredType, 64), domain.ErrMediaUnsupported)
	}

	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fail("%w", err)
	}
	req.SetBasicAuth(f.sid, f.token)
	resp, err := f.client.Do(req)
	if err != nil {
		// A *url.Error names the URL it failed on: a redirect's is a signed
		// CDN link, which stays out of errors and logs.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fail("%w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// The status alone: its reason phrase and the body are the server's words.
		return fail("Twilio answered %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	served := domain.MediaType(resp.Header.Get("Content-Type"))
	if domain.KindOf(served) == domain.MediaOther {
		return fail("served as %q: %w", shorten(served, 64), domain.ErrMediaUnsupported)
	}
	if resp.ContentLength > f.maxBytes {
		return fail("%d bytes, over %d: %w", resp.ContentLength, f.maxBytes, domain.ErrMediaTooLarge)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, f.maxBytes+1))
	switch {
	case err != nil:
		return fail("reading: %w", err)
	case int64(len(data)) > f.maxBytes:
		return fail("over %d bytes: %w", f.maxBytes, domain.ErrMediaTooLarge)
	case len(data) == 0:
		return fail("the file is empty")
	}
	sum := sha256.Sum256(data)
	return domain.InboundMedia{Data: data, ContentType: served, Size: len(data), SHA256: hex.EncodeToString(sum[:])}, nil
}

// checkRedirect follows at most maxMediaRedirects redirects, only to
// Twilio's media hosts (and TWILIO_API_URL's), and never with the
// credentials.
func (f *MediaFetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > maxMediaRedirects {
		return fmt.Errorf("more than %d redirects", maxMediaRedirects)
	}
	if !f.mediaHost(req.URL) {
		return fmt.Errorf("refused a redirect to %q: not a Twilio media host", shorten(req.URL.Scheme+"://"+req.URL.Host, 100))
	}
	req.Header.Del("Authorization")
	return nil
}

// mediaHost reports whether u is on a host Twilio serves media from:
// https on api.twilio.com or a *.twiliocdn.com host, or TWILIO_API_URL's
// scheme and host when it is set.
func (f *MediaFetcher) mediaHost(u *url.URL) bool {
	if u.User != nil {
		return false
	}
	if f.api != nil && u.Scheme == f.api.Scheme && strings.EqualFold(u.Host, f.api.Host) {
		return true
	}
	if u.Scheme != "https" || u.Port() != "" && u.Port() != "443" {
		return false
	}
	h := strings.ToLower(u.Hostname())
	return h == apiHost || len(h) > len(cdnDomain) && strings.HasSuffix(h, cdnDomain)
}

// mediaURL checks a webhook's MediaUrlN before anything is fetched: it
// must be a media file of the account on Twilio's API host, as Twilio
// writes them (https://api.twilio.com/2010-04-01/Accounts/AC…/Messages/MM…/Media/ME…).
func mediaURL(raw, accountSID string) (*url.URL, error) {
	refuse := func(why string) (*url.URL, error) {
		return nil, fmt.Errorf("twilio: media: refused URL: %s", why)
	}
	if len(raw) > maxMediaURL {
		return refuse(fmt.Sprintf("longer than %d characters", maxMediaURL))
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return refuse("not a URL")
	case u.Scheme != "https":
		return refuse("not https")
	case u.User != nil:
		return refuse("it carries user info")
	case !strings.EqualFold(u.Host, apiHost):
		return refuse("not on " + apiHost)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.RawFragment != "":
		return refuse("it carries a query or a fragment")
	case u.RawPath != "" || !mediaPath(u.Path, accountSID):
		return refuse("not a media file of this account")
	}
	return u, nil
}

// mediaPath reports whether p is /2010-04-01/Accounts/{accountSID}/Messages/{sid}/Media/{sid}.
func mediaPath(p, accountSID string) bool {
	s := strings.Split(p, "/")
	return len(s) == 8 && s[0] == "" && s[1] == "2010-04-01" && s[2] == "Accounts" && s[3] == accountSID &&
		s[4] == "Messages" && sidLike(s[5]) && s[6] == "Media" && sidLike(s[7])
}

// sidLike reports whether s could be a Twilio SID: 3 to 64 letters and
// digits.
func sidLike(s string) bool {
	if len(s) < 3 || len(s) > 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}
