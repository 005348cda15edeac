package handoff

import "time"

// Hours are the office's hours in its time zone (MUNSHI_OFFICE_HOURS
// "09:30-19:00", or "Mon-Sat 09:30-19:00", in MUNSHI_TZ, read by the
// config): the same hours on each day it opens. Open and Close both zero
// is an office that is always open.
type Hours struct {
	Open, Close time.Duration // since midnight; Open < Close
	Zone        *time.Location
	// Closed are the weekdays the office does not open (Sunday, say);
	// the zero value opens every day. At least one day must be open.
	Closed [7]bool
}

// Always reports an office that never closes.
func (h Hours) Always() bool { return h.Open == 0 && h.Close == 0 }

// opens reports whether the office opens on t's day at all.
func (h Hours) opens(t time.Time) bool { return !h.Closed[t.In(h.zone()).Weekday()] }

func (h Hours) zone() *time.Location {
	if h.Zone == nil {
		return time.UTC
	}
	return h.Zone
}

// day is the office day around t: when it opens and closes on t's date.
func (h Hours) day(t time.Time) (open, closing time.Time) {
	t = t.In(h.zone())
	midnight := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
	return midnight.Add(h.Open), midnight.Add(h.Close)
}

// IsOpen reports whether the office is open at t.
func (h Hours) IsOpen(t time.Time) bool {
	if h.Always() {
		return true
	}
	open, closing := h.day(t)
	return h.opens(t) && !t.Before(open) && t.Before(closing)
}

// NextOpening is t while the office is open, else when it next opens:
// later today, or on the next day it opens.
func (h Hours) NextOpening(t time.Time) time.Time {
	if h.IsOpen(t) {
		return t
	}
	if open, _ := h.day(t); h.opens(t) && t.Before(open) {
		return open
	}
	day := t.In(h.zone())
	for range 7 {
		day = day.AddDate(0, 0, 1)
		if h.opens(day) {
			open, _ := h.day(day)
			return open
		}
	}
	return t // no day opens: the config refuses such hours
}

// Due is when a handoff opened at t is owed an answer: timeout of office
// time after it. Time outside the hours does not count: a handoff opened
// at night is due timeout after the next opening, and one opened an hour
// before closing carries what is left of timeout into the next morning.
// With the office always open it is t + timeout.
func (h Hours) Due(t time.Time, timeout time.Duration) time.Time {
	if h.Always() {
		return t.Add(timeout)
	}
	left := timeout
	for {
		t = h.NextOpening(t)
		_, closing := h.day(t)
		if span := closing.Sub(t); left <= span {
			return t.Add(left)
		} else {
			left -= span
			t = closing
		}
	}
}
