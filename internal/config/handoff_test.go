package config_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/munshi/munshi/internal/config"
)

func TestHandoffConfig(t *testing.T) {
	c := config.FromEnv(full.get)
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.HandoffTo != nil || c.HandoffTimeout != 2*time.Hour || c.OfficeOpen != 0 || c.OfficeClose != 0 {
		t.Errorf("defaults: to %v, timeout %v, hours %v-%v; want the owners, 2h, always open", c.HandoffTo, c.HandoffTimeout, c.OfficeOpen, c.OfficeClose)
	}
	c = config.FromEnv(full.with(env{"MUNSHI_HANDOFF_TO": "+919900000001, +919900000009", "MUNSHI_HANDOFF_TIMEOUT": "90m",
		"MUNSHI_OFFICE_HOURS": "09:30-19:00"}).get)
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.HandoffTo, []string{"+919900000001", "+919900000009"}) || c.HandoffTimeout != 90*time.Minute ||
		c.OfficeOpen != 9*time.Hour+30*time.Minute || c.OfficeClose != 19*time.Hour {
		t.Errorf("read %v %v %v-%v", c.HandoffTo, c.HandoffTimeout, c.OfficeOpen, c.OfficeClose)
	}
	if c.OfficeClosed != [7]bool{} {
		t.Errorf("hours without days close on %v", c.OfficeClosed)
	}
	for _, tc := range []struct {
		hours  string
		closed []time.Weekday
	}{
		{"Mon-Sat 09:30-19:00", []time.Weekday{time.Sunday}},
		{"mon-fri,sat 10:00-18:00", []time.Weekday{time.Sunday}},
		{"Monday,Wednesday,Friday 10:00-18:00", []time.Weekday{time.Sunday, time.Tuesday, time.Thursday, time.Saturday}},
		{"Sat-Wed 10:00-18:00", []time.Weekday{time.Thursday, time.Friday}},
	} {
		c := config.FromEnv(full.with(env{"MUNSHI_OFFICE_HOURS": tc.hours}).get)
		if err := c.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.hours, err)
		}
		var want [7]bool
		for _, d := range tc.closed {
			want[d] = true
		}
		if c.OfficeClosed != want || c.OfficeOpen == 0 {
			t.Errorf("%s: closed on %v, want %v", tc.hours, c.OfficeClosed, want)
		}
	}
}

func TestHandoffConfigRefused(t *testing.T) {
	for _, tc := range []struct {
		env  env
		want string
	}{
		{env{"MUNSHI_HANDOFF_TO": "9900000001"}, `MUNSHI_HANDOFF_TO "9900000001" is not a phone in E.164 form`},
		{env{"MUNSHI_HANDOFF_TO": "+91 99000 00001"}, "is not a phone in E.164 form"},
		{env{"MUNSHI_HANDOFF_TIMEOUT": "two hours"}, `MUNSHI_HANDOFF_TIMEOUT "two hours" must be a duration`},
		{env{"MUNSHI_HANDOFF_TIMEOUT": "1m"}, "from 5m0s to 168h0m0s"},
		{env{"MUNSHI_OFFICE_HOURS": "9:30 to 19:00"}, `MUNSHI_OFFICE_HOURS "9:30 to 19:00" must be`},
		{env{"MUNSHI_OFFICE_HOURS": "19:00-09:30"}, "on one day"},
		{env{"MUNSHI_OFFICE_HOURS": "09:30-25:00"}, "HH:MM-HH:MM"},
		{env{"MUNSHI_OFFICE_HOURS": "Mon-Someday 09:30-19:00"}, "Mon-Sat 09:30-19:00"},
		{env{"MUNSHI_OFFICE_HOURS": "Mon-Sat"}, "HH:MM-HH:MM"},
	} {
		err := config.FromEnv(full.with(tc.env).get).Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v; want an error saying %q", tc.env, err, tc.want)
		}
	}
}
