package twilio

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

const fuzzSID = "AC0123456789abcdef0123456789abcdef"

func TestMediaHosts(t *testing.T) {
	f, err := NewMediaFetcher(MediaConfig{AccountSID: fuzzSID, AuthToken: "t", APIURL: "http://127.0.0.1:8080/fake"})
	if err != nil {
		t.Fatal(err)
	}
	for target, want := range map[string]bool{
		"https://media.twiliocdn.com/AC1/ME1?Expires=1&Signature=x": true,
		"https://mms.twiliocdn.com/x":                               true,
		"https://MEDIA.TwilioCDN.com/x":                             true,
		"https://media.twiliocdn.com:443/x":                         true,
		"https://api.twilio.com/x":                                  true,
		"http://127.0.0.1:8080/cdn/x":                               true, // TWILIO_API_URL's host
		"https://twiliocdn.com/x":                                   false,
		"https://eviltwiliocdn.com/x":                               false,
		"https://media.twiliocdn.com.evil.example/x":                false,
		"http://media.twiliocdn.com/x":                              false,
		"https://media.twiliocdn.com:8443/x":                        false,
		"https://u:p@media.twiliocdn.com/x":                         false,
		"https://127.0.0.1:8080/cdn/x":                              false,
		"http://127.0.0.1:8081/cdn/x":                               false,
		"http://u@127.0.0.1:8080/cdn/x":                             false,
		"https://api.twilio.com.evil.example/x":                     false,
	} {
		u, err := url.Parse(target)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.mediaHost(u); got != want {
			t.Errorf("mediaHost(%s) = %v, want %v", target, got, want)
		}
	}
}

// FuzzMediaChecks holds the URL checks to what a request would do: a
// media URL accepted is fetched from api.twilio.com over https, with no
// user info, at a media path of the account; a redirect followed (as
// net/http resolves its Location) goes over https to api.twilio.com or a
// *.twiliocdn.com host, with no user info.
func FuzzMediaChecks(f *testing.F) {
	good := "https://api.twilio.com/2010-04-01/Accounts/" + fuzzSID + "/Messages/MM1/Media/ME1"
	for _, s := range []string{
		good, good + "?x", good + "#y", "https://API.twilio.com" + good[len("https://api.twilio.com"):],
		"https://api.twilio.com@evil.example/", "https://api.twilio.com%2eevil.example/", "https://api.twilio.com:443/",
		"//api.twilio.com/2010-04-01", "https:api.twilio.com/2010-04-01", "https://media.twiliocdn.com/x",
		"https://a.twiliocdn.com\\@evil.example/", "/cdn/ME1", "https://[::1]/", "http://127.0.0.1/",
	} {
		f.Add(s)
	}
	fetcher, err := NewMediaFetcher(MediaConfig{AccountSID: fuzzSID, AuthToken: "t"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if u, err := mediaURL(raw, fuzzSID); err == nil {
			req, err := http.NewRequest(http.MethodGet, u.String(), nil)
			if err != nil {
				t.Fatalf("accepted %q, which net/http cannot request: %v", raw, err)
			}
			if req.URL.Scheme != "https" || !strings.EqualFold(req.URL.Host, apiHost) || req.URL.User != nil ||
				req.URL.Path != u.Path || !mediaPath(req.URL.Path, fuzzSID) {
				t.Fatalf("accepted %q, requested as %s", raw, req.URL)
			}
		} else if strings.Contains(err.Error(), "evil") {
			t.Fatalf("error %q repeats the URL", err)
		}

		base, _ := url.Parse(good)
		target, err := base.Parse(raw)
		if err != nil || !fetcher.mediaHost(target) {
			return
		}
		h := strings.ToLower(target.Hostname())
		if target.Scheme != "https" || target.User != nil || h != apiHost && !strings.HasSuffix(h, cdnDomain) ||
			target.Port() != "" && target.Port() != "443" {
			t.Fatalf("followed a redirect to %q (%s)", raw, target)
		}
	})
}
