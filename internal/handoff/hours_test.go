package handoff

import (
	"testing"
	"time"
)

var kolkata = func() *time.Location {
	loc, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		panic(err)
	}
	return loc
}()

func at(day, hour, minute int) time.Time { return time.Date(2026, 3, day, hour, minute, 0, 0, kolkata) }

func TestDue(t *testing.T) {
	office := Hours{Open: 9*time.Hour + 30*time.Minute, Close: 19 * time.Hour, Zone: kolkata}
	sixDays := office
	sixDays.Closed[time.Sunday] = true
	for _, tc := range []struct {
		name    string
		hours   Hours
		opened  time.Time
		timeout time.Duration
		want    time.Time
	}{
		{"inside the hours", office, at(16, 11, 0), 2 * time.Hour, at(16, 13, 0)},
		{"up to closing", office, at(16, 17, 0), 2 * time.Hour, at(16, 19, 0)},
		{"carried into the next morning", office, at(16, 18, 30), 2 * time.Hour, at(17, 11, 0)},
		{"at night", office, at(16, 22, 0), 2 * time.Hour, at(17, 11, 30)},
		{"before opening", office, at(16, 6, 0), 2 * time.Hour, at(16, 11, 30)},
		{"after midnight", office, at(17, 0, 30), time.Hour, at(17, 10, 30)},
		{"longer than a day of office", office, at(16, 9, 30), 12 * time.Hour, at(17, 12, 0)},
		{"always open", Hours{Zone: kolkata}, at(16, 22, 0), 2 * time.Hour, at(17, 0, 0)},
		// 21 March 2026 is a Saturday: an office closed on Sundays carries
		// Saturday evening's handoff to Monday.
		{"over a closed Sunday", sixDays, at(21, 18, 30), 2 * time.Hour, at(23, 11, 0)},
		{"opened on the closed day", sixDays, at(22, 12, 0), 2 * time.Hour, at(23, 11, 30)},
	} {
		if got := tc.hours.Due(tc.opened, tc.timeout); !got.Equal(tc.want) {
			t.Errorf("%s: Due(%v, %v) = %v; want %v", tc.name, tc.opened, tc.timeout, got, tc.want)
		}
	}
	if !office.IsOpen(at(16, 9, 30)) || office.IsOpen(at(16, 19, 0)) || office.IsOpen(at(16, 9, 29)) {
		t.Error("the office is open from its opening up to, not including, its closing")
	}
	if got := office.NextOpening(at(16, 19, 0)); !got.Equal(at(17, 9, 30)) {
		t.Errorf("next opening after closing = %v", got)
	}
	if sixDays.IsOpen(at(22, 11, 0)) || !sixDays.IsOpen(at(23, 11, 0)) {
		t.Error("an office closed on Sundays is open on a Sunday, or closed on Monday")
	}
}

func TestWhen(t *testing.T) {
	now := at(16, 18, 30)
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{at(16, 19, 0), "19:00"},
		{at(17, 11, 0), "11:00 tomorrow"},
		{at(19, 11, 0), "Thu 19 Mar, 11:00"},
	} {
		if got := when(tc.t, now, kolkata); got != tc.want {
			t.Errorf("when(%v) = %q; want %q", tc.t, got, tc.want)
		}
	}
}
