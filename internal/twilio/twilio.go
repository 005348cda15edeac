package twilio

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"net/url"
	"sort"

	"github.com/twilio/twilio-go/client"
)

// ValidSignature reports whether signature is Twilio's X-Twilio-Signature
// for a request to fullURL with the given form, under authToken.
func ValidSignature(authToken, fullURL string, form url.Values, signature string) bool {
	if signature == "" || authToken == "" {
		return false
	}
	v := client.NewRequestValidator(authToken)
	return v.Validate(fullURL, firstValues(form), signature)
}

// Sign computes the signature Twilio sends with a request (HMAC-SHA1 over the
// URL and the sorted form), so that tests and replay tools can sign webhooks
// the way Twilio does.
func Sign(authToken, fullURL string, form url.Values) string {
	params := firstValues(form)
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	mac := hmac.New(sha1.New, []byte(authToken))
	mac.Write([]byte(fullURL))
	for _, k := range keys {
		mac.Write([]byte(k + params[k]))
	}
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

func firstValues(form url.Values) map[string]string {
	params := make(map[string]string, len(form))
	for k, vs := range form {
		if len(vs) > 0 {
			params[k] = vs[0]
		}
	}
	return params
}
