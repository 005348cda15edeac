package main

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/audit"
	"github.com/munshi/munshi/internal/demo"
	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/internal/twilio"
	"github.com/munshi/munshi/webhook"
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
	took, text, media, err := postTwiML(client, m.Addr(), sid, from, body)
	if err != nil {
		b.Fatal(err)
	}
	return took, text, media
}

// postTwiML sends one signed webhook to the server at addr and returns
// how long it took, the text of its TwiML reply (the messages joined by
// newlines) and the links of its <Media> elements; an error when it was
// not answered with a 200 and TwiML. It calls no Fatal, so that a
// benchmark's own goroutines may use it.
func postTwiML(client *http.Client, addr, sid, from, body string) (time.Duration, string, []string, error) {
	form := url.Values{"MessageSid": {sid}, "From": {"whatsapp:" + from},
		"To": {"whatsapp:+14155238886"}, "Body": {body}, "NumMedia": {"0"}}
	req, _ := http.NewRequest("POST", "http://"+addr+"/webhook/twilio", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Twilio-Signature", twilio.Sign(testToken, publicURL+"/webhook/twilio", form))
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	if err != nil || resp.StatusCode != 200 {
		return took, "", nil, fmt.Errorf("%q: status %d, %v", body, resp.StatusCode, err)
	}
	var twiml struct {
		Messages []struct {
			Body  string   `xml:"Body"`
			Media []string `xml:"Media"`
		} `xml:"Message"`
	}
	if err := xml.Unmarshal(raw, &twiml); err != nil {
		return took, "", nil, fmt.Errorf("%q: reply is not TwiML: %v\n%s", body, err, raw)
	}
	var bodies, media []string
	for _, msg := range twiml.Messages {
		bodies, media = append(bodies, msg.Body), append(media, msg.Media...)
	}
	return took, strings.Join(bodies, "\n"), media, nil
}

// want is what a reply must say, and must not, for a benchmark to be
// timing the reply it claims to; and, for a file, what its one <Media>
// link must serve.
type want struct {
	has, lacks []string
	file       *wantFile
}

func (w want) check(b *testing.B, text, reply string) {
	if err := w.problem(text, reply); err != nil {
		b.Fatal(err)
	}
}

// problem says how reply is not what text must get, or nil.
func (w want) problem(text, reply string) error {
	for _, s := range w.has {
		if !strings.Contains(reply, s) {
			return fmt.Errorf("%q: the reply lacks %q, so it is not the one timed:\n%s", text, s, reply)
		}
	}
	for _, s := range w.lacks {
		if strings.Contains(reply, s) {
			return fmt.Errorf("%q: the reply says %q, so it is not the one timed:\n%s", text, s, reply)
		}
	}
	return nil
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

// ownerQuestions is the mix of an owners' burst: stock, dues and sales,
// each answered from the books by the rules tier, with no LLM. Each reply
// must be the answer, not a refusal, an error or a "didn't understand".
var ownerQuestions = []struct {
	text string
	want want
}{
	{"GC ka stock kitna hai", want{has: []string{"*Glass Cleaner 500ml* (GC500)", "Ready: ", "Available: "}}},
	{"who owes us money?", want{has: []string{"*Who owes us*: ", "Mehta Traders: ₹"}}},
	{"Mehta ji ka outstanding", want{has: []string{"*Mehta Traders* (C03)", "Outstanding: ₹", "Credit limit: "}}},
	{"last week sales kitni hui", want{has: []string{"*Sales last week (", " before GST ("}}},
	{"phenyl ka stock", want{has: []string{"(PH1L)", "Ready: "}}},
	{"top customers", want{has: []string{"*Top customers ", "orders)"}}},
}

// The shape of a burst: burstSenders owners, each with one message in
// flight at most, posted by burstWorkers connections at once (a worker
// takes its senders in turn). With a closed loop of that many requests
// in flight, the mean latency is burstWorkers divided by the rate.
const (
	burstSenders = 200
	burstWorkers = 32
)

// BenchmarkOwnerBurst is a burst of owners' questions from 200 senders
// posted concurrently as signed webhooks, reporting messages per second
// and the p99 of a round trip: "sqlite" through the whole program on its
// SQLite books (dedupe record and lease, routing, the tool's SQL, audit
// entries, the saved reply), "bare" through a bare Go handler that parses
// the form and writes TwiML, the ceiling of this machine and load
// generator. Every reply is checked to be the answer asked for.
func BenchmarkOwnerBurst(b *testing.B) {
	b.Run("bare", func(b *testing.B) {
		addr := startBare(b)
		burst(b, addr, burstPhones(), func(text string) want { return want{has: []string{"Got: " + text}} })
	})
	b.Run("sqlite", func(b *testing.B) {
		m := startMain(b, newFakeTwilio(b).URL, nil)
		phones := burstPhones()
		owners := make([]domain.User, len(phones))
		for i, p := range phones {
			owners[i] = domain.User{Phone: p, Name: fmt.Sprintf("Owner %d", i+1), Role: domain.RoleOwner}
		}
		if err := m.Store.UpsertUsers(context.Background(), owners); err != nil {
			b.Fatal(err)
		}
		sids := burst(b, m.Addr(), phones, func(text string) want {
			for _, q := range ownerQuestions {
				if q.text == text {
					return q.want
				}
			}
			panic(text)
		})
		recorded(b, m, sids)
	})
}

// recorded checks, untimed, that every message of sids is in the books
// as answered: its reply saved and its answer in the audit log.
func recorded(b *testing.B, m *Main, sids []string) {
	ctx := context.Background()
	out, err := m.Store.AuditEntries(ctx, audit.KindOutbound)
	if err != nil {
		b.Fatal(err)
	}
	audited := map[string]bool{}
	for _, e := range out {
		audited[e.Subject] = true
	}
	for _, sid := range sids {
		if ok, reply, err := m.Store.SavedReply(ctx, sid); err != nil || !ok || reply.Text == "" {
			b.Fatalf("%s: saved reply %v %q, %v", sid, ok, reply.Text, err)
		}
		if !audited[sid] {
			b.Fatalf("%s: the answer is not in the audit log", sid)
		}
	}
}

// burstPhones are the burst's senders.
func burstPhones() []string {
	phones := make([]string, burstSenders)
	for i := range phones {
		phones[i] = fmt.Sprintf("+9198700%05d", i)
	}
	return phones
}

// startBare serves the webhook's route with a bare handler: the form
// parsed, a TwiML reply written, nothing else.
func startBare(b *testing.B) string {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /webhook/twilio", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, "malformed form", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.Write(webhook.TwiML(domain.Reply{Text: "Got: " + r.PostForm.Get("Body")}))
	})
	srv := httptest.NewServer(mux)
	b.Cleanup(srv.Close)
	return srv.Listener.Addr().String()
}

// burstRun tells the MessageSids of one run of a burst from another's on
// the same server.
var burstRun atomic.Int64

// burst posts b.N owners' questions to addr from phones, burstWorkers at
// a time, each checked against wantFor its text, after one untimed
// message from each sender; it reports msgs/s and the round trip's p99,
// and returns the MessageSids timed.
func burst(b *testing.B, addr string, phones []string, wantFor func(text string) want) []string {
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: burstWorkers, MaxIdleConnsPerHost: burstWorkers}}
	defer client.CloseIdleConnections()
	run := burstRun.Add(1)
	var next atomic.Int64
	var failed atomic.Pointer[error]
	sid := func(i int64) string { return fmt.Sprintf("SMburst%04d%09d", run, i) }
	// post sends message i of the run from phone.
	post := func(i int64, phone string) (time.Duration, bool) {
		text := ownerQuestions[int(i)%len(ownerQuestions)].text
		took, reply, media, err := postTwiML(client, addr, sid(i), phone, text)
		if err == nil {
			err = wantFor(text).problem(text, reply)
		}
		if err == nil && len(media) > 0 {
			err = fmt.Errorf("%q: the reply carries %v", text, media)
		}
		if err != nil {
			failed.CompareAndSwap(nil, &err)
			return took, false
		}
		return took, true
	}
	// work runs one worker: the senders w, w+burstWorkers, … in turn,
	// until total messages are taken.
	work := func(w int, total int64, lat *latencies) {
		for k := w; ; k += burstWorkers {
			i := next.Add(1) - 1
			if i >= total || failed.Load() != nil {
				return
			}
			took, ok := post(i, phones[k%len(phones)])
			if !ok {
				return
			}
			*lat = append(*lat, took)
		}
	}
	fire := func(total int64) latencies {
		next.Store(0)
		all := make([]latencies, burstWorkers)
		var wg sync.WaitGroup
		for w := range burstWorkers {
			wg.Go(func() { work(w, total, &all[w]) })
		}
		wg.Wait()
		if err := failed.Load(); err != nil {
			b.Fatal(*err)
		}
		var lat latencies
		for _, l := range all {
			lat = append(lat, l...)
		}
		return lat
	}
	// One message from each sender first, untimed: every conversation
	// exists and every connection is open before the clock starts.
	fire(int64(len(phones)))
	run = burstRun.Add(1)
	b.ResetTimer()
	start, cpu := time.Now(), processCPU()
	lat := fire(int64(b.N))
	elapsed, cpu := time.Since(start), processCPU()-cpu
	b.StopTimer()
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "msgs/s")
	lat.report(b)
	if cpu > 0 {
		// The CPU time of the whole process, server and load generator,
		// which a busy machine changes less than the rate.
		b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/msg")
	}
	sids := make([]string, b.N)
	for i := range sids {
		sids[i] = sid(int64(i))
	}
	return sids
}
