package handoff_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/clocktest"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/handoff"
	"github.com/munshi/munshi/internal/store"
)

var (
	ctx    = context.Background()
	owner  = domain.User{Phone: "+919900000001", Name: "Vikram Singh", Role: domain.RoleOwner}
	ravi   = domain.User{Phone: "+919900000003", Name: "Ravi Kumar", Role: domain.RoleSales}
	office = domain.User{Phone: "+919900000009", Name: "Meena Joshi", Role: domain.RoleAccounts}
)

// service is a handoff service on a fresh SQLite store, with the audit
// log's redaction and a clock the test moves.
func service(t *testing.T, secret string) (*handoff.Service, store.Store, *clocktest.Clock) {
	t.Helper()
	clk := clocktest.At(time.Date(2026, 3, 16, 5, 30, 0, 0, time.UTC)) // 11:00 in Kolkata
	s, err := store.Open(ctx, filepath.Join(t.TempDir(), "munshi.db"), store.WithClock(clk.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.UpsertUsers(ctx, []domain.User{owner, ravi, office}); err != nil {
		t.Fatal(err)
	}
	log := audit.New(s, []string{secret}, nil)
	return &handoff.Service{Store: s, Users: s, Audit: log, Redactor: log, Now: clk.Now}, s, clk
}

// sentTo are the WhatsApp messages in the outbox to phone.
func sentTo(t *testing.T, s store.Store, phone string) []domain.Outbound {
	t.Helper()
	msgs, err := s.OutboxMessages(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []domain.Outbound
	for _, m := range msgs {
		var o domain.Outbound
		if m.To == phone && json.Unmarshal(m.Payload, &o) == nil {
			out = append(out, o)
		}
	}
	return out
}

// bodies are the texts of the WhatsApp messages in the outbox to phone.
func bodies(t *testing.T, s store.Store, phone string) []string {
	t.Helper()
	var out []string
	for _, o := range sentTo(t, s, phone) {
		out = append(out, o.Body)
	}
	return out
}

// TestOfficeMessage: the office is told the handle, who, why, what
// Munshi tried and the last messages, with secrets redacted as the audit
// log redacts them; the person who is handed over is never their own
// office.
func TestOfficeMessage(t *testing.T) {
	const secret = "hunter2-s3cret-token"
	svc, s, clk := service(t, secret)
	at := clk.Now()
	reply, err := svc.Open(ctx, ravi, handoff.GaveUp, handoff.Context{
		Text: "the voice note", At: at, Why: "the voice note could not be heard",
		Recent: []handoff.Message{
			{At: at, Side: handoff.FromPerson, Text: "mera password " + secret + " hai"},
			{At: at, Side: handoff.FromMunshi, Text: "Sorry, I didn't understand that"},
		},
		Intent: "unknown", Tier: "none", Draft: "D-57",
	})
	if err != nil || !strings.Contains(reply, "H-1") {
		t.Fatalf("Open = %q, %v", reply, err)
	}
	got := bodies(t, s, owner.Phone)
	if len(got) != 1 {
		t.Fatalf("the owner got %q", got)
	}
	for _, want := range []string{"*H-1*", "Ravi Kumar (sales)", "Munshi gave up: the voice note could not be heard",
		"read it as unknown (none); draft D-57 was shown", "• Ravi: mera password " + audit.Redacted, "• Munshi: Sorry"} {
		if !strings.Contains(got[0], want) {
			t.Errorf("the office's message lacks %q:\n%s", want, got[0])
		}
	}
	if strings.Contains(got[0], secret) {
		t.Errorf("the office's message holds the secret:\n%s", got[0])
	}
	if h, _, _ := s.OpenHandoffOf(ctx, ravi.Phone); strings.Contains(h.Messages[0].Text, secret) {
		t.Error("the stored handoff holds the secret")
	}
	// An owner asking for the office is not sent their own handoff.
	if _, err := svc.Open(ctx, owner, handoff.Asked, handoff.Context{Text: "call me"}); !errors.Is(err, handoff.ErrNoOffice) {
		t.Fatalf("an owner with no one else in the office: %v, want ErrNoOffice", err)
	}
	if got := bodies(t, s, owner.Phone); len(got) != 1 {
		t.Errorf("the owner was sent their own handoff: %q", got)
	}
}

// TestOfficeListAnswers: MUNSHI_HANDOFF_TO names the office; only its
// phones answer, the owner is a third party then, and the person's own
// "H-1 …" is relayed to the office as theirs.
func TestOfficeListAnswers(t *testing.T) {
	svc, s, _ := service(t, "unused-secret")
	svc.Office = []string{office.Phone}
	if _, err := svc.Open(ctx, ravi, handoff.Asked, handoff.Context{Text: "talk to someone"}); err != nil {
		t.Fatal(err)
	}
	if got := bodies(t, s, owner.Phone); len(got) != 0 {
		t.Errorf("the owner got %q, though the office is Meena", got)
	}
	if reply, ok, err := svc.Answer(ctx, owner, handoff.OfficeReply{ID: 1, Text: "haan"}); err != nil || !ok || reply != "H-1 is not yours to answer: it went to the office. Nothing was passed on." {
		t.Errorf("the owner's answer = %q, %v, %v; want refused", reply, ok, err)
	}
	if reply, _, _ := svc.Answer(ctx, ravi, handoff.OfficeReply{ID: 1, Text: "jaldi please"}); !strings.Contains(reply, "passed that to the office") {
		t.Errorf("the person's own H-1 message = %q", reply)
	}
	if got := bodies(t, s, office.Phone); len(got) != 2 || !strings.Contains(got[1], "jaldi please") {
		t.Errorf("the office got %q", got)
	}
	if _, ok, _ := svc.Answer(ctx, office, handoff.OfficeReply{ID: 7, Text: "haan"}); ok {
		t.Error("an answer to a handoff that does not exist was taken")
	}
	if reply, _, _ := svc.Answer(ctx, office, handoff.OfficeReply{ID: 1, Text: "kal milte hain"}); !strings.Contains(reply, "Sent to Ravi") {
		t.Errorf("the office's answer = %q", reply)
	}
	if got := bodies(t, s, ravi.Phone); len(got) != 1 || got[0] != "👤 Meena (office): kal milte hain" {
		t.Errorf("Ravi got %q", got)
	}
}

// window is WhatsApp's window as a test sets it: phones inside it get
// text, others the template.
type window map[string]bool

func (w window) InWindow(_ context.Context, phone string) (bool, error) { return w[phone], nil }

func (w window) Template(to string, day time.Time, headline, about string) (domain.Effect, bool) {
	return domain.WhatsApp(domain.Outbound{To: to, ContentSID: "HXtemplate",
		ContentVariables: map[string]string{"1": day.Format("2 Jan 2006"), "2": headline}}), true
}

// templates are the template variables in the outbox to phone.
func templates(t *testing.T, s store.Store, phone string) []string {
	t.Helper()
	var out []string
	for _, o := range sentTo(t, s, phone) {
		if o.ContentSID != "" {
			out = append(out, o.ContentVariables["2"])
		}
	}
	return out
}

// TestOutsideTheWindow: whoever has not written in 24 hours gets the
// template naming the handle, the office when it opens and the person
// when it is answered (a day later); each reads it by writing the handle.
func TestOutsideTheWindow(t *testing.T) {
	svc, s, clk := service(t, "unused-secret")
	svc.Window = window{ravi.Phone: true}
	if _, err := svc.Open(ctx, ravi, handoff.Asked, handoff.Context{Text: "call me"}); err != nil {
		t.Fatal(err)
	}
	if got := templates(t, s, owner.Phone); len(got) != 1 || got[0] != "H-1: Ravi Kumar (sales) — needs the office. Reply H-1 to read it." {
		t.Fatalf("the owner's templates: %q", got)
	}
	if reply, _, _ := svc.Answer(ctx, owner, handoff.OfficeReply{ID: 1}); !strings.Contains(reply, "• Ravi: call me") {
		t.Errorf("the owner reading H-1: %q", reply)
	}
	clk.Advance(26 * time.Hour)
	svc.Window = window{owner.Phone: true}
	if _, _, err := svc.Answer(ctx, owner, handoff.OfficeReply{ID: 1, Text: "kal subah call karta hoon"}); err != nil {
		t.Fatal(err)
	}
	if got := templates(t, s, ravi.Phone); len(got) != 1 || got[0] != "H-1: the office answered you. Reply H-1 to read it." {
		t.Fatalf("Ravi's templates: %q", got)
	}
	if reply, _, _ := svc.Answer(ctx, ravi, handoff.OfficeReply{ID: 1}); !strings.Contains(reply, "• Office: kal subah call karta hoon") {
		t.Errorf("Ravi reading H-1: %q", reply)
	}
}
