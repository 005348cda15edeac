package memory

import "time"

// Waiting returns how many messages of phone wait for the lock Resilient
// falls back to while the primary is down.
func (r *Resilient) Waiting(phone string) int { return r.local.waiting(phone) }

// Unbounded is what Apply would store for turns appended to an empty
// conversation without the MaxBytes fit: each turn cleaned and the turns
// beyond the Window folded, nothing cut to make the whole fit. It is the
// natural size the size benchmark sets beside the stored one.
func Unbounded(now time.Time, turns ...Turn) []byte {
	var c Conversation
	for _, t := range turns {
		c.Turns = append(c.Turns, clean(t, now))
	}
	for len(c.Turns) > Window {
		fold(&c.Summary, c.Turns[0])
		c.Turns = c.Turns[1:]
	}
	return encode(&c)
}
