package memory

import (
	"context"
	"fmt"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Bounds of one conversation. Both stores enforce them through Apply, so
// they hold whatever a caller appends.
const (
	// Window is how many turns are kept in full; older ones are folded into
	// the Summary.
	Window = 10
	// TTL is how long a conversation lives after its last message.
	TTL = 24 * time.Hour
	// SeenTTL is how long Seen remembers an answered MessageSid. Twilio
	// retries within minutes; the database's inbox stays the record after
	// that.
	SeenTTL = 48 * time.Hour
	// SeenLease is the claim's lifetime when Seen is given none: longer
	// than the webhook budget and the late-answer grace together.
	SeenLease = 90 * time.Second
	// MaxBytes bounds the stored form of one conversation.
	MaxBytes = 4096
	// MaxTextRunes bounds the text of one turn.
	MaxTextRunes = 500
	// MaxList bounds every list: a turn's customers, products and rows, and
	// each list of the Summary.
	MaxList = 8
	// MaxRowRunes bounds one key row of a result and one Asked entry.
	MaxRowRunes = 80
	// MaxIDRunes bounds an ID, a SKU, a tool name or a draft ID.
	MaxIDRunes = 40
	// MaxMoreBytes bounds the stored form of a continuation; a larger one
	// is not kept (MORE then has nothing to continue).
	MaxMoreBytes = 512
)

// Who said a turn.
const (
	RolePerson = "person"
	RoleMunshi = "munshi"
)

// Turn is one message, from the person or from Munshi, with what it was
// about.
type Turn struct {
	Role      string // RolePerson or RoleMunshi
	Text      string
	At        time.Time // zero means now
	Intent    domain.Intent
	Customers []string // customer IDs named or answered about, the main one first
	Products  []string // SKUs
	Tool      string   // the tool or table that answered: "stock", "outstanding", "sales_by_customer"…
	DraftID   string   // the order draft this turn made or showed
	Rows      []string // the key rows of a result, short: "C03 Sharma Traders ₹25,000"
	// More, on Munshi's turn, is where "reply MORE" continues after it:
	// nil leaves the conversation's continuation as it was, an empty one
	// (no Tool) ends it, any other replaces it. It is kept with the
	// conversation, not with the turn.
	More *Continuation
	// Frame, on Munshi's turn, is the question it now waits on: nil
	// leaves the conversation's frame as it was, an empty one (no Data)
	// clears it, any other replaces it. Kept with the conversation.
	Frame *Frame
}

// Continuation is where "reply MORE" picks up an answer that had more rows
// than one message holds: the tool, its arguments as understood, the
// first row not yet shown, and when the offer ends. Args hold strings,
// lists of strings and whole numbers (int64); other values are not kept.
type Continuation struct {
	Tool    string
	Args    map[string]any
	Offset  int
	Expires time.Time
}

// Summary is what the turns older than the Window leave behind. Every list
// is most recent first, without duplicates, at most MaxList long.
type Summary struct {
	Asked     []string // the person's questions, short: "stock: show me stock for glass cleaner"
	Tools     []string
	Customers []string
	Products  []string
	LastDraft string
	LastRows  []string
	Folded    int // how many turns were folded in
}

// Empty reports whether the summary holds nothing.
func (s Summary) Empty() bool {
	return s.Folded == 0 && len(s.Asked) == 0 && len(s.Tools) == 0 && len(s.Customers) == 0 &&
		len(s.Products) == 0 && s.LastDraft == "" && len(s.LastRows) == 0
}

// Conversation is what Munshi remembers of one person: the recent turns,
// oldest first, and the summary of the ones before.
type Conversation struct {
	Phone   string
	Turns   []Turn
	Summary Summary
	// More is where "reply MORE" continues the last answer that had more
	// rows; nil when there is none.
	More *Continuation
	// Frame is the question Munshi asked last and still waits on; nil
	// when there is none.
	Frame *Frame
	// Unavailable is set when memory could not be read (its store is
	// down): Turns and Summary are empty because Munshi does not know, not
	// because nothing was said.
	Unavailable bool
}

// Empty reports whether nothing is remembered.
func (c Conversation) Empty() bool { return len(c.Turns) == 0 && c.Summary.Empty() }

// Store keeps conversations by phone (E.164), and orders and dedupes the
// messages that feed them.
type Store interface {
	// Load returns the conversation with phone; an unknown or expired one is
	// empty, not an error.
	Load(ctx context.Context, phone string) (Conversation, error)
	// Append adds turns atomically, folds those beyond the Window into the
	// Summary, scrubs secrets, enforces the bounds and restarts the TTL.
	// A bad phone or role is EINVALID.
	Append(ctx context.Context, phone string, turns ...Turn) error
	// Forget deletes everything remembered of phone.
	Forget(ctx context.Context, phone string) error
	// Lock admits one message of phone at a time, in the order Lock was
	// called; it waits at most until ctx ends, and then returns ctx's error.
	// unlock may be called more than once.
	Lock(ctx context.Context, phone string) (unlock func(), err error)
	// Seen claims sid for the instance that answers it, bound to the
	// sender's phone: SeenNew when the caller now holds the claim (sid is
	// new, or the last claim's lease ran out: its holder died), SeenInFlight
	// when another caller holds a live claim, SeenAnswered once Answered was
	// called, SeenOtherSender when sid is recorded for another phone. A
	// claim lives lease (SeenLease when lease <= 0); a bad sid or phone is
	// EINVALID.
	Seen(ctx context.Context, sid, phone string, lease time.Duration) (SeenState, error)
	// Answered marks sid answered, remembering it for SeenTTL; a sid
	// recorded for another phone is left as it is.
	Answered(ctx context.Context, sid, phone string) error
	// Ping checks that the store answers.
	Ping(ctx context.Context) error
}

// CheckPhone rejects what cannot be a phone key: Munshi keys memory by
// E.164 numbers, and a stray character must not reach a Redis key.
func CheckPhone(phone string) error {
	if phone == "" || len(phone) > 32 {
		return domain.Errorf(domain.EINVALID, "memory: a phone number is needed")
	}
	for i := 0; i < len(phone); i++ {
		if c := phone[i]; c <= ' ' || c >= 0x7f || c == '{' || c == '}' {
			return domain.Errorf(domain.EINVALID, "memory: %q is not a phone number", phone)
		}
	}
	return nil
}

// SeenState is what the shared dedupe knows of a MessageSid.
type SeenState int

const (
	SeenNew         SeenState = iota // the caller holds the claim now and answers
	SeenInFlight                     // another caller holds a live claim
	SeenAnswered                     // answered already
	SeenOtherSender                  // recorded for another phone: refuse it
)

func (s SeenState) String() string {
	switch s {
	case SeenNew:
		return "new"
	case SeenInFlight:
		return "in flight"
	case SeenAnswered:
		return "answered"
	case SeenOtherSender:
		return "other sender"
	}
	return fmt.Sprintf("SeenState(%d)", int(s))
}

// CheckSID rejects an empty or oversized message id.
func CheckSID(sid string) error {
	if sid == "" || len(sid) > 64 {
		return domain.Errorf(domain.EINVALID, "memory: a message id is needed")
	}
	return nil
}

// CheckSeen rejects a MessageSid and phone Seen cannot key.
func CheckSeen(sid, phone string) error {
	if err := CheckSID(sid); err != nil {
		return err
	}
	return CheckPhone(phone)
}
