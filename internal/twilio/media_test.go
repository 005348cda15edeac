package twilio_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"path"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/twilio"
	"github.com/munshi/munshi/internal/twilio/twiliotest"
)

func newFetcher(t *testing.T, apiURL string, change func(*twilio.MediaConfig)) *twilio.MediaFetcher {
	t.Helper()
	c := twilio.MediaConfig{AccountSID: accountSID, AuthToken: authToken, APIURL: apiURL}
	if change != nil {
		change(&c)
	}
	f, err := twilio.NewMediaFetcher(c)
	if err != nil {
		t.Fatalf("NewMediaFetcher: %v", err)
	}
	return f
}

// fetchFails fetches and wants an error that is the package's, wraps
// want (when set) and never shows the auth token.
func fetchFails(t *testing.T, f *twilio.MediaFetcher, rawURL, declared string, want error) error {
	t.Helper()
	got, err := f.Fetch(context.Background(), rawURL, declared)
	if err == nil {
		t.Fatalf("Fetch(%q, %q) = %d bytes of %s, want an error", rawURL, declared, got.Size, got.ContentType)
	}
	if !strings.HasPrefix(err.Error(), "twilio: media: ") {
		t.Errorf("error %q lacks the package prefix", err)
	}
	if strings.Contains(err.Error(), authToken) {
		t.Errorf("error shows the auth token: %q", err)
	}
	if want != nil && !errors.Is(err, want) {
		t.Errorf("Fetch(%q, %q): %v, want %v", rawURL, declared, err, want)
	}
	return err
}

// oggNote is the start of an Ogg Opus voice note, and some more.
var oggNote = append([]byte("OggS\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00OpusHead"), bytes.Repeat([]byte{0xA5, 0x00, 0x7F}, 3000)...)

func TestFetchMediaFromTwilio(t *testing.T) {
	fake := twiliotest.Start(t)
	f := newFetcher(t, fake.URL, nil)
	photo := append([]byte("\xff\xd8\xff\xe0\x00\x10JFIF"), bytes.Repeat([]byte("pixels"), 500)...)
	for _, tt := range []struct {
		served, declared, want string
		data                   []byte
	}{
		{"audio/ogg; codecs=opus", "audio/ogg", "audio/ogg", oggNote},
		{"image/jpeg", "image/jpeg", "image/jpeg", photo},
		{"Audio/MPEG", "audio/mpeg", "audio/mpeg", []byte("ID3 an mp3")},
	} {
		mediaURL := fake.AddMedia(tt.served, tt.data)
		if !strings.HasPrefix(mediaURL, "https://api.twilio.com/2010-04-01/Accounts/"+accountSID+"/Messages/MM") ||
			!strings.Contains(mediaURL, "/Media/ME") {
			t.Fatalf("media URL %s is not as Twilio writes it", mediaURL)
		}
		before := len(fake.MediaRequests())
		got, err := f.Fetch(context.Background(), mediaURL, tt.declared)
		if err != nil {
			t.Fatalf("Fetch %s: %v", tt.served, err)
		}
		sum := sha256.Sum256(tt.data)
		if !bytes.Equal(got.Data, tt.data) || got.Size != len(tt.data) || got.ContentType != tt.want || got.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("Fetch %s = %s, %d bytes, sha256 %s; want %s, %d bytes, %x", tt.served, got.ContentType, got.Size, got.SHA256,
				tt.want, len(tt.data), sum)
		}
		// The API wants the account's credentials; the CDN it redirects to
		// is never sent them.
		reqs := fake.MediaRequests()[before:]
		if len(reqs) != 2 {
			t.Fatalf("%d requests for one fetch, want the media URL and the CDN: %+v", len(reqs), reqs)
		}
		if api := reqs[0]; !api.HasAuth || api.User != accountSID || api.Password != authToken || api.Status != http.StatusTemporaryRedirect {
			t.Errorf("media URL request %+v: want the account's basic auth, answered 307", api)
		}
		if cdn := reqs[1]; !strings.HasPrefix(cdn.Path, "/cdn/") || cdn.HasAuth || cdn.Status != http.StatusOK {
			t.Errorf("CDN request %+v: want no credentials, answered 200", cdn)
		}
	}
	if n := fake.MediaFetches(); n != 3 {
		t.Errorf("MediaFetches = %d, want 3", n)
	}
	if n := len(fake.Requests()); n != 0 {
		t.Errorf("media fetches recorded as %d Messages API requests", n)
	}
}

func TestFetchMediaHonoursAPIURLPath(t *testing.T) {
	fake := twiliotest.Start(t, twiliotest.Prefix("/fakes/twilio"))
	f := newFetcher(t, fake.URL+"/fakes/twilio/", nil)
	got, err := f.Fetch(context.Background(), fake.AddMedia("image/png", []byte("\x89PNG")), "image/png")
	if err != nil || got.Size != 4 {
		t.Fatalf("Fetch behind a path: %+v, %v", got, err)
	}
	for _, r := range fake.MediaRequests() {
		if !strings.HasPrefix(r.Path, "/fakes/twilio/") || strings.HasPrefix(r.Path, "/fakes/twilio/fakes/") {
			t.Errorf("request to %s: want the API URL's path once", r.Path)
		}
	}
}

// direct serves media URLs with handler itself, as if it were Twilio's
// API answering without a redirect, and returns a fetcher for it and a
// media URL.
func direct(t *testing.T, handler http.HandlerFunc, change func(*twilio.MediaConfig)) (*twilio.MediaFetcher, string) {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return newFetcher(t, srv.URL, change), "https://api.twilio.com/2010-04-01/Accounts/" + accountSID + "/Messages/MM1/Media/ME1"
}

// stall says a voice note of length bytes, sends 100 and waits for the
// client to go.
func stall(length int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "audio/ogg")
		w.Header().Set("Content-Length", strconv.Itoa(length))
		w.Write(oggNote[:100])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
}

func TestFetchMediaSizeCapReadsNoFurther(t *testing.T) {
	small := func(c *twilio.MediaConfig) { c.MaxBytes = 1024 }
	// A Content-Length over the cap is refused before the body is read:
	// this body never ends.
	f, u := direct(t, stall(1<<30), small)
	fetchFails(t, f, u, "audio/ogg", domain.ErrMediaTooLarge)

	// A body without a length is read no further than the cap.
	f, u = direct(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "audio/ogg")
		for r.Context().Err() == nil {
			if _, err := w.Write(oggNote); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}, small)
	fetchFails(t, f, u, "audio/ogg", domain.ErrMediaTooLarge)
}

func TestFetchMediaDropsCredentialsOnRedirect(t *testing.T) {
	// Twilio's CDN is another host, whose requests Go's client strips of
	// credentials itself; a redirect within api.twilio.com it would not.
	fake := twiliotest.Start(t)
	f := newFetcher(t, fake.URL, nil)
	u := fake.AddMedia("audio/ogg", oggNote)
	fake.MediaRedirect(u, "https://api.twilio.com/cdn/"+path.Base(u))
	if _, err := f.Fetch(context.Background(), u, "audio/ogg"); err != nil {
		t.Fatalf("Fetch through a redirect on the API host: %v", err)
	}
	if r := fake.MediaRequests(); len(r) != 2 || !r[0].HasAuth || r[1].HasAuth {
		t.Errorf("requests %+v: want credentials on the media URL only", r)
	}
}

func TestFetchMediaWrongCredentials(t *testing.T) {
	fake := twiliotest.Start(t, twiliotest.Account(accountSID, "another-token"))
	f := newFetcher(t, fake.URL, nil)
	err := fetchFails(t, f, fake.AddMedia("audio/ogg", oggNote), "audio/ogg", nil)
	if !strings.Contains(err.Error(), "401") {
		t.Errorf("error %q does not name the status", err)
	}
	if r := fake.MediaRequests(); len(r) != 1 || r[0].Password != authToken {
		t.Errorf("requests %+v: want one, with the fetcher's token", r)
	}
}

func TestFetchMediaRefusesUnsupportedTypes(t *testing.T) {
	fake := twiliotest.Start(t)
	f := newFetcher(t, fake.URL, nil)
	pdf := fake.AddMedia("application/pdf", []byte("%PDF-1.7"))
	for _, declared := range []string{"application/pdf", "", "text/plain", "video/mp4", "audio/ogg-but-not", strings.Repeat("x", 5000)} {
		fetchFails(t, f, pdf, declared, domain.ErrMediaUnsupported)
	}
	if n := fake.MediaFetches(); n != 0 {
		t.Fatalf("%d fetches for types declared unsupported, want none", n)
	}

	// Declared a photo, served as something else: refused too.
	for _, served := range []string{"text/html; charset=utf-8", "application/octet-stream", ""} {
		lie := fake.AddMedia("image/jpeg", []byte("<html>"))
		fake.MediaLie(lie, served)
		err := fetchFails(t, f, lie, "image/jpeg", domain.ErrMediaUnsupported)
		if strings.Contains(err.Error(), "<html>") {
			t.Errorf("error %q shows the body", err)
		}
	}
}

func TestFetchMediaSizeCap(t *testing.T) {
	fake := twiliotest.Start(t)
	const limit = 1024
	f := newFetcher(t, fake.URL, func(c *twilio.MediaConfig) { c.MaxBytes = limit })
	big := bytes.Repeat([]byte{0x42}, limit+1)
	exact := bytes.Repeat([]byte{0x42}, limit)

	fetchFails(t, f, fake.AddMedia("audio/ogg", big), "audio/ogg", domain.ErrMediaTooLarge)
	chunked := fake.AddMedia("audio/ogg", big)
	fake.MediaChunked(chunked)
	fetchFails(t, f, chunked, "audio/ogg", domain.ErrMediaTooLarge)

	for _, chunk := range []bool{false, true} {
		u := fake.AddMedia("audio/ogg", exact)
		if chunk {
			fake.MediaChunked(u)
		}
		if got, err := f.Fetch(context.Background(), u, "audio/ogg"); err != nil || got.Size != limit {
			t.Errorf("file of exactly the cap (chunked %v): %d bytes, %v", chunk, got.Size, err)
		}
	}

	err := fetchFails(t, f, fake.AddMedia("audio/ogg", nil), "audio/ogg", nil)
	if !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty file: %v", err)
	}
}

func TestFetchMediaFailures(t *testing.T) {
	fake := twiliotest.Start(t)
	f := newFetcher(t, fake.URL, nil)
	for _, status := range []int{404, 500, 503} {
		u := fake.AddMedia("audio/ogg", oggNote)
		fake.MediaFail(u, status)
		err := fetchFails(t, f, u, "audio/ogg", nil)
		if !strings.Contains(err.Error(), http.StatusText(status)) || strings.Contains(err.Error(), "more_info") {
			t.Errorf("status %d: error %q should name the status, not show the body", status, err)
		}
	}
	// A media URL of the account the fake never served.
	unknown := "https://api.twilio.com/2010-04-01/Accounts/" + accountSID + "/Messages/MM0/Media/ME0"
	if err := fetchFails(t, f, unknown, "audio/ogg", nil); !strings.Contains(err.Error(), "404") {
		t.Errorf("unknown media: %v", err)
	}
}

func TestFetchMediaGivesUp(t *testing.T) {
	fake := twiliotest.Start(t)
	hung := fake.AddMedia("audio/ogg", oggNote)
	fake.MediaHang(hung)

	f := newFetcher(t, fake.URL, func(c *twilio.MediaConfig) { c.Timeout = 50 * time.Millisecond })
	fetchFails(t, f, hung, "audio/ogg", context.DeadlineExceeded)

	// A body that stops coming is bounded by the same timeout.
	stalled, u := direct(t, stall(200), func(c *twilio.MediaConfig) { c.Timeout = 50 * time.Millisecond })
	fetchFails(t, stalled, u, "audio/ogg", context.DeadlineExceeded)

	// The caller's context bounds it too.
	slow := newFetcher(t, fake.URL, func(c *twilio.MediaConfig) { c.Timeout = time.Hour })
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for fake.MediaFetches() < 2 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	if _, err := slow.Fetch(ctx, hung, "audio/ogg"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled fetch: %v, want context.Canceled", err)
	}
}

func TestFakeCloseLetsHungMediaGo(t *testing.T) {
	fake := twiliotest.Start(t)
	hung := fake.AddMedia("audio/ogg", oggNote)
	fake.MediaHang(hung)
	req, _ := http.NewRequest(http.MethodGet, fake.URL+strings.TrimPrefix(hung, "https://api.twilio.com"), nil)
	req.SetBasicAuth(accountSID, authToken)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	for fake.MediaFetches() < 1 {
		time.Sleep(time.Millisecond)
	}
	fake.Close() // returns only once the hung handler has gone
	<-done
}

func TestFetchMediaRefusesURLsBeforeAsking(t *testing.T) {
	fake := twiliotest.Start(t)
	f := newFetcher(t, fake.URL, nil)
	good := fake.AddMedia("audio/ogg", oggNote)
	path := strings.TrimPrefix(good, "https://api.twilio.com")
	for _, raw := range []string{
		"",
		"not a url",
		"https://evil.example" + path,
		"https://api.twilio.com.evil.example" + path,
		"https://api.twilio.com@evil.example" + path,
		"https://user:pass@api.twilio.com" + path,
		"https://" + accountSID + ":" + authToken + "@api.twilio.com" + path,
		"http://api.twilio.com" + path,
		"file:///etc/passwd",
		"ftp://api.twilio.com" + path,
		"https://api.twilio.com:8443" + path,
		fake.URL + path, // the fake itself: only Twilio's URLs are fetched, rewritten
		"https://api.twilio.com/2010-04-01/Accounts/AC99999999999999999999999999999999/Messages/MM1/Media/ME1",
		"https://api.twilio.com/2010-04-01/Accounts/" + accountSID + "/Messages.json",
		"https://api.twilio.com/2010-04-01/Accounts/" + accountSID + "/Messages/MM1/Media/../../../Messages.json",
		"https://api.twilio.com/2010-04-01/Accounts/" + accountSID + "/Messages/MM1%2F..%2F/Media/ME1",
		good + "?redirect=https://evil.example",
		good + "#frag",
		good + strings.Repeat("0", 2100),
	} {
		err := fetchFails(t, f, raw, "audio/ogg", nil)
		if strings.Contains(err.Error(), "evil") {
			t.Errorf("error %q repeats the URL", err)
		}
	}
	if n := len(fake.MediaRequests()); n != 0 {
		t.Fatalf("%d requests for refused URLs, want none", n)
	}
}

func TestFetchMediaFollowsOnlyTwilioRedirects(t *testing.T) {
	fake := twiliotest.Start(t)
	f := newFetcher(t, fake.URL, nil)
	var foreignHits atomic.Int32
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		foreignHits.Add(1)
		w.Header().Set("Content-Type", "audio/ogg")
		w.Write(oggNote)
	}))
	t.Cleanup(foreign.Close)

	for _, location := range []string{
		foreign.URL + "/cdn/x",
		"https://evil.example/x",
		"https://twiliocdn.com.evil.example/x",
		"https://eviltwiliocdn.com/x",
		"http://media.twiliocdn.com/x", // not https
		"https://user:pass@media.twiliocdn.com/x",
		"https://media.twiliocdn.com:8443/x",
		strings.Replace(fake.URL, "http:", "https:", 1) + "/cdn/x", // the API URL's host, another scheme
		"file:///etc/passwd",
	} {
		u := fake.AddMedia("audio/ogg", oggNote)
		fake.MediaRedirect(u, location)
		err := fetchFails(t, f, u, "audio/ogg", nil)
		if !strings.Contains(err.Error(), "refused a redirect") {
			t.Errorf("redirect to %s: %v, want it refused", location, err)
		}
	}
	if n := foreignHits.Load(); n != 0 {
		t.Errorf("%d requests reached the foreign host", n)
	}

	loop := fake.AddMedia("audio/ogg", oggNote)
	fake.MediaLoop(loop)
	before := len(fake.MediaRequests())
	err := fetchFails(t, f, loop, "audio/ogg", nil)
	if !strings.Contains(err.Error(), "redirects") {
		t.Errorf("redirect loop: %v", err)
	}
	if n := len(fake.MediaRequests()) - before; n != 4 {
		t.Errorf("redirect loop took %d requests, want the media URL and 3 redirects", n)
	}
}

func TestNewMediaFetcherRefusesBadConfig(t *testing.T) {
	for name, c := range map[string]twilio.MediaConfig{
		"no SID":           {AuthToken: authToken},
		"no token":         {AccountSID: accountSID},
		"API URL no host":  {AccountSID: accountSID, AuthToken: authToken, APIURL: "/just/a/path"},
		"API URL scheme":   {AccountSID: accountSID, AuthToken: authToken, APIURL: "ftp://127.0.0.1:1"},
		"API URL bad":      {AccountSID: accountSID, AuthToken: authToken, APIURL: "http://[::1"},
		"negative cap":     {AccountSID: accountSID, AuthToken: authToken, MaxBytes: -1},
		"negative timeout": {AccountSID: accountSID, AuthToken: authToken, Timeout: -time.Second},
	} {
		if _, err := twilio.NewMediaFetcher(c); err == nil {
			t.Errorf("%s: accepted", name)
		} else if strings.Contains(err.Error(), authToken) {
			t.Errorf("%s: error shows the token: %v", name, err)
		}
	}
}
