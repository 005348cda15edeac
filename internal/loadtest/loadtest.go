package loadtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/munshi/munshi/internal/twilio"
)

// DefaultTo is the business's WhatsApp number when Options.To is empty:
// Twilio's sandbox number.
const DefaultTo = "+14155238886"

// WebhookPath is where Twilio posts incoming messages.
const WebhookPath = "/webhook/twilio"

// Sender is one person and what they say, in order.
type Sender struct {
	Phone    string // +E164, a user in the books
	Messages []string
}

// Options say where the traffic goes and how it is signed.
type Options struct {
	// Targets are the base URLs of the instances (http://127.0.0.1:8080);
	// a sender's messages, and the copies of each, go round them.
	Targets []string
	// PublicURL is MUNSHI_PUBLIC_URL: signatures are computed over
	// PublicURL+WebhookPath, as Twilio computes them over the URL it calls.
	PublicURL string
	// AuthToken is TWILIO_AUTH_TOKEN; empty sends the webhooks unsigned.
	AuthToken string
	// AccountSID is the form's AccountSid.
	AccountSID string
	// To is the business's number, +E164 (default DefaultTo).
	To string
	// SIDPrefix starts every MessageSid after "SM", so that two runs
	// against one database never meet (default: random).
	SIDPrefix string
	// Copies is how many times each message is delivered under its one
	// MessageSid, each copy to the next target (default 1); AtOnce of
	// them go at the same time (default 1), the rest one after another
	// once those are answered.
	Copies, AtOnce int
	// Failover tries a delivery that got no answer at all (the instance
	// is down, or died answering) again under the same MessageSid at the
	// next target, as a load balancer does, until one answers or every
	// target has been tried. Each try is a Delivery of its own.
	Failover bool
	// Client sends the requests (default: a client that keeps a
	// connection per sender, closed when Run returns).
	Client *http.Client
	// Timeout bounds one delivery (default 20s, past Twilio's 15s).
	Timeout time.Duration
	// Observe, when set, hears every delivery once it is answered, from
	// many goroutines at once: a test kills an instance from here.
	Observe func(Delivery)
	// Rate, when above 0, offers the messages at that many a second in
	// all, as people write them, whether or not earlier answers are in
	// (an open loop): message k of the run, taken round the senders, is
	// due k/Rate after the start. A sender still waiting for its last
	// answer sends once it comes, and every latency counts from when the
	// message was due, so a slow answer that holds up its sender's next
	// message is counted, not hidden. 0 is a closed loop: each sender
	// sends its next message the moment its last is answered.
	Rate float64
}

// Message is one message of one sender and every delivery of it.
type Message struct {
	SID, From, Body string
	Sender, Seq     int // the sender's index in the traffic, and the message's in its script
	// Due is when an open loop (Options.Rate) offered it; zero in a
	// closed loop.
	Due        time.Time
	Deliveries []Delivery
}

// Delivery is one webhook request and what came back.
type Delivery struct {
	SID     string
	Copy    int
	Target  string
	Start   time.Time
	Latency time.Duration
	// Status is the HTTP status, 0 when no answer came (refused, reset,
	// timed out); Err says why when Status is not 200.
	Status int
	Err    error
	// Replies are the bodies of the TwiML <Message> elements, Media their
	// <Media> links; both empty for an empty <Response/>.
	Replies []string
	Media   []string
}

// OK reports whether the delivery was answered with a 200.
func (d Delivery) OK() bool { return d.Err == nil && d.Status == http.StatusOK }

// Text is the reply's messages joined by newlines.
func (d Delivery) Text() string { return strings.Join(d.Replies, "\n") }

// Answer is the first delivery answered with a 200 that says something,
// else the first answered at all; false when none was.
func (m Message) Answer() (Delivery, bool) {
	var first *Delivery
	for i, d := range m.Deliveries {
		if !d.OK() {
			continue
		}
		if len(d.Replies) > 0 || len(d.Media) > 0 {
			return d, true
		}
		if first == nil {
			first = &m.Deliveries[i]
		}
	}
	if first == nil {
		return Delivery{}, false
	}
	return *first, true
}

// Report is what a run did.
type Report struct {
	Messages []Message // by sender, then in each sender's order
	Elapsed  time.Duration
}

// Deliveries returns every delivery of every message.
func (r *Report) Deliveries() []Delivery {
	var out []Delivery
	for _, m := range r.Messages {
		out = append(out, m.Deliveries...)
	}
	return out
}

// Errors returns the deliveries not answered with a 200.
func (r *Report) Errors() []Delivery {
	var out []Delivery
	for _, d := range r.Deliveries() {
		if !d.OK() {
			out = append(out, d)
		}
	}
	return out
}

// Rate is messages per second over the whole run (every copy of a
// message counts once).
func (r *Report) Rate() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(len(r.Messages)) / r.Elapsed.Seconds()
}

// Percentile is the latency below which a fraction q (0.5, 0.99) of the
// deliveries were answered, by nearest rank; 0 with no delivery.
func (r *Report) Percentile(q float64) time.Duration {
	var lat []time.Duration
	for _, d := range r.Deliveries() {
		lat = append(lat, d.Latency)
	}
	if len(lat) == 0 {
		return 0
	}
	slices.Sort(lat)
	i := int(math.Ceil(q*float64(len(lat)))) - 1
	return lat[min(max(i, 0), len(lat)-1)]
}

// String sums the run up on one line.
func (r *Report) String() string {
	return fmt.Sprintf("%d messages (%d deliveries) in %s: %.0f messages/s, p50 %s, p99 %s, %d errors",
		len(r.Messages), len(r.Deliveries()), r.Elapsed.Round(time.Millisecond), r.Rate(),
		r.Percentile(0.50).Round(10*time.Microsecond), r.Percentile(0.99).Round(10*time.Microsecond), len(r.Errors()))
}

// Run sends every sender's messages, the senders at once and each
// sender's in order, and returns when all are answered or ctx ends
// (messages not yet sent then are left out of the report).
func Run(ctx context.Context, o Options, senders []Sender) (*Report, error) {
	if len(o.Targets) == 0 {
		return nil, errors.New("loadtest: no targets")
	}
	o = o.withDefaults(len(senders))
	if t, ok := o.Client.Transport.(*http.Transport); ok {
		defer t.CloseIdleConnections()
	}
	scripts := make([][]Message, len(senders))
	n := 0
	for s, snd := range senders {
		for i, body := range snd.Messages {
			scripts[s] = append(scripts[s], Message{SID: fmt.Sprintf("SM%s%0*x", o.SIDPrefix, 32-len(o.SIDPrefix), n),
				From: snd.Phone, Body: body, Sender: s, Seq: i})
			n++
		}
	}
	start := time.Now()
	if o.Rate > 0 {
		due(scripts, start, o.Rate)
	}
	var wg sync.WaitGroup
	for s := range scripts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range scripts[s] {
				m := &scripts[s][i]
				if !m.Due.IsZero() {
					wait(ctx, m.Due)
				}
				if ctx.Err() != nil {
					scripts[s] = scripts[s][:i]
					return
				}
				o.deliver(ctx, m)
				if !m.Due.IsZero() {
					for d := range m.Deliveries {
						m.Deliveries[d].Latency += m.Deliveries[d].Start.Sub(m.Due)
					}
				}
			}
		}()
	}
	wg.Wait()
	r := &Report{Elapsed: time.Since(start)}
	for _, msgs := range scripts {
		r.Messages = append(r.Messages, msgs...)
	}
	return r, nil
}

// due sets when each message of an open loop at rate is offered: the
// senders' first messages in turn, then their second ones, and so on,
// one every 1/rate after start.
func due(scripts [][]Message, start time.Time, rate float64) {
	k := 0
	for seq := 0; ; seq++ {
		more := false
		for s := range scripts {
			if seq < len(scripts[s]) {
				scripts[s][seq].Due = start.Add(time.Duration(float64(k) / rate * float64(time.Second)))
				k++
				more = true
			}
		}
		if !more {
			return
		}
	}
}

// wait returns at t, or when ctx ends.
func wait(ctx context.Context, t time.Time) {
	d := time.Until(t)
	if d <= 0 {
		return
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}

func (o Options) withDefaults(senders int) Options {
	if o.To == "" {
		o.To = DefaultTo
	}
	if o.SIDPrefix == "" {
		b := make([]byte, 4)
		rand.Read(b)
		o.SIDPrefix = hex.EncodeToString(b)
	}
	o.SIDPrefix = o.SIDPrefix[:min(len(o.SIDPrefix), 24)]
	o.Copies = max(o.Copies, 1)
	o.AtOnce = min(max(o.AtOnce, 1), o.Copies)
	if o.Timeout <= 0 {
		o.Timeout = 20 * time.Second
	}
	if o.Client == nil {
		o.Client = &http.Client{Transport: &http.Transport{
			MaxIdleConnsPerHost: max(senders, 2) * o.AtOnce,
			IdleConnTimeout:     30 * time.Second,
		}}
	}
	return o
}

// deliver sends every copy of m: AtOnce together, then the rest in turn.
func (o Options) deliver(ctx context.Context, m *Message) {
	copies := make([][]Delivery, o.Copies)
	form := Form(m.SID, o.AccountSID, m.From, o.To, m.Body)
	var wg sync.WaitGroup
	for c := range o.AtOnce {
		wg.Add(1)
		go func() {
			defer wg.Done()
			copies[c] = o.deliverCopy(ctx, m, form, c)
		}()
	}
	wg.Wait()
	for c := o.AtOnce; c < o.Copies; c++ {
		copies[c] = o.deliverCopy(ctx, m, form, c)
	}
	m.Deliveries = slices.Concat(copies...)
}

// deliverCopy sends copy c of m to its target, and with Failover to the
// next ones while none answers.
func (o Options) deliverCopy(ctx context.Context, m *Message, form url.Values, c int) []Delivery {
	var out []Delivery
	for try := 0; ; try++ {
		target := o.Targets[(m.Sender+m.Seq+c+try)%len(o.Targets)]
		d := o.post(ctx, target, form, c)
		out = append(out, d)
		if d.Status != 0 || !o.Failover || try+1 >= len(o.Targets) || ctx.Err() != nil {
			return out
		}
	}
}

func (o Options) post(ctx context.Context, target string, form url.Values, c int) Delivery {
	d := Post(ctx, o.Client, o.Timeout, Webhook{Target: target, PublicURL: o.PublicURL, AuthToken: o.AuthToken}, form)
	d.Copy = c
	if o.Observe != nil {
		o.Observe(d)
	}
	return d
}

// Form is an incoming WhatsApp message as Twilio posts it.
func Form(sid, accountSID, from, to, body string) url.Values {
	return url.Values{
		"MessageSid": {sid}, "SmsMessageSid": {sid}, "SmsSid": {sid}, "AccountSid": {accountSID},
		"From": {"whatsapp:" + from}, "To": {"whatsapp:" + to}, "Body": {body},
		"NumMedia": {"0"}, "NumSegments": {"1"}, "SmsStatus": {"received"}, "MessageType": {"text"},
		"ProfileName": {"Load"}, "WaId": {strings.TrimPrefix(from, "+")}, "ApiVersion": {"2010-04-01"},
	}
}

// Webhook is where a webhook goes and how it is signed.
type Webhook struct {
	Target    string // the instance's base URL
	PublicURL string // what the signature is computed over, with WebhookPath
	AuthToken string // empty: unsigned
}

// Request is the signed POST of form.
func (w Webhook) Request(ctx context.Context, form url.Values) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.Target+WebhookPath, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if w.AuthToken != "" {
		req.Header.Set("X-Twilio-Signature", twilio.Sign(w.AuthToken, w.PublicURL+WebhookPath, form))
	}
	return req, nil
}

// Post delivers form to w once, within timeout, and reads the TwiML reply.
func Post(ctx context.Context, client *http.Client, timeout time.Duration, w Webhook, form url.Values) Delivery {
	d := Delivery{SID: form.Get("MessageSid"), Target: w.Target, Start: time.Now()}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := w.Request(ctx, form)
	if err != nil {
		d.Err = err
		return d
	}
	resp, err := client.Do(req)
	if err != nil {
		d.Latency, d.Err = time.Since(d.Start), err
		return d
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	d.Latency, d.Status = time.Since(d.Start), resp.StatusCode
	switch {
	case err != nil:
		d.Err = err
	case resp.StatusCode != http.StatusOK:
		d.Err = fmt.Errorf("loadtest: status %d: %.200s", resp.StatusCode, raw)
	default:
		d.Replies, d.Media, d.Err = ParseTwiML(raw)
	}
	return d
}

// ParseTwiML reads the bodies and media links of a TwiML reply.
func ParseTwiML(raw []byte) (bodies, media []string, err error) {
	var doc struct {
		XMLName  xml.Name `xml:"Response"`
		Messages []struct {
			Body  string   `xml:"Body"`
			Media []string `xml:"Media"`
		} `xml:"Message"`
	}
	if err := xml.Unmarshal(raw, &doc); err != nil {
		return nil, nil, fmt.Errorf("loadtest: reply is not TwiML: %w: %.200s", err, raw)
	}
	for _, m := range doc.Messages {
		if m.Body != "" {
			bodies = append(bodies, m.Body)
		}
		media = append(media, m.Media...)
	}
	return bodies, media, nil
}
