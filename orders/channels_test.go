package orders

import (
	"strings"
	"testing"
)

type channels struct {
	why  string
	held bool
}

func (c channels) Problem() (string, bool) { return c.why, c.held }

func TestNotifiedLine(t *testing.T) {
	tests := []struct {
		name string
		ch   Channels
		want []string // all in the line
		not  []string // none in the line
	}{
		{"all well", channels{}, []string{"Accounts are being told on WhatsApp and by email."}, []string{"⚠️", "could not"}},
		{"unknown", nil, []string{"Accounts are being told"}, []string{"⚠️"}},
		{"whatsapp held", channels{"WhatsApp: authentication failed (Twilio 401)", true},
			[]string{"⚠️ Accounts could not be told just now (WhatsApp: authentication failed (Twilio 401)).",
				"go out automatically once that works", "if it is urgent, tell them directly."},
			[]string{"are being told", ")).."}},
		{"both held, reason ends in a stop", channels{"WhatsApp: authentication failed (Twilio 401); email: SMTP authentication failed (535).", true},
			[]string{"(WhatsApp: authentication failed (Twilio 401); email: SMTP authentication failed (535))."}, []string{"(535).)"}},
		{"held without a reason", channels{"  ", true}, []string{"could not be told just now (sending is failing)"}, []string{"()"}},
		{"problem text but not held", channels{"stale", false}, []string{"are being told"}, []string{"stale"}},
		{"unicode reason", channels{"ईमेल: SMTP प्रमाणीकरण विफल (535) 🔒", true},
			[]string{"(ईमेल: SMTP प्रमाणीकरण विफल (535) 🔒)."}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NotifiedLine(tt.ch, true, true)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("NotifiedLine = %q, want it to contain %q", got, w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("NotifiedLine = %q, must not contain %q", got, n)
				}
			}
		})
	}
}

// The line names only the ways accounts are really told.
func TestNotifiedLineWays(t *testing.T) {
	for _, c := range []struct {
		whatsapp, email bool
		want            string
	}{
		{true, false, "Accounts are being told on WhatsApp."},
		{false, true, "Accounts are being told by email."},
		{false, false, "please tell them yourself"},
	} {
		if got := NotifiedLine(channels{}, c.whatsapp, c.email); !strings.Contains(got, c.want) {
			t.Errorf("NotifiedLine(%v, %v) = %q, want %q", c.whatsapp, c.email, got, c.want)
		}
	}
}
