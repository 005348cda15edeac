package audit

import (
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
)

// redactSeeds are strings near every shape the redaction knows, and
// ordinary messages, in several cases and with the letters Unicode folds
// with k and s.
var redactSeeds = []string{
	"GC ka stock kitna hai", "who owes us money?", "*Sales last week (23–29 Nov)*\n₹3,13,292 before GST",
	"राजेश का बकाया कितना है", "basic cleaning kit", "Basic " + base64.StdEncoding.EncodeToString([]byte("ravi:hunter2")),
	"BAſIC " + base64.StdEncoding.EncodeToString([]byte("ravi:hunter2")), "authorization: Bearer abcdefgh12345678",
	"bearer\tabc.def-ghi~jkl", "AIzaSyA1234567890abcdefghijklmnopqrstuv", "sk-abcdefghijklmnop1234", "task-abcdefghijklmnopqrs",
	"smtp://ravi:pw@mail.example.com", "REDIS://:secret@host", "rediss://u:p@h/0", "smtps://a@b", "see https://x.example/a:b@c",
	"AUTH PLAIN " + base64.StdEncoding.EncodeToString([]byte("\x00ravi\x00hunter2")),
	"auth plain\n" + base64.StdEncoding.EncodeToString([]byte("admin\x00ravi\x00hunter2")) + "==x",
	"C: AUTH LOGIN\nS: 334 VXNlcm5hbWU6\nC: " + base64.StdEncoding.EncodeToString([]byte("ravi")) + "\nC: " +
		base64.StdEncoding.EncodeToString([]byte("hunter2")) + "\nS: 535 failed",
	"XOAUTH2 " + base64.StdEncoding.EncodeToString([]byte("user=ravi\x01auth=Bearer tok\x01\x01")),
	"OAUTHBEARER bixhPXJhdmksAWF1dGg9QmVhcmVyIHRvawEB", "xoauth2 dXNlcj1yYXZp", "AUTH\u212a LOGIN", "A\u017fIza",
	base64.StdEncoding.EncodeToString([]byte("\x00a\x00b")) + base64.StdEncoding.EncodeToString([]byte("\x00c\x00d")),
	"abcdefgh===ijklmnop==", "=AAAAAAAA", "ABCDEFG", "GC500ml Phenyl1L HANDWASH200", "\u202eevil\u202c text", "",
}

// TestRedactStringPassesOverOnlyWhatCannotMatch: each expression run on
// every string redacts what the redaction, passing strings over, does.
func TestRedactStringPassesOverOnlyWhatCannotMatch(t *testing.T) {
	l := New(nil, []string{"hunter2secret"}, nil)
	for _, s := range redactSeeds {
		if got, want := l.redactString(s, false), l.redactString(s, true); got != want {
			t.Errorf("%q: redacted to %q, the expressions give %q", s, got, want)
		}
	}
}

// base64Token is the expression redactPlainResponses scans for: a
// candidate for a SASL PLAIN blob.
var base64Token = regexp.MustCompile(`[A-Za-z0-9+/]{8,}={0,2}`)

// plainByExpression is redactPlainResponses written with base64Token.
func plainByExpression(s string) string {
	return base64Token.ReplaceAllStringFunc(s, func(m string) string {
		if b, ok := decodeBase64(m); ok && strings.Count(string(b), "\x00") == 2 {
			return Redacted
		}
		return m
	})
}

func TestRedactPlainResponsesAsTheExpression(t *testing.T) {
	for _, s := range redactSeeds {
		if got, want := redactPlainResponses(s), plainByExpression(s); got != want {
			t.Errorf("%q: redacted to %q, the expression gives %q", s, got, want)
		}
	}
}

func FuzzRedactString(f *testing.F) {
	for _, s := range redactSeeds {
		f.Add(s)
	}
	l := New(nil, []string{"hunter2secret"}, nil)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := l.redactString(s, false), l.redactString(s, true); got != want {
			t.Errorf("%q: redacted to %q, the expressions give %q", s, got, want)
		}
		if got, want := redactPlainResponses(s), plainByExpression(s); got != want {
			t.Errorf("%q: SASL PLAIN redacted to %q, the expression gives %q", s, got, want)
		}
	})
}

// BenchmarkRedactReply is the redaction of an owner's answer, as each
// outbound audit entry has it.
func BenchmarkRedactReply(b *testing.B) {
	l := New(nil, []string{"e2esecretauthtoken0123456789abcd"}, nil)
	reply := "*Sales last week (23–29 Nov)*\n₹3,13,292 before GST (+₹55,463.76 GST), 22 orders\n\n" +
		strings.Repeat("1. Handwash 200ml: ₹60,480, 864 bottles (18 cartons)\n", 10) + "Showing 1–10 of 13. Reply *MORE* for the rest."
	b.ReportAllocs()
	for b.Loop() {
		l.RedactString(reply)
	}
}
