package handoff

import (
	"regexp"
	"strconv"
	"strings"
)

// OfficeReply is a message that names a handoff: "H-17 haan, 5% discount
// de do" answers it, "H-17 done" closes it, "H-17" alone asks to see it.
type OfficeReply struct {
	ID    int64
	Text  string // what to relay, as written; "" to close or to see it
	Close bool
}

// replyShape is a handle at the start of a message: "H-17", "H17", "h 17",
// "H-17:", "(H-17)", then the text after a separator.
var replyShape = regexp.MustCompile(`^[\s(\[*_]*[hH][\s]*[-–—:#.]?[\s]*([0-9]{1,9})[)\]*_]*(?:$|[\s:,.;\-–—]+)`)

// closeWords close a handoff when they are all the reply says.
var closeWords = map[string]bool{
	"done": true, "close": true, "closed": true, "resolved": true, "solved": true, "ho gaya": true,
	"hogaya": true, "ho gya": true, "khatam": true, "band": true, "band karo": true, "close karo": true,
	"done hai": true, "close it": true, "theek ho gaya": true,
}

// ParseReply reads a message that starts with a handle, tolerant of case,
// spaces, a colon or a dash: "H-17 done", "h17: haan", "H - 17 close".
func ParseReply(text string) (OfficeReply, bool) {
	m := replyShape.FindStringSubmatchIndex(text)
	if m == nil {
		return OfficeReply{}, false
	}
	id, err := strconv.ParseInt(text[m[2]:m[3]], 10, 64)
	if err != nil || id <= 0 {
		return OfficeReply{}, false
	}
	rest := strings.TrimSpace(text[m[1]:])
	r := OfficeReply{ID: id, Text: rest}
	if closeWords[closeKey(rest)] {
		r.Text, r.Close = "", true
	}
	return r, true
}

// closeKey is a reply as the close words are listed: lower case, single
// spaces, without the punctuation around it.
func closeKey(s string) string {
	s = strings.ToLower(strings.Trim(s, " \t\n.!,;:-–—✅👍🙏*_"))
	return strings.Join(strings.Fields(s), " ")
}
