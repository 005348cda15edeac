package legacyerp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"
)

// Each company's trade: a year of sales orders and their lines, the bills
// raised on them, the receipts that pay them, and the junk rows a real
// ERP's tables carry.

// The vendor's order status codes.
const (
	StatusOpen       = 0 // entered, not approved
	StatusApproved   = 1 // approved, stock committed
	StatusDispatched = 2 // goods sent, not billed
	StatusBilled     = 3
	StatusCancelled  = 9
)

type order struct {
	id               int
	no               string
	party            *party
	created          time.Time
	modified, billAt time.Time
	status           int
	cancelledBill    bool
	lines            []line
	total            int64 // paise, with GST
}

type line struct {
	it                  *item
	qty, rate, amt, gst int64
}

// lineGST is GST on a line, rounded half up to the paisa (as Munshi's
// domain.LineGST and a tax invoice do).
func lineGST(amount, percent int64) int64 { return (amount*percent*100 + 5000) / 10000 }

func pick[T any](rng *rand.Rand, xs []T, cum []float64) T {
	r := rng.Float64() * cum[len(cum)-1]
	return xs[sort.SearchFloat64s(cum, r)]
}

func cumulative[T any](xs []T, w func(T) float64) []float64 {
	cum := make([]float64, len(xs))
	s := 0.0
	for i, x := range xs {
		s += w(x)
		cum[i] = s
	}
	return cum
}

var (
	salesmen  = []string{"S01", "S02", "S03", "S04", "S05", "S06", "S07", "S08"}
	operators = []string{"ADMIN", "RAVI", "SUNITA", "billing1", "MANOJ"}
	remarks   = []string{"urgent", "party will collect", "rate as per last bill", "deliver before 11", "SCHEME APPLIED", "call before delivery"}
)

func (g *gen) orders(c companySpec, items []*item, parties []*party, rng *rand.Rand) []*order {
	itemCum := cumulative(items, func(it *item) float64 { return it.w })
	partyCum := cumulative(parties, func(p *party) float64 { return p.weight })
	var orders []*order
	for left := c.lines; left > 0; {
		n := min(1+rng.IntN(6), left, len(items))
		o := &order{party: pick(rng, parties, partyCum)}
		for tries := 0; len(o.lines) < n && tries < 4*n; tries++ {
			it := pick(rng, items, itemCum)
			if slices.ContainsFunc(o.lines, func(l line) bool { return l.it == it }) {
				continue
			}
			q := int64(6 + rng.IntN(55))
			if it.conv > 1 && rng.IntN(10) < 6 {
				q = it.conv * int64(1+rng.IntN(5))
			}
			rate := it.price
			if rng.IntN(10) == 0 {
				rate = rate * 95 / 100
			}
			l := line{it: it, qty: q, rate: rate, amt: q * rate}
			l.gst = lineGST(l.amt, it.fam.gst)
			o.lines = append(o.lines, l)
			o.total += l.amt + l.gst
		}
		left -= len(o.lines)
		orders = append(orders, o)
	}
	// When each order was taken: a year of working days, Sundays quiet,
	// today only up to now.
	dayCum := make([]float64, historyDays+1)
	open := g.today.Add(9 * time.Hour)
	s := 0.0
	for d := 0; d <= historyDays; d++ {
		w := 0.8 + 0.4*rng.Float64()
		switch g.start.AddDate(0, 0, d).Weekday() {
		case time.Sunday:
			w *= 0.25
		case time.Saturday:
			w *= 0.8
		}
		if d == historyDays {
			w *= math.Max(0, math.Min(1, float64(g.now.Sub(open))/float64(11*time.Hour)))
		}
		s += w
		dayCum[d] = s
	}
	times := make([]time.Time, len(orders))
	for i := range times {
		d := sort.SearchFloat64s(dayCum, rng.Float64()*s)
		from := g.start.AddDate(0, 0, d).Add(9 * time.Hour)
		span := 11 * time.Hour
		if d == historyDays {
			span = g.now.Sub(from)
		}
		times[i] = from.Add(time.Duration(rng.Int64N(int64(max(span, time.Minute))))).Truncate(time.Second)
	}
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	seq := map[string]int{}
	for i, o := range orders {
		g.nextOrder++
		o.id, o.created = g.nextOrder, times[i]
		tag := fyTag(o.created)
		seq[tag]++
		o.no = fmt.Sprintf("SO/%s/%06d", tag, seq[tag])
		g.settle(o, rng)
		if c.code == CompanyCode && o.status != StatusCancelled {
			o.party.bought += o.total
		}
		rem := null
		if rng.IntN(8) == 0 {
			rem = g.x.str(remarks[rng.IntN(len(remarks))])
		}
		g.add("SalesOrdHdr", num(int64(o.id)), num(int64(c.code)), g.x.str(o.no), day(o.created), g.x.str(o.party.code),
			g.x.str(salesmen[rng.IntN(len(salesmen))]), rupees(o.total), num(int64(o.status)), rem, stamp(o.created),
			stamp(o.modified), g.x.str(operators[rng.IntN(len(operators))]))
		for k, l := range o.lines {
			g.add("SalesOrdDtl", num(int64(o.id)), num(int64(k+1)), num(int64(l.it.id)), qty(l.qty), rupees(l.rate),
				num(l.it.fam.gst)+".00", rupees(l.amt), rupees(l.gst))
		}
	}
	return orders
}

// settle gives an order its status by age and when it was last changed.
func (g *gen) settle(o *order, rng *rand.Rand) {
	age := int(midnight(g.today).Sub(midnight(o.created)).Hours()+12) / 24
	later := func(lo, hi time.Duration) time.Time {
		t := o.created.Add(lo + time.Duration(rng.Int64N(int64(hi-lo))))
		if t.After(g.now) { // not yet: some time between then and now
			t = o.created.Add(time.Duration(rng.Int64N(int64(g.now.Sub(o.created)) + 1)))
		}
		return t.Truncate(time.Second)
	}
	r := rng.IntN(1000)
	switch {
	case age == 0:
		o.status, o.modified = StatusOpen, o.created
		if r < 450 {
			o.status, o.modified = StatusApproved, later(5*time.Minute, 2*time.Hour)
		}
	case age <= 3 && r < 20, age > 3 && r < 25:
		o.status, o.modified = StatusCancelled, later(time.Hour, 48*time.Hour)
		if age > 3 && rng.IntN(10) < 3 {
			o.cancelledBill, o.billAt = true, later(4*time.Hour, 40*time.Hour)
		}
	case age <= 3 && r < 120:
		o.status, o.modified = StatusOpen, o.created
	case age <= 3 && r < 370:
		o.status, o.modified = StatusApproved, later(5*time.Minute, 2*time.Hour)
	case age <= 3 && r < 570, age > 3 && r < 35:
		o.status, o.modified = StatusDispatched, later(3*time.Hour, 30*time.Hour)
	default:
		o.status, o.billAt = StatusBilled, later(4*time.Hour, 40*time.Hour)
		o.modified = o.billAt
	}
	// Now and then someone edits an old order's remarks.
	if age > 3 && rng.IntN(100) < 4 {
		if t := later(0, g.now.Sub(o.created)+time.Second); t.After(o.modified) {
			o.modified = t
		}
	}
}

type receipt struct {
	at     time.Time
	party  *party
	amount int64
	bill   string
}

var modeSpellings = map[string][]string{
	"CASH": {"CASH", "Cash", "cash", "CASH "},
	"CHQ":  {"Chq", "CHQ", "Cheque", "CHEQUE", "Chq."},
	"NEFT": {"NEFT", "neft", "RTGS", "IMPS"},
	"UPI":  {"UPI ", "UPI", "Upi", "GPay"},
}

var banks = []string{"HDFC Bank", "State Bank of India", "ICICI Bank", "Punjab National Bank", "Kotak Mahindra Bank", "Axis Bank"}

// bills writes the bill register and the money received against it, and
// adds both to each party's balance. It returns how many bills are
// unpaid and how many receipts it wrote.
func (g *gen) bills(c companySpec, orders []*order, rng *rand.Rand) (unpaid, receipts int) {
	var billed []*order
	for _, o := range orders {
		if o.status == StatusBilled || o.cancelledBill {
			billed = append(billed, o)
		}
	}
	slices.SortStableFunc(billed, func(a, b *order) int { return a.billAt.Compare(b.billAt) })
	seq := map[string]int{}
	var rcpts []receipt
	for _, o := range billed {
		tag := fyTag(o.billAt)
		seq[tag]++
		no := fmt.Sprintf("%s/%s/%05d", c.short, tag, seq[tag])
		p := o.party
		billDay := midnight(o.billAt)
		balance := o.total
		if !o.cancelledBill {
			p.dr += o.total
			p.lastTxn = later(p.lastTxn, billDay)
			for _, pay := range g.payments(p, o.total, billDay, rng) {
				pay.bill = no
				rcpts = append(rcpts, pay)
				balance -= pay.amount
			}
			if balance > 0 {
				unpaid++
			}
		}
		canc := "N"
		if o.cancelledBill {
			canc = "Y"
		}
		g.add("BillRegister", num(int64(c.code)), g.x.str(no), day(billDay), g.x.str(p.code), num(int64(o.id)),
			rupees(o.total), rupees(balance), day(billDay.AddDate(0, 0, p.crDays)), g.x.str(canc))
	}
	slices.SortStableFunc(rcpts, func(a, b receipt) int { return a.at.Compare(b.at) })
	seq = map[string]int{}
	upper := strings.ToUpper(c.name)
	for _, r := range rcpts {
		tag := fyTag(r.at)
		seq[tag]++
		g.nextRcpt++
		p := r.party
		p.cr += r.amount
		p.lastTxn = later(p.lastTxn, r.at)
		habit := p.payMode
		if habit == "CREDIT" || rng.IntN(10) == 0 {
			habit = []string{"CHQ", "NEFT", "UPI", "CASH"}[rng.IntN(4)]
		}
		sp := modeSpellings[habit]
		ref, bank := null, null
		switch habit {
		case "CHQ":
			ref, bank = g.x.str(fmt.Sprintf("%06d", rng.IntN(1000000))), g.x.str(banks[rng.IntN(len(banks))])
		case "NEFT":
			ref, bank = g.x.str(fmt.Sprintf("UTIBN%011d", rng.Int64N(1e11))), g.x.str(banks[rng.IntN(len(banks))])
		case "UPI":
			ref = g.x.str(fmt.Sprintf("%012d", rng.Int64N(1e12)))
		}
		entry := r.at.Add(10*time.Hour + time.Duration(rng.IntN(8*3600))*time.Second)
		g.add("Receipts", num(int64(g.nextRcpt)), g.x.str(upper), g.x.str(fmt.Sprintf("RV/%s/%05d", tag, seq[tag])), day(r.at),
			g.x.str(p.code), rupees(r.amount), g.x.str(sp[rng.IntN(len(sp))]), ref, bank, g.x.str("Recd against "+r.bill), stamp(entry))
	}
	return unpaid, len(rcpts)
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// payments is what a party has paid of a bill by yesterday, by its habits.
func (g *gen) payments(p *party, amount int64, billDay time.Time, rng *rand.Rand) []receipt {
	days := func(lo, hi int) time.Time { return billDay.AddDate(0, 0, lo+rng.IntN(hi-lo+1)) }
	var plan []receipt
	switch {
	case p.payMode == "CASH" && p.profile != defaulter:
		plan = []receipt{{at: days(0, 3), amount: amount}}
	case p.profile == prompt:
		plan = []receipt{{at: days(0, 10), amount: amount}}
	case p.profile == regular:
		plan = []receipt{{at: days(7, 45), amount: amount}}
	case p.profile == slow:
		first := amount / 2 / 10000 * 10000
		plan = []receipt{{at: days(20, 50), amount: first}, {at: days(50, 100), amount: amount - first}}
	default:
		if rng.IntN(10) < 3 {
			return nil
		}
		plan = []receipt{{at: days(60, 200), amount: amount}}
	}
	var out []receipt
	for _, r := range plan {
		if r.amount > 0 && r.at.Before(g.today) {
			r.party = p
			out = append(out, r)
		}
	}
	return out
}

// junk writes the tables that are not what they seem: an audit trail, a
// backup of 2019's order headers and a stock upload left from 2022.
func (g *gen) junk() {
	rng := rand.New(rand.NewPCG(uint64(g.o.Seed), 200))
	audited := []string{"SalesOrdHdr", "BillRegister", "ItemMaster", "PartyMaster", "Receipts", "ItemStock"}
	for i := 1; i <= 2000; i++ {
		t := audited[rng.IntN(len(audited))]
		a := rng.IntN(3)
		action := "IUD"[a : a+1]
		old, nw := null, null
		switch action {
		case "U":
			old, nw = g.x.str(fmt.Sprintf("Amount=%s", rupees(rng.Int64N(5000000)))), g.x.str(fmt.Sprintf("Amount=%s", rupees(rng.Int64N(5000000))))
		case "I":
			nw = g.x.str(fmt.Sprintf("ClQty=%d", rng.IntN(500)))
		}
		at := g.start.Add(time.Duration(rng.Int64N(int64(g.now.Sub(g.start))))).Truncate(time.Second)
		g.add("AuditTrail", num(int64(i)), g.x.str(t), g.x.str(fmt.Sprintf("%d", 1+rng.IntN(50000))), g.x.str(action), old, nw,
			g.x.str(operators[rng.IntN(len(operators))]), stamp(at))
	}
	for i := 1; i <= 600; i++ {
		comp := []int{1, CompanyCode}[rng.IntN(2)]
		at := time.Date(2019, time.April, 1, 10, 0, 0, 0, Zone).Add(time.Duration(rng.Int64N(int64(300 * 24 * time.Hour)))).Truncate(time.Second)
		p := g.parties[rng.IntN(len(g.parties))]
		g.add("SalesOrdHdr_Bak", num(int64(i)), num(int64(comp)), g.x.str(fmt.Sprintf("SO/19-20/%06d", i)), day(at), g.x.str(p.code),
			g.x.str(salesmen[rng.IntN(len(salesmen))]), rupees(rng.Int64N(5000000)), num(int64(StatusBilled)), null, stamp(at),
			stamp(at.Add(30*time.Hour)), g.x.str("ADMIN"))
	}
	upload := time.Date(2022, time.March, 31, 18, 40, 0, 0, Zone)
	for i, it := range g.mapped {
		if i >= 200 {
			break
		}
		g.add("TmpStkUpload", g.x.str(it.sku), g.x.str(it.name), qty(it.conv*int64(rng.IntN(50))), stamp(upload))
	}
}
