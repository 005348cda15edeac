package memory

import (
	"strings"
	"testing"
)

func TestScrubRedactsSecrets(t *testing.T) {
	cases := map[string]string{
		"my key is AIzaSyD-1234567890abcdefghijklmnopqrstu ok":          "AIzaSyD-1234567890abcdefghijklmnopqrstu",
		"Authorization: Bearer ya29.a0AfH6SMBx-secret_token.value":      "ya29.a0AfH6SMBx-secret_token.value",
		"auth token 0123456789abcdef0123456789ABCDEF":                   "0123456789abcdef0123456789ABCDEF",
		"sid AC0123456789abcdef0123456789abcdef":                        "AC0123456789abcdef0123456789abcdef",
		"use redis://default:s3cretPass@redis.internal:6379/0 for this": "s3cretPass",
		"smtp://mailer:hunter2@smtp.example.in:587":                     "hunter2",
		"password: Munshi@2024":                                         "Munshi@2024",
		"api_key=abc123def456":                                          "abc123def456",
		"OTP is 482913":                                                 "482913",
		"jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U": "dozjgNryP4J3jVmNHl0w5N",
		"sk-proj-abcdefghijklmnopqrstuvwx":         "abcdefghijklmnopqrstuvwx",
		"ghp_abcdefghijklmnopqrstuvwxyz0123456789": "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
		"AKIAIOSFODNN7EXAMPLE":                     "AKIAIOSFODNN7EXAMPLE",
		"Basic bXVuc2hpOmh1bnRlcjI=":               "bXVuc2hpOmh1bnRlcjI=",
	}
	for in, secret := range cases {
		got := Scrub(in)
		if strings.Contains(got, secret) || !strings.Contains(got, Redacted) {
			t.Errorf("Scrub(%q) = %q", in, got)
		}
	}
}

func TestScrubKeepsBusinessText(t *testing.T) {
	for _, s := range []string{
		"5 carton GC aur 10 pack phenyl for Rajesh, COD",
		"Sharma Traders ₹1,25,400 (limit ₹1,50,000)",
		"approve ORD-1042", "GC500 ready 2400 wip 480", "call +919810000001",
		"deliver to shop 12, pin code 110001", "उनका बकाया कितना है?", "https://munshi.example.in/media/abc",
		"internationalisation of the catalogue", "key account Sharma ji ka order",
	} {
		if got := Scrub(s); got != s {
			t.Errorf("Scrub(%q) = %q", s, got)
		}
	}
}
