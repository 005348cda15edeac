package twilio_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/twilio/twiliotest"
)

func payloadOf(t *testing.T, m domain.Outbound) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSentSinceReadsTwiliosRecord: a message is found in Twilio's list of
// the messages to its recipient when one created since has its text (or,
// for a template, every variable), and not otherwise.
func TestSentSinceReadsTwiliosRecord(t *testing.T) {
	at := time.Date(2026, 3, 14, 1, 30, 0, 0, time.UTC)
	now := at
	fake := twiliotest.Start(t, twiliotest.Clock(func() time.Time { return now }))
	s := newSender(t, fake.URL, nil)
	ctx := context.Background()
	brief := domain.Outbound{To: "+919900000001", Body: "☀️ *Munshi digest* · Fri 13 Mar\nSales ₹1,20,000"}
	template := domain.Outbound{To: "+919900000002", ContentSID: "HX0123456789abcdef0123456789abcdef",
		ContentVariables: map[string]string{"1": "13 Mar 2026", "2": "Sales ₹1,20,000"}}
	other := domain.Outbound{To: "+919900000001", Body: "Order ORD-1042 confirmed"}
	var sids []string
	for _, m := range []domain.Outbound{brief, template, other} {
		sid, err := s.Send(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		sids = append(sids, sid)
		now = now.Add(time.Minute)
	}
	for name, c := range map[string]struct {
		m     domain.Outbound
		since time.Time
		want  []string
	}{
		"the brief":                          {brief, at, sids[:1]},
		"the template":                       {template, at, sids[1:2]},
		"another text to the same person":    {domain.Outbound{To: brief.To, Body: "Sales ₹1,20,000"}, at, nil},
		"the same text to someone else":      {domain.Outbound{To: "+919900000009", Body: brief.Body}, at, nil},
		"a template with another variable":   {domain.Outbound{To: template.To, ContentSID: template.ContentSID, ContentVariables: map[string]string{"1": "14 Mar 2026"}}, at, nil},
		"the brief, written after it went":   {brief, at.Add(time.Hour), nil},
		"the brief within the clocks' drift": {brief, at.Add(time.Minute), sids[:1]},
	} {
		got, err := s.SentSince(ctx, payloadOf(t, c.m), c.since)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: SentSince = %v, %v; want %v", name, got, err, c.want)
		}
	}
	for _, q := range fake.Lists() {
		if q.Get("From") != "whatsapp:"+sender || q.Get("PageSize") != "50" {
			t.Errorf("listed with %v", q)
		}
	}
	fake.Close()
	if _, err := s.SentSince(ctx, payloadOf(t, brief), at); err == nil {
		t.Error("Twilio down: no error")
	}
	if _, err := s.SentSince(ctx, []byte("{"), at); err == nil {
		t.Error("a bad payload: no error")
	}
}

// TestSentSinceLooksPastTheFirstPage: a busy recipient (the accounts
// team, told of every order) may have been sent many messages since the
// in-doubt one was written; it is found on a later page of Twilio's
// list, and the pages stop at the messages created before it.
func TestSentSinceLooksPastTheFirstPage(t *testing.T) {
	at := time.Date(2026, 3, 14, 1, 30, 0, 0, time.UTC)
	now := at.Add(-time.Hour)
	fake := twiliotest.Start(t, twiliotest.Clock(func() time.Time { return now }))
	s := newSender(t, fake.URL, nil)
	ctx := context.Background()
	send := func(body string) string {
		sid, err := s.Send(ctx, domain.Outbound{To: "+919900000002", Body: body})
		if err != nil {
			t.Fatal(err)
		}
		return sid
	}
	for i := range 120 { // older than the in-doubt one: the pages stop at them
		send(fmt.Sprintf("New order ORD-%d", i))
	}
	now = at
	want := send("New order ORD-2000")
	for i := range 130 { // since: more than two pages
		now = now.Add(time.Second)
		send(fmt.Sprintf("New order ORD-%d", 3000+i))
	}
	got, err := s.SentSince(ctx, payloadOf(t, domain.Outbound{To: "+919900000002", Body: "New order ORD-2000"}), at.Add(clockSkewForTest))
	if err != nil || !slices.Equal(got, []string{want}) {
		t.Fatalf("SentSince = %v, %v; want [%s]", got, err, want)
	}
	if n := len(fake.Lists()); n != 3 {
		t.Errorf("%d pages read, want 3 (131 messages since, 50 a page)", n)
	}
}

// clockSkewForTest is less than the drift SentSince allows, so that the
// message written at that moment still counts.
const clockSkewForTest = time.Minute
