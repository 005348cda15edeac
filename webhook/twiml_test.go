package webhook_test

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/webhook"
)

// marshalTwiML is TwiML as encoding/xml marshals the document: what
// webhook.TwiML must write, byte for byte.
func marshalTwiML(r domain.Reply) []byte {
	type message struct {
		Body  string   `xml:"Body"`
		Media []string `xml:"Media,omitempty"`
	}
	var resp struct {
		XMLName  xml.Name  `xml:"Response"`
		Messages []message `xml:"Message"`
	}
	for _, chunk := range webhook.SplitMessage(r.Text, webhook.MaxMessageChars) {
		resp.Messages = append(resp.Messages, message{Body: chunk})
	}
	if len(r.MediaURLs) > 0 {
		if len(resp.Messages) == 0 {
			resp.Messages = append(resp.Messages, message{})
		}
		resp.Messages[len(resp.Messages)-1].Media = r.MediaURLs
	}
	out, _ := xml.Marshal(resp)
	return append([]byte(xml.Header), out...)
}

func TestTwiMLIsWhatXMLMarshals(t *testing.T) {
	long := strings.Repeat("*Glass Cleaner 500ml* (GC500): ready 1,200 — ₹26,054.40\n", 80)
	for _, r := range []domain.Reply{
		{},
		{Text: "  \n "},
		{Text: "Got it"},
		{Text: "a < b & c > d \"quoted\" 'single'\ttab\r\nline"},
		{Text: "राजेश का बकाया ₹12,000 🙏\u2028\u0000\u0007 \xff\xfe"},
		{Text: long},
		{Text: long + strings.Repeat("x", 3000)},
		{MediaURLs: []string{"https://x/m/1?a=1&b=2"}},
		{Text: "chart", MediaURLs: []string{"https://x/m/1.png", "https://x/m/<2>.xlsx"}},
		{Text: long, MediaURLs: []string{"https://x/m/1.png"}},
	} {
		if got, want := webhook.TwiML(r), marshalTwiML(r); !bytes.Equal(got, want) {
			t.Errorf("TwiML(%.40q):\n got %.300s\nwant %.300s", r.Text, got, want)
		}
	}
}

func FuzzTwiML(f *testing.F) {
	f.Add("Got it", "")
	f.Add("a < b & c\n\"q\" 'x'\t\r", "https://x/m/1?a=1&b=2")
	f.Add("राजेश 🙏 \xff\u2028\u0000", "")
	f.Add(strings.Repeat("line of text\n", 200), "https://x/<m>")
	f.Fuzz(func(t *testing.T, text, media string) {
		r := domain.Reply{Text: text}
		if media != "" {
			r.MediaURLs = strings.Split(media, " ")
		}
		got := webhook.TwiML(r)
		if want := marshalTwiML(r); !bytes.Equal(got, want) {
			t.Fatalf("TwiML(%q, %q):\n got %s\nwant %s", text, media, got, want)
		}
		if err := xml.Unmarshal(got, new(struct{})); err != nil {
			t.Fatalf("not XML: %v\n%s", err, got)
		}
	})
}
