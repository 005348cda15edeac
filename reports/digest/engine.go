package digest

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/munshi/munshi/internal/domain"
)

// The windows of the context engine, in days ending with the digest's
// date D.
const (
	// BaselineWeeks is how many same weekdays before D make the baseline
	// (D−7 … D−91), and how far back customers' habits are read.
	BaselineWeeks = 13
	// window is every day the engine reads: D−91 … D.
	window = BaselineWeeks*7 + 1
	// RecentWeeks is the stretch a drop is measured over (D−27 … D),
	// against the BaselineWeeks−RecentWeeks weeks before it.
	RecentWeeks = 4
	// StockDays is how many days of sales give a product's daily average
	// (D−27 … D), and CoverDays the cover under which it is running out.
	StockDays = 28
	CoverDays = 7
	// LateDays is how long a committed order may wait for delivery before
	// it is late.
	LateDays = 3
	// BillAgeDays is the age of the oldest unpaid bill that makes a
	// credit risk, and LimitPercent the share of the credit limit.
	BillAgeDays  = 60
	LimitPercent = 90
	// ListLimit is how many drafts and late orders the digest lists.
	ListLimit = 20
)

// DefaultCadence is how often a customer of a segment is expected to
// order, in days, when they have too few orders to have a habit of their
// own; OtherCadence is for segments not in the map.
var DefaultCadence = map[string]int{"dealer": 7, "retailer": 14, "horeca": 7}

// OtherCadence is the cadence of a segment DefaultCadence (or
// Options.Cadence) does not name.
const OtherCadence = 14

// Kinds of customer event.
type EventKind string

const (
	NoOrder         EventKind = "no_order"
	Surge           EventKind = "surge"
	Drop            EventKind = "drop"
	PaymentReceived EventKind = "payment_received"
	CreditRisk      EventKind = "credit_risk"
)

// Facts are every figure of one day's digest, computed from the books by
// the definitions in the package documentation. Nothing else makes a
// number a person reads.
type Facts struct {
	Date     time.Time // D, local midnight in Location
	Location *time.Location
	Sales    DaySales
	Baseline Baseline
	// Week is the week so far (Monday … D) against the same days of last
	// week; Month the month so far against the same days of last month.
	Week, Month Comparison
	Events      []Event // by kind, then most valuable first
	Stock       []StockLine
	Waiting     Waiting
	// Due is what every customer owes together, and Owing how many owe.
	Due      domain.Paise
	Owing    int
	Received domain.Paise // payments on D
}

// DaySales are one day's orders, committed or delivered.
type DaySales struct {
	Date      time.Time
	Amount    domain.Paise // before GST
	GST       domain.Paise
	Orders    int
	Customers int
}

// Baseline is the same weekday over the BaselineWeeks weeks before D.
type Baseline struct {
	Days                  []DaySales // oldest first; a day without sales is zero
	Sum                   domain.Paise
	Mean, Lowest, Highest domain.Paise
	// Change is D against Mean, in whole percent; nil when Mean is zero.
	Change *int
}

// Comparison is a stretch to date against the same days before.
type Comparison struct {
	From, To           time.Time // [From, To), local midnights
	PriorFrom, PriorTo time.Time
	Amount, Prior      domain.Paise
	Change             *int // whole percent; nil when Prior is zero
}

// Event is something about one customer worth knowing.
type Event struct {
	Kind       EventKind
	CustomerID string
	Customer   string
	Segment    string
	// Value is the money at stake, to rank actions: for no_order the
	// orders missed (the usual order × days since ÷ usual gap), the order
	// for surge, four weeks' shortfall for drop, the amount paid, the
	// amount due.
	Value domain.Paise

	DaysSince int  // no_order: days since the last order
	Usual     int  // no_order: the usual gap in days
	Habit     bool // no_order: Usual is the customer's own median gap, not the segment's cadence

	Amount    domain.Paise // surge: D's largest order; payment_received: paid on D; credit_risk: due
	UsualSize domain.Paise // surge: the mean order over 13 weeks before D

	RecentWeekly, PriorWeekly domain.Paise // drop: weekly average of the last 4 weeks and of the 9 before

	Payments    int          // payment_received
	Limit       domain.Paise // credit_risk
	LimitUsed   int          // credit_risk: percent of the limit owed (0 without a limit)
	OldestBill  string       // credit_risk
	OldestDays  int          // credit_risk: age of the oldest unpaid bill on D
	OverLimit   bool         // credit_risk: above LimitPercent of the limit
	BillsTooOld bool         // credit_risk: oldest bill past BillAgeDays
}

// StockLine is a product out of stock or running out.
type StockLine struct {
	StockItem
	Out bool
	// Cover is the days the available stock lasts at the average of the
	// last StockDays days; -1 when nothing sold.
	Cover int
}

// Options tune the engine and the brief.
type Options struct {
	Location *time.Location // nil: Asia/Kolkata
	// Cadence maps a segment to its expected days between orders; nil:
	// DefaultCadence.
	Cadence map[string]int
	// Narrator, when set, phrases the opening; NarrativeTimeout bounds
	// the wait for it (DefaultNarrativeTimeout).
	Narrator         Narrator
	NarrativeTimeout time.Duration
	// OwnerEmails and AccountsEmails address the two mails.
	OwnerEmails, AccountsEmails []string
}

func (o Options) location() *time.Location {
	if o.Location != nil {
		return o.Location
	}
	return domain.DefaultLocation()
}

func (o Options) cadence(segment string) int {
	m := o.Cadence
	if m == nil {
		m = DefaultCadence
	}
	if d, ok := m[segment]; ok && d > 0 {
		return d
	}
	return OtherCadence
}

// Day returns the local midnight of t's date in loc.
func Day(t time.Time, loc *time.Location) time.Time {
	t = t.In(loc)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
}

// Yesterday is the day before now's date in loc: the default digest date.
func Yesterday(now time.Time, loc *time.Location) time.Time {
	return Day(now, loc).AddDate(0, 0, -1)
}

// daysBetween counts calendar days from a to b (b later), whatever the
// clocks did between them.
func daysBetween(a, b time.Time) int {
	da := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	db := time.Date(b.Year(), b.Month(), b.Day(), 0, 0, 0, 0, time.UTC)
	return int(db.Sub(da).Hours() / 24)
}

// Build computes the facts of the day of date (its date in the options'
// zone) from the books.
func Build(ctx context.Context, b Books, date time.Time, o Options) (Facts, error) {
	loc := o.location()
	d := Day(date, loc)
	f := Facts{Date: d, Location: loc}
	spans := make([]Span, window)
	for i := range spans {
		day := d.AddDate(0, 0, i-(window-1))
		spans[i] = Span{From: day, To: day.AddDate(0, 0, 1)}
	}
	rows, err := b.CustomerDays(ctx, spans)
	if err != nil {
		return f, fmt.Errorf("digest: sales by day: %w", err)
	}
	days := make([]DaySales, window)
	for i := range days {
		days[i].Date = spans[i].From
	}
	byCustomer := map[string][]CustomerDay{}
	for _, r := range rows {
		if r.Span < 0 || r.Span >= window {
			continue
		}
		days[r.Span].Amount += r.Amount
		days[r.Span].GST += r.GST
		days[r.Span].Orders += r.Orders
		days[r.Span].Customers++
		byCustomer[r.CustomerID] = append(byCustomer[r.CustomerID], r)
	}
	today := window - 1
	f.Sales = days[today]
	f.Baseline = baseline(days)
	f.Week, f.Month = weekToDate(days, d), monthToDate(days, d, loc)

	standings, err := b.Standings(ctx, spans[today].To)
	if err != nil {
		return f, fmt.Errorf("digest: customers: %w", err)
	}
	paid, err := b.PaymentsIn(ctx, spans[today])
	if err != nil {
		return f, fmt.Errorf("digest: payments: %w", err)
	}
	payments := map[string]PaymentSum{}
	for _, p := range paid {
		payments[p.CustomerID] = p
		f.Received += p.Amount
	}
	for _, s := range standings {
		if s.Outstanding > 0 {
			f.Due += s.Outstanding
			f.Owing++
		}
		f.Events = append(f.Events, customerEvents(s, byCustomer[s.CustomerID], payments[s.CustomerID], d, o)...)
	}
	sortEvents(f.Events)

	items, err := b.StockAtRisk(ctx, Span{From: spans[window-StockDays].From, To: spans[today].To}, StockDays, CoverDays)
	if err != nil {
		return f, fmt.Errorf("digest: stock: %w", err)
	}
	for _, it := range items {
		l := StockLine{StockItem: it, Out: it.Available() <= 0, Cover: -1}
		if it.Sold > 0 {
			l.Cover = int(max(it.Available(), 0) * StockDays / it.Sold)
		}
		f.Stock = append(f.Stock, l)
	}
	if f.Waiting, err = b.Waiting(ctx, spans[today-(LateDays-1)].From, ListLimit); err != nil {
		return f, fmt.Errorf("digest: waiting: %w", err)
	}
	return f, nil
}

// baseline reads the same weekday in each of the weeks before D.
func baseline(days []DaySales) Baseline {
	var b Baseline
	today := len(days) - 1
	for k := BaselineWeeks; k >= 1; k-- {
		day := days[today-7*k]
		b.Days = append(b.Days, day)
		b.Sum += day.Amount
		if k == BaselineWeeks || day.Amount < b.Lowest {
			b.Lowest = day.Amount
		}
		b.Highest = max(b.Highest, day.Amount)
	}
	b.Mean = divRound(b.Sum, BaselineWeeks)
	// Against the exact mean: (D − Σ/13) / (Σ/13) = (13·D − Σ) / Σ.
	b.Change = percent(days[today].Amount*BaselineWeeks-b.Sum, b.Sum)
	return b
}

// weekToDate is Monday … D against the same days a week before.
func weekToDate(days []DaySales, d time.Time) Comparison {
	today := len(days) - 1
	back := (int(d.Weekday()) + 6) % 7 // days since Monday
	c := Comparison{From: days[today-back].Date, To: d.AddDate(0, 0, 1),
		PriorFrom: days[today-back-7].Date, PriorTo: days[today-6].Date}
	c.Amount = sum(days[today-back : today+1])
	c.Prior = sum(days[today-back-7 : today-6])
	c.Change = percent(c.Amount-c.Prior, c.Prior)
	return c
}

// monthToDate is the 1st … D against the same dates of last month; a date
// last month lacks (the 31st after a 30-day month) is left out.
func monthToDate(days []DaySales, d time.Time, loc *time.Location) Comparison {
	today := len(days) - 1
	first := time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, loc)
	prevFirst := first.AddDate(0, -1, 0)
	prevLen := daysBetween(prevFirst, first)
	n := min(d.Day(), prevLen)
	c := Comparison{From: first, To: d.AddDate(0, 0, 1), PriorFrom: prevFirst, PriorTo: prevFirst.AddDate(0, 0, n)}
	at := func(t time.Time) int { return today - daysBetween(t, d) }
	c.Amount = sum(days[at(first) : today+1])
	c.Prior = sum(days[at(prevFirst) : at(prevFirst)+n])
	c.Change = percent(c.Amount-c.Prior, c.Prior)
	return c
}

func sum(days []DaySales) domain.Paise {
	var s domain.Paise
	for _, d := range days {
		s += d.Amount
	}
	return s
}

// divRound divides rounding half away from zero.
func divRound(a domain.Paise, b int64) domain.Paise {
	if b == 0 {
		return 0
	}
	q, r := int64(a)/b, int64(a)%b
	if 2*abs(r) >= abs(b) {
		if (a < 0) != (b < 0) {
			q--
		} else {
			q++
		}
	}
	return domain.Paise(q)
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// percent is 100·num/den in whole percent, rounded half away from zero;
// nil when den is not positive.
func percent(num, den domain.Paise) *int {
	if den <= 0 {
		return nil
	}
	p := int(divRound(num*100, int64(den)))
	return &p
}

// customerEvents judges one customer on D. rows are their orders by day
// (indices into the window, D last).
func customerEvents(s Standing, rows []CustomerDay, paid PaymentSum, d time.Time, o Options) []Event {
	today := window - 1
	base := Event{CustomerID: s.CustomerID, Customer: s.Name, Segment: s.Segment}
	var out []Event
	// Orders before D (13 weeks: D−91 … D−1) give the usual order; the
	// 13 weeks to D (D−90 … D) the habit and the trend.
	var beforeAmount domain.Paise
	var beforeOrders, habitOrders int
	var recent, prior domain.Paise
	var largestToday domain.Paise
	var orderDays []int
	for _, r := range rows {
		if r.Span < today {
			beforeAmount += r.Amount
			beforeOrders += r.Orders
		}
		if r.Span >= 1 {
			habitOrders += r.Orders
			orderDays = append(orderDays, r.Span)
			if r.Span > today-RecentWeeks*7 {
				recent += r.Amount
			} else {
				prior += r.Amount
			}
		}
		if r.Span == today {
			largestToday = r.Largest
		}
	}
	sort.Ints(orderDays)
	var usualOrder domain.Paise
	if beforeOrders > 0 {
		usualOrder = divRound(beforeAmount, int64(beforeOrders))
	}

	// no_order: the days since the last order against the usual gap.
	if !s.LastOrder.IsZero() {
		since := daysBetween(s.LastOrder.In(d.Location()), d)
		e := base
		e.Kind, e.DaysSince = NoOrder, since
		if habitOrders >= 3 && len(orderDays) >= 2 {
			// median2 is twice the median gap, so halves stay exact.
			gaps := make([]int, 0, len(orderDays)-1)
			for i := 1; i < len(orderDays); i++ {
				gaps = append(gaps, orderDays[i]-orderDays[i-1])
			}
			sort.Ints(gaps)
			n := len(gaps)
			median2 := 2 * gaps[n/2]
			if n%2 == 0 {
				median2 = gaps[n/2-1] + gaps[n/2]
			}
			// since > 1.5 × median ⇔ 4·since > 3·median2
			e.Usual, e.Habit = (median2+1)/2, true
			if 4*since > 3*median2 {
				e.Value = usualOrder * domain.Paise(2*since) / domain.Paise(median2)
				out = append(out, e)
			}
		} else {
			e.Usual = o.cadence(s.Segment)
			if since > e.Usual {
				e.Value = usualOrder * domain.Paise(since) / domain.Paise(e.Usual)
				out = append(out, e)
			}
		}
	}

	// surge: D's largest order above twice the usual order.
	if largestToday > 0 && usualOrder > 0 && largestToday > 2*usualOrder {
		e := base
		e.Kind, e.Amount, e.UsualSize, e.Value = Surge, largestToday, usualOrder, largestToday
		out = append(out, e)
	}

	// drop: the last 4 weeks' weekly average below half that of the 9
	// weeks before: recent/4 < (prior/9)/2 ⇔ 18·recent < 4·prior.
	priorWeeks := int64(BaselineWeeks - RecentWeeks)
	if prior > 0 && domain.Paise(2*priorWeeks)*recent < RecentWeeks*prior {
		e := base
		e.Kind = Drop
		e.RecentWeekly, e.PriorWeekly = divRound(recent, RecentWeeks), divRound(prior, priorWeeks)
		e.Value = (e.PriorWeekly - e.RecentWeekly) * RecentWeeks
		out = append(out, e)
	}

	if paid.Amount > 0 {
		e := base
		e.Kind, e.Amount, e.Payments, e.Value = PaymentReceived, paid.Amount, paid.Payments, paid.Amount
		out = append(out, e)
	}

	// credit_risk: above 90% of the limit, or the oldest unpaid bill past
	// 60 days. A customer without a limit is judged by age alone.
	if s.Outstanding > 0 {
		e := base
		e.Kind, e.Amount, e.Limit, e.Value = CreditRisk, s.Outstanding, s.CreditLimit, s.Outstanding
		if s.CreditLimit > 0 {
			e.LimitUsed = int(s.Outstanding * 100 / s.CreditLimit)
			e.OverLimit = s.Outstanding*100 > s.CreditLimit*LimitPercent
		}
		if !s.OldestAt.IsZero() {
			e.OldestBill, e.OldestDays = s.OldestBill, daysBetween(s.OldestAt.In(d.Location()), d)
			e.BillsTooOld = e.OldestDays > BillAgeDays
		}
		if e.OverLimit || e.BillsTooOld {
			out = append(out, e)
		}
	}
	return out
}

var kindOrder = map[EventKind]int{NoOrder: 0, Drop: 1, Surge: 2, CreditRisk: 3, PaymentReceived: 4}

func sortEvents(es []Event) {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.Kind != b.Kind {
			return kindOrder[a.Kind] < kindOrder[b.Kind]
		}
		if a.Value != b.Value {
			return a.Value > b.Value
		}
		return a.CustomerID < b.CustomerID
	})
}

// Of returns the events of a kind, most valuable first.
func (f Facts) Of(kind EventKind) []Event {
	var out []Event
	for _, e := range f.Events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}
