package domain

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestEffectPayloadsRoundTrip(t *testing.T) {
	o := Outbound{To: "+919810000001", Body: "Order O-1042 for Rajesh Kirana Store approved: ₹25,000 (COD) 🙏",
		MediaURLs: []string{"https://munshi.example.com/media/o-1042.pdf"}}
	w := WhatsApp(o)
	var back Outbound
	if err := json.Unmarshal(w.Payload, &back); err != nil {
		t.Fatalf("WhatsApp payload: %v", err)
	}
	if w.Kind != EffectWhatsApp || w.To != o.To || back.Body != o.Body || !slices.Equal(back.MediaURLs, o.MediaURLs) {
		t.Errorf("WhatsApp(%+v) = %+v (payload %+v)", o, w, back)
	}
	e := Email{To: []string{"accounts@example.com", "ca@example.com"}, Subject: "Daily digest", Text: "…", HTML: "<p>…</p>"}
	m := Mail(e)
	var eback Email
	if err := json.Unmarshal(m.Payload, &eback); err != nil {
		t.Fatalf("Mail payload: %v", err)
	}
	if m.Kind != EffectEmail || m.To != "accounts@example.com,ca@example.com" || eback.Subject != e.Subject ||
		!slices.Equal(eback.To, e.To) || eback.HTML != e.HTML {
		t.Errorf("Mail(%+v) = %+v (payload %+v)", e, m, eback)
	}
}

// The notice travels beside the payload: the provider never sees whom to
// warn.
func TestEffectNoticeStaysOutOfThePayload(t *testing.T) {
	notice := Notice{About: "ORD-1042", TellOnFailure: "+919900000003"}
	for _, eff := range []Effect{
		WhatsApp(Outbound{To: "+919900000002", Body: "🧾 New order ORD-1042", Notice: notice}),
		Mail(Email{To: []string{"accounts@distributor.example"}, Subject: "Order ORD-1042", Notice: notice}),
	} {
		if eff.About != "ORD-1042" || eff.TellOnFailure != "+919900000003" {
			t.Errorf("%s effect lost the notice: %+v", eff.Kind, eff)
		}
		var payload map[string]any
		if err := json.Unmarshal(eff.Payload, &payload); err != nil {
			t.Fatal(err)
		}
		if _, ok := payload["About"]; ok || strings.Contains(string(eff.Payload), "+919900000003") {
			t.Errorf("%s payload %s carries the notice", eff.Kind, eff.Payload)
		}
	}
}

// Text that is not valid UTF-8, or hostile, still makes a payload that
// decodes: the outbox never holds a message its sender cannot read.
func TestEffectHostileText(t *testing.T) {
	for _, body := range []string{"\xff\xfe broken", strings.Repeat("मेलबॉक्स 📭 ", 5000), "</script><b>\u0000\u202e"} {
		var back Outbound
		if err := json.Unmarshal(WhatsApp(Outbound{To: "+9198", Body: body}).Payload, &back); err != nil {
			t.Errorf("payload of %.20q does not decode: %v", body, err)
		}
	}
}
