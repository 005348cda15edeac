package mail_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/mail"
	"github.com/munshi/munshi/internal/mail/mailtest"
)

func TestSendTextAndHTML(t *testing.T) {
	srv := mailtest.Start(t)
	srv.User, srv.Password = "munshi", "s3cret"
	s, err := mail.NewSender(srv.URL(), "munshi@distributor.example")
	if err != nil {
		t.Fatal(err)
	}
	e := domain.Email{To: []string{"accounts@distributor.example", "owner@distributor.example"}, Subject: "Order ORD-1042 — ₹30,656.40",
		Text: "Total ₹30,656.40", HTML: "<b>Total ₹30,656.40</b>"}
	payload, _ := json.Marshal(e)
	id, err := s.SendPayload(context.Background(), payload)
	if err != nil {
		t.Fatal(err)
	}
	msgs := srv.Wait(1, 5*time.Second)
	if len(msgs) != 1 || id == "" {
		t.Fatalf("%d messages, id %q", len(msgs), id)
	}
	m := msgs[0]
	if m.From != "munshi@distributor.example" || len(m.To) != 2 {
		t.Fatalf("envelope %s → %v", m.From, m.To)
	}
	h := m.Header()
	if !strings.Contains(h.Get("Subject"), "ORD-1042") && !strings.Contains(m.Raw, "ORD-1042") {
		t.Fatalf("subject %q", h.Get("Subject"))
	}
	for _, want := range []string{"multipart/alternative", "text/plain", "text/html", "Message-ID"} {
		if !strings.Contains(m.Raw, want) {
			t.Errorf("mail lacks %q", want)
		}
	}
}

// failure is how a send failed: "held", "permanent" or "transient", and
// the reason it gives people.
func failure(t *testing.T, err error) (string, string) {
	t.Helper()
	var me *mail.Error
	if !errors.As(err, &me) {
		t.Fatalf("error %T (%v) is not a *mail.Error", err, err)
	}
	switch {
	case me.Held() && me.Permanent():
		return "held and permanent", me.Reason()
	case me.Held():
		return "held", me.Reason()
	case me.Permanent():
		return "permanent", me.Reason()
	}
	return "transient", me.Reason()
}

var note, _ = json.Marshal(domain.Email{To: []string{"accounts@distributor.example"}, Subject: "Order ORD-1042", Text: "₹30,656.40"})

func TestSendFailures(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(srv *mailtest.Server) (smtpURL, from string)
		class   string
		reason  string
	}{
		{"wrong password", func(srv *mailtest.Server) (string, string) {
			srv.User, srv.Password = "munshi", "right"
			return "smtp://munshi:wrong@" + srv.Addr, "munshi@distributor.example"
		}, "held", "SMTP authentication failed (535)"},
		{"no password where one is needed", func(srv *mailtest.Server) (string, string) {
			srv.User, srv.Password = "munshi", "right"
			return "smtp://" + srv.Addr, "munshi@distributor.example"
		}, "held", "(502)"},
		{"server without AUTH", func(srv *mailtest.Server) (string, string) {
			return "smtp://munshi:right@" + srv.Addr, "munshi@distributor.example"
		}, "held", "set-up is not usable: server does not support SMTP AUTH"},
		{"no sender address", func(srv *mailtest.Server) (string, string) {
			return srv.URL(), ""
		}, "held", "sender address is not valid"},
		{"temporary refusal", func(srv *mailtest.Server) (string, string) {
			srv.Refuse(1)
			return srv.URL(), "munshi@distributor.example"
		}, "transient", "try later (451)"},
		{"mailbox does not exist", func(srv *mailtest.Server) (string, string) {
			srv.Reject("accounts@distributor.example")
			return srv.URL(), "munshi@distributor.example"
		}, "permanent", "refused the recipient (550)"},
		{"nothing listening", func(srv *mailtest.Server) (string, string) {
			addr := srv.Addr
			srv.Close()
			return "smtp://" + addr, "munshi@distributor.example"
		}, "transient", "could not be reached"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := mailtest.Start(t)
			smtpURL, from := tt.prepare(srv)
			s, err := mail.NewSender(smtpURL, from)
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.SendPayload(context.Background(), note)
			if err == nil {
				t.Fatal("send succeeded")
			}
			if class, reason := failure(t, err); class != tt.class || !strings.Contains(reason, tt.reason) {
				t.Errorf("%s with reason %q, want %s with %q (err: %v)", class, reason, tt.class, tt.reason, err)
			}
			if !strings.HasPrefix(err.Error(), "mail: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			if len(srv.Messages()) != 0 {
				t.Errorf("the server kept %d messages", len(srv.Messages()))
			}
		})
	}
}

func TestRetryAfterTemporaryRefusalSends(t *testing.T) {
	srv := mailtest.Start(t)
	srv.User, srv.Password = "munshi", "right"
	good, _ := mail.NewSender(srv.URL(), "munshi@distributor.example")
	srv.Refuse(1)
	if _, err := good.SendPayload(context.Background(), note); err == nil {
		t.Fatal("a refused send reported success")
	}
	if _, err := good.SendPayload(context.Background(), note); err != nil {
		t.Fatalf("second try: %v", err)
	}
	if n := len(srv.Wait(1, 5*time.Second)); n != 1 {
		t.Fatalf("%d messages, want 1", n)
	}
}

func TestBadInputIsPermanent(t *testing.T) {
	s, err := mail.NewSender("smtp://127.0.0.1:1", "munshi@distributor.example")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.SendPayload(context.Background(), []byte("{not json"))
	if class, _ := failure(t, err); class != "permanent" {
		t.Fatalf("bad payload: %s (%v)", class, err)
	}
	payload, _ := json.Marshal(domain.Email{To: []string{"not an address"}, Subject: "x"})
	_, err = s.SendPayload(context.Background(), payload)
	if class, _ := failure(t, err); class != "permanent" {
		t.Fatalf("bad recipient: %s (%v)", class, err)
	}
	for _, u := range []string{"http://x", "smtp://", "smtp://host:port", "::"} {
		if _, err := mail.NewSender(u, "a@b.example"); err == nil {
			t.Errorf("NewSender(%q) accepted", u)
		}
	}
}

// TestAttachmentsAndInlinePictures: a picture with a content ID is sent
// inline (related to the HTML that shows it), a file as an attachment,
// through the outbox's JSON payload.
func TestAttachmentsAndInlinePictures(t *testing.T) {
	srv := mailtest.Start(t)
	s, err := mail.NewSender(srv.URL(), "munshi@distributor.example")
	if err != nil {
		t.Fatal(err)
	}
	png := []byte("\x89PNG\r\n\x1a\nnot really a picture")
	xlsx := []byte("PK\x03\x04 a workbook")
	e := domain.Email{To: []string{"owner@distributor.example"}, Subject: "Digest", Text: "See the chart",
		HTML: `<p>Sales</p><img src="cid:chart13w" alt="chart">`,
		Attachments: []domain.Attachment{
			{Name: "sales-13-weeks.png", ContentType: "image/png", ContentID: "chart13w", Data: png},
			{Name: "sales-2026-03-03.xlsx", ContentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", Data: xlsx},
		}}
	payload, _ := json.Marshal(e)
	if _, err := s.SendPayload(context.Background(), payload); err != nil {
		t.Fatal(err)
	}
	msgs := srv.Wait(1, 5*time.Second)
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	raw := msgs[0].Raw
	for _, want := range []string{"multipart/mixed", "multipart/related", "Content-Id: <chart13w>", "Content-Disposition: inline",
		`filename="sales-2026-03-03.xlsx"`, "Content-Disposition: attachment", "image/png",
		base64.StdEncoding.EncodeToString(png)[:16], base64.StdEncoding.EncodeToString(xlsx)[:16]} {
		if !strings.Contains(raw, want) {
			t.Errorf("mail lacks %q:\n%s", want, raw)
		}
	}
}
