package main

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/twilio"
)

// latencies collects per-operation durations to report a p99 beside ns/op.
type latencies []time.Duration

func (l latencies) report(b *testing.B) { l.reportAs(b, "p99-µs") }

// reportAs reports the p99 under a name of its own, for a benchmark that
// times more than one kind of message.
func (l latencies) reportAs(b *testing.B, unit string) {
	if len(l) == 0 {
		return
	}
	sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	b.ReportMetric(float64(l[len(l)*99/100].Microseconds()), unit)
}

// post sends one signed webhook and returns how long it took and the text
// of its TwiML reply, the messages joined by newlines.
func post(b *testing.B, client *http.Client, m *Main, sid, from, body string) (time.Duration, string) {
	took, text, _ := postWithMedia(b, client, m, sid, from, body)
	return took, text
}

// postWithMedia is post that also returns the links of the reply's
// <Media> elements.
func postWithMedia(b *testing.B, client *http.Client, m *Main, sid, from, body string) (time.Duration, string, []string) {
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
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	if err != nil || resp.StatusCode != 200 {
		b.Fatalf("%q: status %d, %v", body, resp.StatusCode, err)
	}
	var twiml struct {
		Messages []struct {
			Body  string   `xml:"Body"`
			Media []string `xml:"Media"`
		} `xml:"Message"`
	}
	if err := xml.Unmarshal(raw, &twiml); err != nil {
		b.Fatalf("%q: reply is not TwiML: %v\n%s", body, err, raw)
	}
	var bodies, media []string
	for _, msg := range twiml.Messages {
		bodies, media = append(bodies, msg.Body), append(media, msg.Media...)
	}
	return took, strings.Join(bodies, "\n"), media
}

// want is what a reply must say, and must not, for a benchmark to be
// timing the reply it claims to; and, for a file, what its one <Media>
// link must serve.
type want struct {
	has, lacks []string
	file       *wantFile
}

func (w want) check(b *testing.B, text, reply string) {
	for _, s := range w.has {
		if !strings.Contains(reply, s) {
			b.Fatalf("%q: the reply lacks %q, so it is not the one timed:\n%s", text, s, reply)
		}
	}
	for _, s := range w.lacks {
		if strings.Contains(reply, s) {
			b.Fatalf("%q: the reply says %q, so it is not the one timed:\n%s", text, s, reply)
		}
	}
}

// benchMessages posts the same message from one person, each time with a
// new MessageSid, checks every reply against w (fetching its file, if
// any, untimed), and reports the round trip's p99.
func benchMessages(b *testing.B, m *Main, from, text string, w want) {
	client := &http.Client{}
	_, reply, media := postWithMedia(b, client, m, "SMwarm", from, text)
	w.check(b, text, reply)
	w.checkMedia(b, client, m, text, media)
	var lat latencies
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		took, reply, media := postWithMedia(b, client, m, fmt.Sprintf("SMbench%09d", i), from, text)
		lat = append(lat, took)
		w.check(b, text, reply)
		if w.file != nil {
			b.StopTimer()
			w.checkMedia(b, client, m, text, media)
			b.StartTimer()
		}
	}
	lat.report(b)
}

// BenchmarkWebhookRoundTrip is one signed webhook through the whole program
// over loopback HTTP: signature check, MessageSid dedupe (a durable insert
// and the saved reply), routing, audit entries and the TwiML reply, here a
// greeting.
func BenchmarkWebhookRoundTrip(b *testing.B) {
	benchMessages(b, startMain(b, newFakeTwilio(b).URL, nil), demo.SalesPhone, "namaste", want{has: []string{"Namaste Ravi"}})
}

// BenchmarkOrderRoundTrip is an order message answered with its priced
// summary: parse, snapshot, five rules, draft stored, audit, TwiML.
func BenchmarkOrderRoundTrip(b *testing.B) {
	benchMessages(b, startMain(b, newFakeTwilio(b).URL, nil), demo.SalesPhone,
		"10 carton glass cleaner aur 10 pack phenyl for Rajesh, COD",
		want{has: []string{"Rajesh Kirana Store", "10 cartons (240 bottles)", "Total: ₹30,656.40", "Reply *ok*"}})
}

// confirmDraft is an order that commits on "ok": ₹30,656.40 with GST,
// above the ₹25,000 minimum, paid by cheque (no credit check), which
// Mehta Traders may use.
const confirmDraft = "10 carton glass cleaner aur 10 pack phenyl for Mehta ji, cheque"

// BenchmarkConfirmRoundTrip is the "ok" that commits an order: re-pricing,
// the commit transaction with stock re-checked, outbox rows and audit.
// Each iteration first places a fresh draft (not timed), and checks after
// the "ok" that the order is in the books as committed (not timed).
func BenchmarkConfirmRoundTrip(b *testing.B) {
	m := startMain(b, newFakeTwilio(b).URL, nil)
	ctx := context.Background()
	client := &http.Client{}
	commit := func(i int, timed bool) (time.Duration, domain.Order) {
		_, summary := post(b, client, m, fmt.Sprintf("SMdraft%09d", i), demo.SalesPhone, confirmDraft)
		want{has: []string{"Mehta Traders", "Reply *ok*"}, lacks: []string{"below the"}}.check(b, confirmDraft, summary)
		if timed {
			b.StartTimer()
		}
		took, reply := post(b, client, m, fmt.Sprintf("SMok%09d", i), demo.SalesPhone, "ok")
		if timed {
			b.StopTimer()
		}
		// The number is the placed order's, as the reply and the books give it.
		id := orderID.FindString(reply)
		want{has: []string{"placed for Mehta Traders", id}}.check(b, "ok", reply)
		o, ok, err := m.Store.Order(ctx, id)
		if err != nil || !ok || o.Status != domain.OrderCommitted {
			b.Fatalf("order %s after ok: %+v, in the books %v, %v", id, o, ok, err)
		}
		return took, o
	}
	// One order committed first tells what each takes from stock; the
	// catalog then holds enough for every iteration.
	_, first := commit(-1, false)
	products, err := m.Store.Products(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for i := range products {
		for _, l := range first.Lines {
			if l.SKU == products[i].SKU {
				products[i].StockReady += int64(b.N) * l.Qty
			}
		}
	}
	if err := m.Store.UpsertProducts(ctx, products); err != nil {
		b.Fatal(err)
	}
	lat := make(latencies, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		took, _ := commit(i, true)
		lat = append(lat, took)
	}
	lat.report(b)
}
