package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/briefing"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/store"
)

// brief is a digest's WhatsApp brief to phone.
func brief(phone, text string) domain.Effect {
	return domain.WhatsApp(domain.Outbound{To: phone, Body: text, Notice: domain.Notice{About: "digest 2026-03-13"}})
}

// outboxBodies are the WhatsApp bodies (or template SIDs) in the outbox,
// in order.
func outboxBodies(t *testing.T, s store.Store) []string {
	t.Helper()
	msgs, err := s.OutboxMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		out = append(out, m.To+" "+string(m.Payload))
	}
	return out
}

// testDigestClaim: a delivery is claimed once, with its effect; another
// channel or date of the same recipient is another delivery.
func testDigestClaim(t *testing.T, s store.Store, c *Clock) {
	d := briefing.Delivery{Date: "2026-03-13", Recipient: owner, Channel: briefing.ChannelWhatsApp}
	ok, err := s.ClaimDelivery(ctx, d, nil, brief(owner, "Yesterday: ₹1,24,500"))
	if err != nil || !ok {
		t.Fatalf("first claim = %v, %v; want claimed", ok, err)
	}
	c.Advance(time.Hour)
	ok, err = s.ClaimDelivery(ctx, d, nil, brief(owner, "again"))
	if err != nil || ok {
		t.Fatalf("second claim = %v, %v; want refused", ok, err)
	}
	if got := outboxBodies(t, s); len(got) != 1 {
		t.Fatalf("outbox = %q, want the first claim's brief only", got)
	}
	for _, other := range []briefing.Delivery{
		{Date: "2026-03-13", Recipient: owner, Channel: briefing.ChannelEmail},
		{Date: "2026-03-14", Recipient: owner, Channel: briefing.ChannelWhatsApp},
		{Date: "2026-03-13", Recipient: accounts, Channel: briefing.ChannelWhatsApp},
	} {
		if ok, err := s.ClaimDelivery(ctx, other, nil); err != nil || !ok {
			t.Errorf("claim %+v = %v, %v; want claimed", other, ok, err)
		}
	}
	if n, err := s.Deliveries(ctx, "2026-03-13"); err != nil || n != 3 {
		t.Errorf("Deliveries(13 Mar) = %d, %v; want 3", n, err)
	}
	if n, err := s.Deliveries(ctx, "2026-03-12"); err != nil || n != 0 {
		t.Errorf("Deliveries(12 Mar) = %d, %v; want 0", n, err)
	}
}

// testDigestClaimRace: many claimers of one delivery at once (instances
// sharing the database, a manual send beside the scheduled one): one wins
// and one effect is enqueued.
func testDigestClaimRace(t *testing.T, s store.Store, _ *Clock) {
	for round := range rounds {
		d := briefing.Delivery{Date: fmt.Sprintf("2026-02-%02d", round+1), Recipient: owner, Channel: briefing.ChannelWhatsApp}
		won, errs := claimedAtOnce(20, func(i int) (bool, error) {
			return s.ClaimDelivery(ctx, d, nil, brief(owner, fmt.Sprintf("claimer %d", i)))
		})
		if len(errs) > 0 || won != 1 {
			t.Fatalf("%s: %d claims won, errors %v; want exactly one winner", d.Date, won, errs)
		}
	}
	if got := outboxBodies(t, s); len(got) != rounds {
		t.Fatalf("outbox holds %d messages, want %d: one per delivery", len(got), rounds)
	}
}

// testDigestHoldAndRelease: a brief held (at the claim, or after a refused
// send) goes out once when the recipient writes, and only if it was
// claimed since the time asked.
func testDigestHoldAndRelease(t *testing.T, s store.Store, c *Clock) {
	template := domain.WhatsApp(domain.Outbound{To: owner, ContentSID: "HX0123456789abcdef0123456789abcdef",
		ContentVariables: map[string]string{"1": "13 Mar 2026"}})
	sent := briefing.Delivery{Date: "2026-03-13", Recipient: owner, Channel: briefing.ChannelWhatsApp}
	if ok, err := s.ClaimDelivery(ctx, sent, nil, brief(owner, "the brief")); err != nil || !ok {
		t.Fatalf("claim = %v, %v", ok, err)
	}
	// Twilio refused it: hold it and send the template, once.
	for i, want := range []bool{true, false} {
		ok, err := s.HoldDelivery(ctx, sent, brief(owner, "the brief"), template)
		if err != nil || ok != want {
			t.Fatalf("hold %d = %v, %v; want %v", i+1, ok, err, want)
		}
	}
	unclaimed := briefing.Delivery{Date: "2026-03-12", Recipient: owner, Channel: briefing.ChannelWhatsApp}
	if ok, err := s.HoldDelivery(ctx, unclaimed, brief(owner, "x"), template); err != nil || ok {
		t.Fatalf("hold of an unclaimed delivery = %v, %v; want refused", ok, err)
	}
	if got := outboxBodies(t, s); len(got) != 2 {
		t.Fatalf("outbox = %q; want the brief and one template", got)
	}

	// Held at the claim: the accounts' dues part.
	dues := briefing.Delivery{Date: "2026-03-13", Recipient: accounts, Channel: briefing.ChannelWhatsApp}
	if ok, err := s.ClaimDelivery(ctx, dues, &domain.Effect{Kind: domain.EffectWhatsApp, Payload: brief(accounts, "dues").Payload,
		About: "digest 2026-03-13"}); err != nil || !ok {
		t.Fatalf("claim held = %v, %v", ok, err)
	}
	claimedAt := c.Now()
	c.Advance(3 * time.Hour)
	if n, err := s.ReleaseDigests(ctx, accounts, claimedAt.Add(time.Second)); err != nil || n != 0 {
		t.Fatalf("release of a brief claimed before since = %d, %v; want 0", n, err)
	}

	// The owner and accounts write at once, twice each: each brief goes once.
	var mu sync.Mutex
	released := map[string]int{}
	var fns []func()
	for _, phone := range []string{owner, owner, owner, accounts, accounts} {
		fns = append(fns, func() {
			n, err := s.ReleaseDigests(ctx, phone, claimedAt.Add(-time.Minute))
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			released[phone] += n
			mu.Unlock()
		})
	}
	atOnce(fns...)
	if released[owner] != 1 || released[accounts] != 1 {
		t.Fatalf("released %v; want one brief each", released)
	}
	msgs, err := s.OutboxMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 4 {
		t.Fatalf("outbox = %q; want brief, template, and the two released briefs", outboxBodies(t, s))
	}
	for _, m := range msgs[2:] {
		var want domain.Effect
		switch m.To {
		case owner:
			want = brief(owner, "the brief")
		case accounts:
			want = brief(accounts, "dues")
		}
		if m.Kind != domain.EffectWhatsApp || string(m.Payload) != string(want.Payload) || m.About != "digest 2026-03-13" {
			t.Errorf("released %+v; want %s about the digest", m.Effect, want.Payload)
		}
	}
	if ok, err := s.HoldDelivery(ctx, sent, brief(owner, "again"), template); err != nil || ok {
		t.Errorf("hold after the release = %v, %v; want refused", ok, err)
	}
}

// testLastInbound: when a person last wrote, from the inbound record.
func testLastInbound(t *testing.T, s store.Store, c *Clock) {
	seed(t, s)
	if _, ok, err := s.LastInbound(ctx, owner); err != nil || ok {
		t.Fatalf("LastInbound before any message = %v, %v; want none", ok, err)
	}
	first := c.Now()
	claimInbound(t, s, domain.Inbound{SID: "SMlast1", From: owner, Body: "aaj ka digest"})
	c.Advance(5 * time.Hour)
	claimInbound(t, s, domain.Inbound{SID: "SMlast2", From: owner, Body: "ok"})
	claimInbound(t, s, domain.Inbound{SID: "SMlast3", From: ravi, Body: "stock?"})
	last, ok, err := s.LastInbound(ctx, owner)
	if err != nil || !ok || !last.Equal(first.Add(5*time.Hour)) {
		t.Errorf("LastInbound(owner) = %v, %v, %v; want %v", last, ok, err, first.Add(5*time.Hour))
	}
	if _, ok, err := s.LastInbound(ctx, accounts); err != nil || ok {
		t.Errorf("LastInbound(accounts) = %v, %v; want none", ok, err)
	}
}

func claimInbound(t *testing.T, s store.Store, in domain.Inbound) {
	t.Helper()
	if ok, _, _, err := s.Claim(ctx, in, time.Minute); err != nil || !ok {
		t.Fatalf("Claim(%s) = %v, %v", in.SID, ok, err)
	}
}

// testSentMessage: a status callback finds the outbox message Twilio
// knows by its SID.
func testSentMessage(t *testing.T, s store.Store, _ *Clock) {
	if err := s.Enqueue(ctx, brief(owner, "the brief")); err != nil {
		t.Fatal(err)
	}
	msgs, err := s.ClaimDue(ctx, 10, time.Minute)
	if err != nil || len(msgs) != 1 {
		t.Fatalf("ClaimDue = %d, %v", len(msgs), err)
	}
	if err := s.MarkSent(ctx, msgs[0].ID, "SM0042"); err != nil {
		t.Fatal(err)
	}
	m, ok, err := s.SentMessage(ctx, "SM0042")
	if err != nil || !ok || m.ID != msgs[0].ID || m.To != owner || m.About != "digest 2026-03-13" ||
		string(m.Payload) != string(brief(owner, "the brief").Payload) {
		t.Errorf("SentMessage(SM0042) = %+v, %v, %v", m, ok, err)
	}
	for _, sid := range []string{"", "SM9999", "' OR 1=1 --"} {
		if _, ok, err := s.SentMessage(ctx, sid); err != nil || ok {
			t.Errorf("SentMessage(%q) = %v, %v; want none", sid, ok, err)
		}
	}
}
