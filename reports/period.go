package reports

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// Period is a stretch of business days: [From, To) in the business's time
// zone. Name is the canonical spelling tools accept ("last_week",
// "last_30_days").
type Period struct {
	Name     string
	From, To time.Time
}

// Canonical period names; last_N_days takes any N from 1 to 366.
const (
	PeriodToday     = "today"
	PeriodYesterday = "yesterday"
	PeriodThisWeek  = "this_week"
	PeriodLastWeek  = "last_week"
	PeriodThisMonth = "this_month"
	PeriodLastMonth = "last_month"
	PeriodThisYear  = "this_year"
	PeriodLast30    = "last_30_days"
	// PeriodDates is a period of dates given as they are (from, to), not
	// by name.
	PeriodDates = "dates"
)

// MaxPeriodDays is the longest period a tool reads, as last_N_days takes.
const MaxPeriodDays = 366

// MonthToDateFrom is the day of the month from which a sales question that
// names no period covers the month so far. Before it the month holds too
// few days to show (on the 1st, none of the books' closed days), so the
// question covers the last 30 days instead.
const MonthToDateFrom = 8

// DefaultPeriod names the period of a sales question that names none, at
// now in loc: this_month from the MonthToDateFrom'th on, else last_30_days.
// A period asked for by name keeps its meaning whatever the day.
func DefaultPeriod(now time.Time, loc *time.Location) string {
	if now.In(loc).Day() >= MonthToDateFrom {
		return PeriodThisMonth
	}
	return PeriodLast30
}

// Label names the period for a person: "last week (2–8 Mar)". A period
// that runs to the end of today says so and how many days it holds, so that
// a month of one day is not read as a month: "this month so far (1 Dec,
// 1 day)".
func (p Period) Label() string {
	last := p.To.Add(-time.Nanosecond)
	var dates string
	switch {
	case sameDay(p.From, last):
		dates = p.From.Format("2 Jan")
	case p.From.Month() == last.Month() && p.From.Year() == last.Year():
		dates = fmt.Sprintf("%d–%s", p.From.Day(), last.Format("2 Jan"))
	default:
		dates = p.From.Format("2 Jan") + "–" + last.Format("2 Jan")
	}
	if p.Name == PeriodDates {
		return dates
	}
	name := strings.ReplaceAll(p.Name, "_", " ")
	if p.soFar() {
		days := p.Days()
		return fmt.Sprintf("%s so far (%s, %d %s)", name, dates, days, domain.Plural("day", int64(days)))
	}
	return fmt.Sprintf("%s (%s)", name, dates)
}

// soFar reports whether the period is a calendar week, month or year that
// is not over: it runs to the end of today.
func (p Period) soFar() bool { return strings.HasPrefix(p.Name, "this_") }

// Days is how many calendar days the period holds.
func (p Period) Days() int {
	n := 0
	for d := p.From; d.Before(p.To); d = d.AddDate(0, 0, 1) {
		n++
	}
	return n
}

func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

// MakePeriod resolves a canonical period name at now in loc. Weeks start
// on Monday; "this" periods run to the end of today.
func MakePeriod(name string, now time.Time, loc *time.Location) (Period, error) {
	now = now.In(loc)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc)
	tomorrow := today.AddDate(0, 0, 1)
	monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc)
	p := Period{Name: name}
	switch name {
	case PeriodToday:
		p.From, p.To = today, tomorrow
	case PeriodYesterday:
		p.From, p.To = today.AddDate(0, 0, -1), today
	case PeriodThisWeek:
		p.From, p.To = monday, tomorrow
	case PeriodLastWeek:
		p.From, p.To = monday.AddDate(0, 0, -7), monday
	case PeriodThisMonth:
		p.From, p.To = month, tomorrow
	case PeriodLastMonth:
		p.From, p.To = month.AddDate(0, -1, 0), month
	case PeriodThisYear:
		p.From, p.To = time.Date(now.Year(), 1, 1, 0, 0, 0, 0, loc), tomorrow
	default:
		n, ok := lastNDays(name)
		if !ok {
			return p, domain.Errorf(domain.EINVALID, "I don't know the period %q. Try today, yesterday, this week, last week, this month, last month or last 30 days.", name)
		}
		p.From, p.To = today.AddDate(0, 0, 1-n), tomorrow
	}
	return p, nil
}

func lastNDays(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "last_")
	if !ok {
		return 0, false
	}
	digits, ok := strings.CutSuffix(rest, "_days")
	if !ok {
		digits, ok = strings.CutSuffix(rest, "_day")
	}
	n, err := strconv.Atoi(digits)
	if !ok || err != nil || n < 1 || n > 366 {
		return 0, false
	}
	return n, true
}

// PeriodName reads a period from free text or a canonical name: "aaj",
// "kal", "is hafte", "pichle mahine", "last 7 days", "this_week",
// "पिछले हफ्ते". It returns "" when the words name no period.
func PeriodName(text string) string {
	words := periodWords(text)
	return periodIn(words)
}

// periodWords splits text into lower-case words, reading the spellings
// Hindi speakers use for the period words.
func periodWords(text string) []string {
	f := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return r == ' ' || r == '_' || r == '-' || r == ',' || r == '?' || r == '.' || r == '!' || r == '\t' || r == '\n'
	})
	out := make([]string, 0, len(f))
	for _, w := range f {
		if c, ok := periodSpellings[w]; ok {
			w = c
		}
		out = append(out, w)
	}
	return out
}

// periodSpellings maps the words of period phrases to one spelling. The
// intent package's canonical tokens already read most of them; raw text
// (tool arguments, MCP) needs this too.
var periodSpellings = map[string]string{
	"aaj": "today", "aj": "today", "आज": "today",
	"kal": "yesterday", "कल": "yesterday",
	"hafte": "week", "hafta": "week", "hapta": "week", "saptah": "week", "हफ्ते": "week", "हफ्ता": "week", "सप्ताह": "week", "weekly": "week", "wk": "week",
	"mahine": "month", "mahina": "month", "mahene": "month", "महीने": "month", "महीना": "month", "monthly": "month", "mtd": "month",
	"saal": "year", "sal": "year", "साल": "year", "ytd": "year",
	"pichle": "last", "pichla": "last", "pichli": "last", "pichhle": "last", "पिछले": "last", "पिछला": "last", "previous": "last", "prev": "last", "past": "last", "gaye": "last",
	"is": "this", "iss": "this", "इस": "this", "current": "this", "ye": "this", "yeh": "this",
	"din": "days", "dino": "days", "dinon": "days", "दिन": "days", "day": "days",
	"yesterday's": "yesterday", "today's": "today", "week's": "week", "month's": "month", "year's": "year",
	// The same as the router hands them on, the apostrophe dropped.
	"yesterdays": "yesterday", "todays": "today",
}

func periodIn(words []string) string {
	has := func(w string) int {
		for i, x := range words {
			if x == w {
				return i
			}
		}
		return -1
	}
	// "last 7 days", "pichle 10 din", "7 days".
	for i, w := range words {
		n, err := strconv.Atoi(w)
		if err != nil || n < 1 || n > 366 || i+1 >= len(words) {
			continue
		}
		switch words[i+1] {
		case "days":
			return fmt.Sprintf("last_%d_days", n)
		case "week", "weeks":
			return fmt.Sprintf("last_%d_days", min(7*n, 366))
		}
	}
	for _, unit := range []string{"week", "month", "year"} {
		i := has(unit)
		if i < 0 {
			continue
		}
		if i > 0 && words[i-1] == "last" {
			if unit == "year" {
				return "last_365_days"
			}
			return "last_" + unit
		}
		return "this_" + unit
	}
	switch {
	case has("today") >= 0:
		return PeriodToday
	case has("yesterday") >= 0:
		return PeriodYesterday
	}
	return ""
}

// canonicalPeriod accepts a canonical name as it is and free text through
// PeriodName.
func canonicalPeriod(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case PeriodToday, PeriodYesterday, PeriodThisWeek, PeriodLastWeek, PeriodThisMonth, PeriodLastMonth, PeriodThisYear:
		return s
	}
	if _, ok := lastNDays(s); ok {
		return s
	}
	return PeriodName(s)
}
