package twiliotest_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/twilio/twiliotest"
)

// post sends form as Munshi's sender does and decodes the answer.
func post(t *testing.T, ctx context.Context, s *twiliotest.Server, token string, form url.Values) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/2010-04-01/Accounts/"+twiliotest.AccountSID+"/Messages.json",
		strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(twiliotest.AccountSID, token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("answer %s is not JSON: %v", raw, err)
	}
	return resp.StatusCode, body
}

func message(to string) url.Values {
	return url.Values{"To": {"whatsapp:" + to}, "From": {"whatsapp:+14155238886"}, "Body": {"hello"}}
}

func TestAnswersAsTwilio(t *testing.T) {
	s := twiliotest.Start(t)
	ctx := context.Background()
	if code, body := post(t, ctx, s, twiliotest.AuthToken, message("+919810000001")); code != 201 ||
		body["sid"] != twiliotest.MessageSID(1) || body["status"] != "queued" || body["to"] != "whatsapp:+919810000001" {
		t.Errorf("created: %d %v", code, body)
	}
	if code, body := post(t, ctx, s, "wrong", message("+919810000001")); code != 401 || body["code"] != 20003.0 ||
		body["more_info"] != "https://www.twilio.com/docs/errors/20003" || body["status"] != 401.0 {
		t.Errorf("wrong token: %d %v", code, body)
	}
	s.Fail(1, twiliotest.ServerError)
	if code, body := post(t, ctx, s, twiliotest.AuthToken, message("+919810000001")); code != 500 || body["code"] != 20500.0 {
		t.Errorf("programmed failure: %d %v", code, body)
	}
	if sent := s.Sent(); len(sent) != 1 || len(s.Refused()) != 2 || len(s.Requests()) != 3 {
		t.Errorf("sent %d, refused %d of %d requests; want 1 and 2 of 3", len(sent), len(s.Refused()), len(s.Requests()))
	}
}

func TestOutsideWindowLetsTemplatesThrough(t *testing.T) {
	s := twiliotest.Start(t)
	ctx := context.Background()
	s.FailTo("+919810000001", twiliotest.OutsideWindow)
	if code, body := post(t, ctx, s, twiliotest.AuthToken, message("+919810000001")); code != 400 || body["code"] != 63016.0 {
		t.Errorf("free-form outside the window: %d %v", code, body)
	}
	template := url.Values{"To": {"whatsapp:+919810000001"}, "From": {"whatsapp:+14155238886"}, "ContentSid": {"HX01"}}
	if code, _ := post(t, ctx, s, twiliotest.AuthToken, template); code != 201 {
		t.Errorf("template outside the window: %d", code)
	}
	template.Set("Body", "both")
	if code, body := post(t, ctx, s, twiliotest.AuthToken, template); code != 400 || body["code"] != 21619.0 {
		t.Errorf("a Body beside a template: %d %v", code, body)
	}
	if code, _ := post(t, ctx, s, twiliotest.AuthToken, message("+919810000002")); code != 201 {
		t.Errorf("another phone: %d", code)
	}
	s.Forgive("+919810000001")
	if code, _ := post(t, ctx, s, twiliotest.AuthToken, message("+919810000001")); code != 201 {
		t.Errorf("forgiven: %d", code)
	}
	if n := len(s.To("+919810000001")); n != 4 {
		t.Errorf("To = %d requests, want 4", n)
	}
}

func TestHoldAndDelay(t *testing.T) {
	s := twiliotest.Start(t)
	release := s.Hold()
	done := make(chan int)
	go func() {
		code, _ := post(t, context.Background(), s, twiliotest.AuthToken, message("+919810000001"))
		done <- code
	}()
	if got := s.Wait(1, 10*time.Second); len(got) != 1 || got[0].Status != 0 {
		t.Fatalf("held request recorded as %+v; want one, unanswered", got)
	}
	select {
	case <-done:
		t.Fatal("a held request was answered")
	case <-time.After(20 * time.Millisecond):
	}
	release()
	if code := <-done; code != 201 {
		t.Errorf("released: %d", code)
	}

	s.Delay(time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { s.Wait(2, 10*time.Second); cancel() }()
	if code, _ := post(t, ctx, s, twiliotest.AuthToken, message("+919810000001")); code != 0 {
		t.Errorf("a delayed request answered %d before its client gave up", code)
	}
}
