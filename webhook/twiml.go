package webhook

import (
	"bytes"
	"encoding/xml"
	"strings"
	"unicode/utf8"

	"github.com/munshi/munshi/internal/domain"
)

// MaxMessageChars is the most characters Twilio takes in one WhatsApp
// message body.
const MaxMessageChars = 1600

// TwiML renders a reply as a TwiML document: one <Message> per chunk of at
// most MaxMessageChars, split at line boundaries; media go with the last.
// An empty reply is an empty <Response/>, which Twilio takes as "say nothing".
// It writes what xml.Marshal writes for <Response><Message><Body>…
// <Media>…, escaped by xml.EscapeText, without the encoder Marshal makes
// for every reply.
func TwiML(r domain.Reply) []byte {
	chunks := SplitMessage(r.Text, MaxMessageChars)
	if len(chunks) == 0 && len(r.MediaURLs) == 0 {
		return []byte(xml.Header + "<Response></Response>")
	}
	var b bytes.Buffer
	b.Grow(len(xml.Header) + len(r.Text) + 64)
	b.WriteString(xml.Header + "<Response>")
	if len(chunks) == 0 {
		chunks = []string{""}
	}
	for i, chunk := range chunks {
		b.WriteString("<Message><Body>")
		xml.EscapeText(&b, []byte(chunk)) // a bytes.Buffer never fails
		b.WriteString("</Body>")
		if i == len(chunks)-1 {
			for _, u := range r.MediaURLs {
				if u == "" {
					continue // no link, no <Media>
				}
				b.WriteString("<Media>")
				xml.EscapeText(&b, []byte(u))
				b.WriteString("</Media>")
			}
		}
		b.WriteString("</Message>")
	}
	b.WriteString("</Response>")
	return b.Bytes()
}

// SplitMessage cuts text into chunks of at most max characters, at line
// boundaries where it can, else at a space, else anywhere.
func SplitMessage(text string, max int) []string {
	text = strings.TrimSpace(strings.ToValidUTF8(text, "\uFFFD"))
	if text == "" {
		return nil
	}
	var chunks []string
	var cur strings.Builder
	curLen := 0
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			chunks = append(chunks, s)
		}
		cur.Reset()
		curLen = 0
	}
	for _, line := range strings.Split(text, "\n") {
		n := utf8.RuneCountInString(line)
		if curLen > 0 && curLen+1+n > max {
			flush()
		}
		for n > max { // a single line too long for one message
			head, tail := cutLine(line, max)
			cur.WriteString(head)
			flush()
			line, n = tail, utf8.RuneCountInString(tail)
		}
		if curLen > 0 {
			cur.WriteByte('\n')
			curLen++
		}
		cur.WriteString(line)
		curLen += n
	}
	flush()
	return chunks
}

// cutLine cuts line after at most max runes, at the last space if there is
// one in the second half.
func cutLine(line string, max int) (string, string) {
	i, count := 0, 0
	for i < len(line) && count < max {
		_, size := utf8.DecodeRuneInString(line[i:])
		i += size
		count++
	}
	if sp := strings.LastIndexByte(line[:i], ' '); sp > i/2 {
		return line[:sp], strings.TrimLeft(line[sp:], " ")
	}
	return line[:i], line[i:]
}
