package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/twilio"
)

// latencies collects per-operation durations to report a p99 beside ns/op.
type latencies []time.Duration

func (l latencies) report(b *testing.B) {
	if len(l) == 0 {
		return
	}
	sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	b.ReportMetric(float64(l[len(l)*99/100].Microseconds()), "p99-µs")
}

// post sends one signed webhook and returns how long it took.
func post(b *testing.B, client *http.Client, m *Main, sid, from, body string) time.Duration {
	form := url.Values{"MessageSid": {sid}, "From": {"whatsapp:" + from},
		"To": {"whatsapp:+14155238886"}, "Body": {body}, "NumMedia": {"0"}}
	req, _ := http.NewRequest("POST", "http://"+m.Addr()+"/webhook/twilio", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Twilio-Signature", twilio.Sign(testToken, publicURL+"/webhook/twilio", form))
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	if resp.StatusCode != 200 {
		b.Fatalf("status %d", resp.StatusCode)
	}
	return took
}

// benchMessages posts the same message from one person b.N times, each
// with a new MessageSid, and reports the round trip's p99.
func benchMessages(b *testing.B, m *Main, from, text string) {
	client := &http.Client{}
	post(b, client, m, "SMwarm", from, text)
	lat := make(latencies, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lat = append(lat, post(b, client, m, fmt.Sprintf("SMbench%09d", i), from, text))
	}
	b.StopTimer()
	lat.report(b)
}

// BenchmarkWebhookRoundTrip is one signed webhook through the whole program
// over loopback HTTP: signature check, MessageSid dedupe (a durable insert
// and the saved reply), routing, audit entries and the TwiML reply.
func BenchmarkWebhookRoundTrip(b *testing.B) {
	benchMessages(b, startMain(b, newFakeTwilio(b).URL, nil), demo.SalesPhone, "namaste")
}

// BenchmarkOrderRoundTrip is an order message answered with its priced
// summary: parse, snapshot, five rules, draft stored, audit, TwiML.
func BenchmarkOrderRoundTrip(b *testing.B) {
	benchMessages(b, startMain(b, newFakeTwilio(b).URL, nil), demo.SalesPhone,
		"10 carton glass cleaner aur 10 pack phenyl for Rajesh, COD")
}

// BenchmarkConfirmRoundTrip is the "ok" that commits an order: re-pricing,
// the commit transaction with stock re-checked, outbox rows and audit. Each
// iteration first places a fresh draft (not timed).
func BenchmarkConfirmRoundTrip(b *testing.B) {
	m := startMain(b, newFakeTwilio(b).URL, nil)
	client := &http.Client{}
	lat := make(latencies, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		post(b, client, m, fmt.Sprintf("SMdraft%09d", i), demo.SalesPhone, "1 carton glass cleaner aur 1 carton phenyl for Mehta ji, cheque")
		b.StartTimer()
		lat = append(lat, post(b, client, m, fmt.Sprintf("SMok%09d", i), demo.SalesPhone, "ok"))
	}
	b.StopTimer()
	lat.report(b)
}
