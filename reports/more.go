package reports

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Place is where MORE continues an answer that had more rows than one
// message holds: the tool, its arguments as understood (names resolved to
// ids), the first row not yet shown, and when the offer ends.
type Place struct {
	Tool    string
	Args    map[string]any
	Offset  int
	Expires time.Time
}

// place is where MORE continues after a result: an empty Place when it
// showed every row.
func (t *Tools) place(res Result) *Place {
	if res.Next == nil {
		return &Place{}
	}
	ttl := t.MoreTTL
	if ttl <= 0 {
		ttl = DefaultMoreTTL
	}
	p := &Place{Tool: res.Tool, Args: cloneArgs(res.Next), Expires: t.clock().now.Add(ttl)}
	if n, err := intArg(p.Args, "offset"); err == nil {
		p.Offset = int(n)
	}
	delete(p.Args, "offset")
	return p
}

// Continue answers MORE from a place an earlier answer left: the next page
// of that answer, for the same person's role as it is now. It reports
// false when the place is empty or has expired.
func (t *Tools) Continue(ctx context.Context, user domain.User, p Place) (domain.Reply, Keys, bool) {
	if p.Tool == "" || t.clock().now.After(p.Expires) {
		return domain.Reply{}, Keys{}, false
	}
	args := cloneArgs(p.Args)
	args["offset"] = p.Offset
	reply, keys := t.ReplyKeys(ctx, user, Call{Tool: p.Tool, Args: args})
	return reply, keys, true
}

// Reply runs a call for a person and makes the WhatsApp reply, keeping the
// place for MORE when rows remain.
func (t *Tools) Reply(ctx context.Context, user domain.User, call Call) domain.Reply {
	reply, keys := t.ReplyKeys(ctx, user, call)
	t.keep(user, keys.More)
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

// keep notes a person's place in this process, for Reply and More: the
// callers that keep no conversation memory of their own. nil leaves the
// place as it was; an empty Place forgets it.
func (t *Tools) keep(user domain.User, p *Place) {
	if p == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if p.Tool == "" {
		delete(t.pages, user.Phone)
		return
	}
	if t.pages == nil {
		t.pages = map[string]Place{}
	}
	now := t.clock().now
	for phone, c := range t.pages { // forget what expired, so the map stays small
		if now.After(c.Expires) {
			delete(t.pages, phone)
		}
	}
	t.pages[user.Phone] = *p
}

// More continues the person's last answer that had more rows, from the
// place Reply kept in this process. It reports false when there is nothing
// to continue (or it expired). A conversation that keeps its own memory
// uses the Place in ReplyKeys' Keys and Continue instead, so that any
// instance can continue.
func (t *Tools) More(ctx context.Context, user domain.User) (domain.Reply, bool) {
	t.mu.Lock()
	p, ok := t.pages[user.Phone]
	if ok {
		delete(t.pages, user.Phone)
	}
	t.mu.Unlock()
	if !ok {
		return domain.Reply{}, false
	}
	reply, keys, ok := t.Continue(ctx, user, p)
	t.keep(user, keys.More)
	return reply, ok
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
