package digest

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/munshi/munshi/internal/domain"
	"github.com/munshi/munshi/reports"
)

// MaxBriefChars bounds a WhatsApp brief, counted as WhatsApp counts.
const MaxBriefChars = 999

// MaxActions is how many actions the owners' brief names.
const MaxActions = 3

// money writes whole rupees with Indian grouping: ₹2,615.
func money(p domain.Paise) string { return domain.Paise(p.Rupees() * 100).String() }

func dayText(t time.Time) string { return t.Format("Mon 2 Jan") }

func plural(n int, word string) string {
	return domain.GroupIndian(int64(n)) + " " + domain.Plural(word, int64(n))
}

// shortName keeps a name to n runes, with an ellipsis when cut.
func shortName(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) <= n {
		return string(r)
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// Headline is the day against its baseline, in one sentence: the
// template's variable and the brief's first line.
func Headline(f Facts) string {
	weekday := f.Date.Weekday().String()
	b := f.Baseline
	usual := fmt.Sprintf("a usual %s (%s; %s–%s over %d weeks)", weekday, money(b.Mean), money(b.Lowest), money(b.Highest), BaselineWeeks)
	if f.Sales.Orders == 0 {
		if b.Mean == 0 {
			return fmt.Sprintf("%s: no sales, as on every %s of the last %d weeks.", dayText(f.Date), weekday, BaselineWeeks)
		}
		return fmt.Sprintf("%s: no sales, against %s.", dayText(f.Date), usual)
	}
	head := fmt.Sprintf("%s: sales %s before GST from %s (%s)", dayText(f.Date), money(f.Sales.Amount),
		plural(f.Sales.Orders, "order"), plural(f.Sales.Customers, "customer"))
	switch {
	case b.Change == nil:
		return fmt.Sprintf("%s; no sales on the %d %ss before to compare.", head, BaselineWeeks, weekday)
	case *b.Change == 0:
		return fmt.Sprintf("%s, in line with %s.", head, usual)
	case *b.Change > 0:
		return fmt.Sprintf("%s, %d%% above %s.", head, *b.Change, usual)
	}
	return fmt.Sprintf("%s, %d%% below %s.", head, -*b.Change, usual)
}

// change writes a comparison: "₹9,000, +800% on last week".
func change(c Comparison, what string) string {
	if c.Change == nil {
		return fmt.Sprintf("%s (nothing the same days %s)", money(c.Amount), what)
	}
	sign := "+"
	if *c.Change < 0 {
		sign = "−"
	}
	return fmt.Sprintf("%s (%s%d%% on %s)", money(c.Amount), sign, max(*c.Change, -*c.Change), what)
}

// ToDate is the week and the month so far, in one line.
func ToDate(f Facts) string {
	return fmt.Sprintf("Week so far %s; month so far %s.", change(f.Week, "last week"), change(f.Month, "last month"))
}

// Summary is the deterministic opening of the brief: the headline and
// the week and month so far. It reads well without a model.
func Summary(f Facts) string { return Headline(f) + "\n" + ToDate(f) }

// Action is something an owner should do today, with the money at stake.
type Action struct {
	Text  string
	Value domain.Paise
	Event Event
}

// actionKinds are the events that ask something of the owners: call a
// customer who stopped or slowed, chase one past their credit.
var actionKinds = []EventKind{NoOrder, Drop, CreditRisk}

// Actions are the customers to call or chase, one action a customer
// (their most valuable event): first the most valuable action of each
// kind, most valuable first, then the rest by value, so that the three a
// brief shows are not three of a kind while another kind waits.
func Actions(f Facts) []Action {
	best := map[string]Event{}
	for _, e := range f.Events {
		if !slices.Contains(actionKinds, e.Kind) {
			continue
		}
		if cur, ok := best[e.CustomerID]; !ok || e.Value > cur.Value {
			best[e.CustomerID] = e
		}
	}
	var all []Action
	for _, e := range best {
		all = append(all, Action{Text: actionText(e, 40), Value: e.Value, Event: e})
	}
	byValue := func(a []Action) {
		sort.Slice(a, func(i, j int) bool {
			if a[i].Value != a[j].Value {
				return a[i].Value > a[j].Value
			}
			return a[i].Event.CustomerID < a[j].Event.CustomerID
		})
	}
	byValue(all)
	var first, rest []Action
	seen := map[EventKind]bool{}
	for _, a := range all {
		if seen[a.Event.Kind] {
			rest = append(rest, a)
			continue
		}
		seen[a.Event.Kind] = true
		first = append(first, a)
	}
	return append(first, rest...)
}

// Highlights is the day's good news in one line: the large orders
// (surges) and the payments received; "" when there is none.
func Highlights(f Facts, n, nameRunes int) string {
	var parts []string
	if surges := f.Of(Surge); len(surges) > 0 {
		var big []string
		for _, e := range surges {
			big = append(big, fmt.Sprintf("%s %s (usually %s)", shortName(e.Customer, nameRunes), money(e.Amount), money(e.UsualSize)))
		}
		word := "Big order"
		if len(surges) > 1 {
			word = "Big orders"
		}
		parts = append(parts, word+": "+names(big, n)+".")
	}
	if paid := f.Of(PaymentReceived); len(paid) > 0 {
		parts = append(parts, fmt.Sprintf("Received %s from %s.", money(f.Received), plural(len(paid), "customer")))
	}
	return strings.Join(parts, " ")
}

func actionText(e Event, nameRunes int) string {
	name := shortName(e.Customer, nameRunes)
	switch e.Kind {
	case NoOrder:
		if e.Habit {
			return fmt.Sprintf("Call %s: no order for %s, usually every %s", name, plural(e.DaysSince, "day"), every(e.Usual))
		}
		return fmt.Sprintf("Call %s: no order for %s, expected every %s (%s)", name, plural(e.DaysSince, "day"), every(e.Usual), orSegment(e.Segment))
	case Drop:
		return fmt.Sprintf("Call %s: %s a week over 4 weeks, down from %s", name, money(e.RecentWeekly), money(e.PriorWeekly))
	case Surge:
		return fmt.Sprintf("%s: %s order, usually %s", name, money(e.Amount), money(e.UsualSize))
	case CreditRisk:
		return "Chase " + name + ": " + riskText(e)
	}
	return name
}

// every is a gap in days after "every": "day" for one, else the number.
func every(days int) string {
	if days == 1 {
		return "day"
	}
	return strconv.Itoa(days)
}

// cover is how long a product's available stock lasts: "1 day", "3
// days", "under a day".
func cover(days int) string {
	if days < 1 {
		return "under a day"
	}
	return plural(days, "day")
}

func orSegment(s string) string {
	if s == "" {
		return "no segment"
	}
	return s
}

// riskText says why a customer is a credit risk.
func riskText(e Event) string {
	var why []string
	if e.OverLimit {
		why = append(why, fmt.Sprintf("%d%% of the %s limit", e.LimitUsed, money(e.Limit)))
	}
	if e.BillsTooOld {
		why = append(why, fmt.Sprintf("oldest bill %d days", e.OldestDays))
	}
	return money(e.Amount) + " due, " + strings.Join(why, ", ")
}

// names lists up to n names and says how many more there are.
func names(list []string, n int) string {
	if len(list) <= n {
		return strings.Join(list, ", ")
	}
	return strings.Join(list[:n], ", ") + fmt.Sprintf(" +%d more", len(list)-n)
}

// StockText is the brief's stock line, naming up to n products a group.
func StockText(f Facts, n int) string {
	var out, low []string
	for _, l := range f.Stock {
		name := shortName(l.Name, 28)
		if l.WIP > 0 {
			name += fmt.Sprintf(" (%s in production)", domain.GroupIndian(l.WIP))
		}
		if l.Out {
			out = append(out, name)
		} else {
			line := shortName(l.Name, 28) + " (" + cover(l.Cover) + " of stock left"
			if l.WIP > 0 {
				line += fmt.Sprintf(", %s in production", domain.GroupIndian(l.WIP))
			}
			low = append(low, line+")")
		}
	}
	if len(out)+len(low) == 0 {
		return "Stock: nothing out or under " + plural(CoverDays, "day") + " of cover."
	}
	var parts []string
	if len(out) > 0 {
		parts = append(parts, fmt.Sprintf("%d out: %s", len(out), names(out, n)))
	}
	if len(low) > 0 {
		parts = append(parts, fmt.Sprintf("%d under %s: %s", len(low), plural(CoverDays, "day"), names(low, n)))
	}
	return "Stock: " + strings.Join(parts, "; ") + "."
}

// WaitingText is the brief's line of what waits on the owners and on
// delivery.
func WaitingText(f Facts) string {
	w := f.Waiting
	var parts []string
	if w.DraftCount > 0 {
		s := fmt.Sprintf("%s for your approval (%s", plural(w.DraftCount, "draft"), money(w.DraftValue))
		if len(w.Drafts) > 0 {
			s += ", oldest " + shortName(w.Drafts[0].Customer, 24)
		}
		parts = append(parts, s+")")
	}
	if w.LateCount > 0 {
		s := fmt.Sprintf("%s undelivered after %s (%s", plural(w.LateCount, "order"), plural(LateDays, "day"), money(w.LateValue))
		if len(w.Late) > 0 {
			s += fmt.Sprintf(", oldest %s, %s", w.Late[0].ID, plural(daysBetween(w.Late[0].CreatedAt.In(f.Location), f.Date), "day"))
		}
		parts = append(parts, s+")")
	}
	if len(parts) == 0 {
		return "Waiting: nothing."
	}
	return "Waiting: " + strings.Join(parts, "; ") + "."
}

// OwnerText is the owners' WhatsApp brief: the opening (the model's
// sentences when they passed the check, else Summary), the day's big
// orders and payments, at most MaxActions actions, and a line each for
// stock and waiting work, under MaxBriefChars. What does not fit is
// shortened, least useful first.
func OwnerText(f Facts, opening string) string {
	if strings.TrimSpace(opening) == "" {
		opening = Summary(f)
	}
	actions := Actions(f)
	try := func(opening string, nActions, nNames, nameRunes int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "*Munshi digest · %s*\n%s\n", dayText(f.Date), opening)
		if h := Highlights(f, nNames, nameRunes); h != "" && nNames > 1 {
			b.WriteString(h + "\n")
		}
		if n := min(nActions, len(actions)); n > 0 {
			b.WriteString("\n*Today*\n")
			for i, a := range actions[:n] {
				fmt.Fprintf(&b, "%d. %s\n", i+1, actionText(a.Event, nameRunes))
			}
		}
		fmt.Fprintf(&b, "\n%s\n%s", StockText(f, nNames), WaitingText(f))
		return b.String()
	}
	for _, o := range []string{opening, Summary(f), Headline(f)} {
		for _, shape := range [][3]int{{MaxActions, 3, 40}, {MaxActions, 2, 28}, {MaxActions, 1, 24}, {2, 1, 24}, {1, 1, 20}} {
			if s := try(o, shape[0], shape[1], shape[2]); reports.Chars(s) <= MaxBriefChars {
				return s
			}
		}
	}
	return cut(try(Headline(f), 1, 1, 16), MaxBriefChars)
}

// AccountsText is the accounts team's brief: payments received on the
// day, what is due, and the customers past their limit or with old bills.
func AccountsText(f Facts) string {
	paid, risks := f.Of(PaymentReceived), f.Of(CreditRisk)
	try := func(n, nameRunes int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "*Munshi dues · %s*\n", dayText(f.Date))
		if len(paid) == 0 {
			b.WriteString("No payments received.\n")
		} else {
			var who []string
			for _, e := range paid {
				who = append(who, shortName(e.Customer, nameRunes)+" "+money(e.Amount))
			}
			fmt.Fprintf(&b, "Received %s from %s: %s.\n", money(f.Received), plural(len(paid), "customer"), names(who, n))
		}
		fmt.Fprintf(&b, "Due now %s from %s.\n", money(f.Due), plural(f.Owing, "customer"))
		if len(risks) > 0 {
			b.WriteString("\n*Follow up*\n")
			for i, e := range risks[:min(n, len(risks))] {
				fmt.Fprintf(&b, "%d. %s: %s\n", i+1, shortName(e.Customer, nameRunes), riskText(e))
			}
			if len(risks) > n {
				fmt.Fprintf(&b, "+%d more in the email.\n", len(risks)-n)
			}
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	for _, shape := range [][2]int{{5, 40}, {3, 28}, {2, 20}, {1, 16}} {
		if s := try(shape[0], shape[1]); reports.Chars(s) <= MaxBriefChars {
			return s
		}
	}
	return cut(try(1, 12), MaxBriefChars)
}

// cut shortens s to n characters at a line break where it can.
func cut(s string, n int) string {
	parts := reports.Split(s, n)
	if len(parts) == 0 {
		return ""
	}
	return parts[0]
}
