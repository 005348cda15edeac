package reports

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// continuation is where MORE picks up.
type continuation struct {
	tool    string
	args    map[string]any
	expires time.Time
}

// Reply runs a call for a person and makes the WhatsApp reply, keeping the
// place for MORE when rows remain.
func (t *Tools) Reply(ctx context.Context, user domain.User, call Call) domain.Reply {
	reply, _ := t.ReplyKeys(ctx, user, call)
	return reply
}

// ErrorText is what a person reads when a call did not answer.
func ErrorText(res Result, err error) string {
	switch {
	case res.Refused:
		return res.Text
	case errors.Is(err, context.DeadlineExceeded):
		return "Sorry, the books took too long to answer. Please try again in a minute."
	case domain.ErrorCode(err) == domain.EINTERNAL:
		return "Sorry, I couldn't read the books just now. Please try again in a minute."
	}
	return domain.ErrorMessage(err)
}

func (t *Tools) remember(user domain.User, next map[string]any, tool string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if next == nil {
		delete(t.pages, user.Phone)
		return
	}
	if t.pages == nil {
		t.pages = map[string]continuation{}
	}
	ttl := t.MoreTTL
	if ttl <= 0 {
		ttl = DefaultMoreTTL
	}
	now := t.clock().now
	for phone, c := range t.pages { // forget what expired, so the map stays small
		if now.After(c.expires) {
			delete(t.pages, phone)
		}
	}
	t.pages[user.Phone] = continuation{tool: tool, args: next, expires: now.Add(ttl)}
}

// More continues the person's last answer that had more rows. It reports
// false when there is nothing to continue (or it expired).
func (t *Tools) More(ctx context.Context, user domain.User) (domain.Reply, bool) {
	t.mu.Lock()
	c, ok := t.pages[user.Phone]
	if ok {
		delete(t.pages, user.Phone)
	}
	t.mu.Unlock()
	if !ok || t.clock().now.After(c.expires) {
		return domain.Reply{}, false
	}
	return t.Reply(ctx, user, Call{Tool: c.tool, Args: c.args}), true
}

// IsMore reports whether a message asks for the rest of the last answer:
// "MORE", "more please", "aur", "aur dikhao", "next", "aage".
func IsMore(text string) bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return r == ' ' || r == '.' || r == '!' || r == ',' || r == '?' || r == '*'
	})
	if len(words) == 0 || len(words) > 3 {
		return false
	}
	saw := false
	for _, w := range words {
		switch w {
		case "more", "mor", "aur", "next", "aage", "baaki", "baki", "rest", "और", "आगे":
			saw = true
		case "please", "pls", "plz", "dikhao", "batao", "show", "the", "send", "bhejo", "ji", "sir":
		default:
			return false
		}
	}
	return saw
}
