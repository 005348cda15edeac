package mail_test

import (
	"context"
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

func TestWrongPasswordAndRefusalAreRetryable(t *testing.T) {
	srv := mailtest.Start(t)
	srv.User, srv.Password = "munshi", "right"
	bad, _ := mail.NewSender("smtp://munshi:wrong@"+srv.Addr, "munshi@distributor.example")
	payload, _ := json.Marshal(domain.Email{To: []string{"a@b.example"}, Subject: "x", Text: "y"})
	if _, err := bad.SendPayload(context.Background(), payload); err == nil {
		t.Fatal("wrong password accepted")
	}
	good, _ := mail.NewSender(srv.URL(), "munshi@distributor.example")
	srv.Refuse(1)
	_, err := good.SendPayload(context.Background(), payload)
	var p interface{ Permanent() bool }
	if err == nil || (errors.As(err, &p) && p.Permanent()) {
		t.Fatalf("a temporary refusal must be a retryable error, got %v", err)
	}
	if _, err := good.SendPayload(context.Background(), payload); err != nil {
		t.Fatalf("second try: %v", err)
	}
}

func TestBadInputIsPermanent(t *testing.T) {
	s, err := mail.NewSender("smtp://127.0.0.1:1", "munshi@distributor.example")
	if err != nil {
		t.Fatal(err)
	}
	var p interface{ Permanent() bool }
	if _, err := s.SendPayload(context.Background(), []byte("{not json")); !errors.As(err, &p) || !p.Permanent() {
		t.Fatalf("bad payload: %v", err)
	}
	payload, _ := json.Marshal(domain.Email{To: []string{"not an address"}, Subject: "x"})
	if _, err := s.SendPayload(context.Background(), payload); !errors.As(err, &p) || !p.Permanent() {
		t.Fatalf("bad recipient: %v", err)
	}
	for _, u := range []string{"http://x", "smtp://", "smtp://host:port", "::"} {
		if _, err := mail.NewSender(u, "a@b.example"); err == nil {
			t.Errorf("NewSender(%q) accepted", u)
		}
	}
}
