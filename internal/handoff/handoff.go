package handoff

import (
	"context"
	"fmt"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Trigger is why a conversation was handed over.
type Trigger string

const (
	Asked         Trigger = "asked"          // the person asked for someone
	NotUnderstood Trigger = "not_understood" // two messages in a row Munshi could not read
	GaveUp        Trigger = "gave_up"        // a bounded step gave up
	Dispute       Trigger = "dispute"        // the person disputes what Munshi said
)

// Triggers lists every trigger, for metrics and validation.
var Triggers = []Trigger{Asked, NotUnderstood, GaveUp, Dispute}

// Status is whether a handoff waits for the office.
type Status string

const (
	Open   Status = "open"
	Closed Status = "closed"
)

// Side is who wrote a message of a handoff.
type Side string

const (
	FromPerson Side = "person" // the person handed over
	FromOffice Side = "office" // someone of the office
	FromMunshi Side = "munshi" // Munshi, in the conversation before
)

// Person is who was handed over.
type Person struct {
	Phone string
	Name  string
	Role  domain.Role
}

// Message is one message of a handoff: the conversation before it opened,
// then what was relayed each way.
type Message struct {
	At   time.Time
	Side Side
	From string // the phone that wrote it; "" for Munshi
	Text string
}

// Handoff is one conversation handed over to the office.
type Handoff struct {
	ID      int64
	Person  Person
	Trigger Trigger
	Status  Status
	// Office are the phones it was sent to: only they may answer it.
	Office            []string
	OpenedAt          time.Time
	LastOfficeReplyAt time.Time // zero until the office answers
	RemindedAt        time.Time // zero until reminded
	ClosedAt          time.Time
	ClosedBy          string
	Messages          []Message
}

// Handle is how people name a handoff: "H-17".
func (h Handoff) Handle() string { return Handle(h.ID) }

// Handle is the handle of handoff id.
func Handle(id int64) string { return fmt.Sprintf("H-%d", id) }

// Answers reports whether phone is one of the handoff's office.
func (h Handoff) Answers(phone string) bool {
	for _, p := range h.Office {
		if p == phone {
			return true
		}
	}
	return false
}

// Store keeps the handoffs. Each write enqueues its effects in the same
// transaction, so that what the office and the person are told goes out
// exactly when the handoff changes.
type Store interface {
	// OpenHandoff writes h as its person's open handoff, with the effects
	// made from it once it has its ID, and returns it (true). When the
	// person has one open already nothing is written and that one is
	// returned (false): the database allows one open handoff a person.
	OpenHandoff(ctx context.Context, h Handoff, effects func(Handoff) []domain.Effect) (Handoff, bool, error)
	// OpenHandoffOf is the person's open handoff, if any.
	OpenHandoffOf(ctx context.Context, phone string) (Handoff, bool, error)
	// Handoff reads a handoff by its ID, messages included.
	Handoff(ctx context.Context, id int64) (Handoff, bool, error)
	// AddHandoffMessage adds m to the open handoff id, marking an office
	// reply as its last (m.Side FromOffice), and enqueues effects; false,
	// with nothing written, when the handoff is not open.
	AddHandoffMessage(ctx context.Context, id int64, m Message, effects ...domain.Effect) (bool, error)
	// CloseHandoff closes the open handoff id as closed by phone at at,
	// and enqueues effects; false, with nothing written, when it was not
	// open.
	CloseHandoff(ctx context.Context, id int64, by string, at time.Time, effects ...domain.Effect) (bool, error)
	// UnansweredHandoffs lists the open handoffs the office never
	// answered and that were not reminded yet, oldest first.
	UnansweredHandoffs(ctx context.Context) ([]Handoff, error)
	// MarkHandoffReminded records the one reminder of handoff id and
	// enqueues effects; false, with nothing written, when it was reminded
	// already, answered or closed (another instance got there first).
	MarkHandoffReminded(ctx context.Context, id int64, at time.Time, effects ...domain.Effect) (bool, error)
}
