package memory

import (
	"bytes"
	"regexp"
)

// Redacted replaces a secret in remembered text.
const Redacted = "[redacted]"

var (
	// secretPatterns match what looks like a credential wherever it appears.
	secretPatterns = []*regexp.Regexp{
		regexp.MustCompile(`AIza[0-9A-Za-z_\-]{30,}`),                                              // Google API keys
		regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9\-._~+/]{8,}=*`),                              // bearer tokens
		regexp.MustCompile(`(?i)\bbasic\s+[A-Za-z0-9+/]{12,}={0,2}`),                               // basic auth headers
		regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*`),         // JWTs
		regexp.MustCompile(`\b(?:sk|rk|pk)[-_](?:live[-_]|test[-_]|proj[-_])?[A-Za-z0-9_\-]{16,}`), // API secret keys
		regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{20,}`),                                         // GitHub tokens
		regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9\-]{10,}`),                                      // Slack tokens
		regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`),                                        // AWS access keys
		regexp.MustCompile(`\b[0-9A-Za-z]{0,4}[0-9a-fA-F]{32,}\b`),                                 // long hex: Twilio SIDs and auth tokens, hashes
		regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`),
	}
	// urlCredentials matches the user:password@ of a URL.
	urlCredentials = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.\-]*://)[^\s/@:]+:[^\s/@]+@`)
	// secretAssignments match "password: hunter2", "api_key=…", "OTP 123456".
	secretAssignments = regexp.MustCompile(`(?i)\b(password|passwd|pwd|pass ?code|secret|api[_ \-]?key|access[_ \-]?key|auth[_ \-]?token|token|otp|upi ?pin|mpin|atm ?pin)(\s*(?:is|hai|[:=])\s*)\S+`)
)

// Scrub redacts from text whatever looks like a token, key or password:
// Google API keys (AIza…), bearer and basic credentials, JWTs, common API
// secret keys, long hex strings (32 or more, as Twilio's auth tokens), the
// user:password of a URL, and "password: …"-style assignments. Append
// applies it to every text and row it stores (IDs come from Munshi's own
// code); the audit log has its own redaction.
func Scrub(text string) string {
	if text == "" || !mayHoldSecret(text) {
		return text
	}
	for _, re := range secretPatterns {
		text = re.ReplaceAllString(text, Redacted)
	}
	text = urlCredentials.ReplaceAllString(text, "${1}"+Redacted+"@")
	text = secretAssignments.ReplaceAllString(text, "${1}${2}"+Redacted)
	return text
}

var secretMarkers = [][]byte{
	[]byte("://"), []byte("bearer"), []byte("basic"), []byte("pass"), []byte("pwd"), []byte("secret"),
	[]byte("key"), []byte("token"), []byte("otp"), []byte("pin"), []byte("-----"),
}

// mayHoldSecret is a cheap pre-check: every pattern needs either a run of
// at least 16 letters and digits, or one of a few words or markers.
func mayHoldSecret(text string) bool {
	run := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-' {
			run++
			if run >= 16 {
				return true
			}
		} else {
			run = 0
		}
	}
	lower := make([]byte, len(text)) // ASCII case folding is enough: the markers are ASCII
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	for _, w := range secretMarkers {
		if bytes.Contains(lower, w) {
			return true
		}
	}
	return false
}
