package legacyerp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Each company, built in turn (company): its item master, the parties it
// deals with, its stock by godown and the goods it received; its trade is
// in trade.go.

// item is one row of a company's item master.
type item struct {
	product
	id   int
	code string // ItmCd as stored
	uom  string
	w    float64 // how much it sells
}

var uomSpellings = map[string][]string{"BTL": {"BTL", "BTL", "BTL", "Btl"}, "PCS": {"PCS", "PCS", "NOS", "Pcs"}, "BAR": {"BAR"}, "PKT": {"PKT", "Pkt"}, "ROLL": {"ROLL"}, "CAN": {"CAN"}}

func (g *gen) company(c companySpec) {
	rng := rand.New(rand.NewPCG(uint64(g.o.Seed), uint64(c.code)))
	fyFrom := time.Date(fy(g.today), time.April, 1, 0, 0, 0, 0, Zone)
	g.add("CompanyMaster", num(int64(c.code)), g.x.str(c.name), g.x.str(c.short), g.x.str(c.gstin),
		g.x.str("Plot "+strconv.Itoa(10+c.code*7)+", Industrial Area"), g.x.str(c.city), g.x.str(c.gstin[:2]), day(fyFrom), g.x.str("Y"))
	for _, gd := range [][3]string{{"MAIN", "Main Godown", "N"}, {"BHW", "Bhiwandi Godown", "N"}, {"DMG", "Damaged / Expiry", "Y"}} {
		g.add("GodownMaster", num(int64(c.code)), g.x.str(gd[0]), g.x.str(gd[1]), g.x.str(gd[2]))
	}
	items := g.itemMaster(c, rng)
	parties := g.dealsWith(c, rng)
	g.stock(c, items, rng)
	goodsIn := g.goodsIn(c, items, rng)
	orders := g.orders(c, items, parties, rng)
	unpaid, payments := g.bills(c, orders, rng)
	for _, p := range parties {
		last := null
		if !p.lastTxn.IsZero() {
			last = day(p.lastTxn)
		}
		g.add("PartyBal", num(int64(c.code)), g.x.str(p.code), "0.00", rupees(p.dr), rupees(p.cr), rupees(p.dr-p.cr), last)
	}
	if c.code != CompanyCode {
		return
	}
	f := &g.facts
	f.CompanyCode, f.Company = c.code, c.name
	f.Items = len(items)
	for _, it := range items {
		f.SKUs = append(f.SKUs, it.sku)
	}
	f.Customers = len(parties)
	for _, p := range parties {
		f.CustomerIDs = append(f.CustomerIDs, p.code)
	}
	sort.Strings(f.CustomerIDs)
	f.Orders = len(orders)
	for _, o := range orders {
		f.SalesLines += len(o.lines)
		if o.modified.After(f.LastModified) {
			f.LastModified = o.modified
		}
	}
	if len(orders) > 0 {
		f.FirstDay, f.LastDay = midnight(orders[0].created), midnight(orders[len(orders)-1].created)
	}
	f.UnpaidBills, f.Payments, f.GoodsIn = unpaid, payments, goodsIn
	g.mapped = items
}

func midnight(t time.Time) time.Time {
	t = t.In(Zone)
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, Zone)
}

// fy is the financial year (April to March) t falls in, by its first year.
func fy(t time.Time) int {
	if t.Month() >= time.April {
		return t.Year()
	}
	return t.Year() - 1
}

// fyTag is how the vendor numbers documents by year: 25-26.
func fyTag(t time.Time) string {
	y := fy(t.In(Zone))
	return fmt.Sprintf("%02d-%02d", y%100, (y+1)%100)
}

func (g *gen) itemMaster(c companySpec, rng *rand.Rand) []*item {
	cat := catalogOf(c.items)
	items := make([]*item, len(cat))
	upper := strings.ToUpper(c.name)
	for i, p := range cat {
		g.nextItem++
		it := &item{product: p, id: g.nextItem, code: p.sku}
		switch r := rng.IntN(100); {
		case r < 3:
			it.code = strings.ToLower(p.sku)
		case r < 6:
			it.code = p.sku + " "
		}
		name := p.name
		if !p.second {
			name = oddly(rng, p.name)
		}
		sp := uomSpellings[p.fam.uom]
		it.uom = sp[rng.IntN(len(sp))]
		it.w = 1 / math.Pow(float64(1+rng.IntN(len(cat))), 0.9)
		items[i] = it
		// Items entered since the new item screen (the last tenth) carry
		// the company's name as CompanyMaster writes it; the older ones in
		// capitals.
		company, created := upper, time.Date(2006+rng.IntN(12), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 11, rng.IntN(60), 0, 0, Zone)
		if i >= len(cat)*9/10 {
			company, created = c.name, g.today.AddDate(-1-rng.IntN(2), -rng.IntN(12), -rng.IntN(28)).Add(15*time.Hour)
		}
		modified := null
		if rng.IntN(3) == 0 {
			modified = stamp(created.AddDate(0, 1+rng.IntN(24), 0))
		}
		g.add("ItemMaster", num(int64(it.id)), g.x.str(company), g.x.str(it.code), g.x.str(name), g.str(p.alias), g.x.str(p.fam.group),
			g.x.str(it.uom), g.x.str("CTN"), num(p.conv), rupees(p.price), rupees(p.mrp), num(p.fam.gst)+".00", g.x.str(p.fam.hsn),
			qty(p.conv*int64(2+rng.IntN(5))), stamp(created), modified)
	}
	return items
}

func (g *gen) dealsWith(c companySpec, rng *rand.Rand) []*party {
	var out []*party
	for i, p := range g.parties {
		if (c.code == CompanyCode && i < len(demoParties)) || rng.Float64() < c.share {
			p.dr, p.cr, p.lastTxn = 0, 0, time.Time{}
			p.weight = 1 / math.Pow(float64(1+rng.IntN(len(g.parties))), 0.7)
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		out = append(out, g.parties[0])
	}
	return out
}

// stock is the closing stock by godown: MAIN for every item (work in
// process is kept there), BHW for some, and the damaged godown, which is
// not ready stock, for a few.
func (g *gen) stock(c companySpec, items []*item, rng *rand.Rand) {
	for _, it := range items {
		ready := it.conv * int64(1+rng.IntN(80))
		if rng.IntN(100) < 8 {
			ready = 0
		}
		wip := int64(0)
		if rng.IntN(100) < 30 {
			wip = it.conv * int64(1+rng.IntN(20))
		}
		upd := stamp(g.now.Add(-time.Duration(1+rng.IntN(72*60)) * time.Minute))
		g.add("ItemStock", num(int64(c.code)), num(int64(it.id)), g.x.str("MAIN"), qty(ready), qty(wip), upd)
		if rng.IntN(4) == 0 {
			g.add("ItemStock", num(int64(c.code)), num(int64(it.id)), g.x.str("BHW"), qty(it.conv*int64(1+rng.IntN(30))), qty(0), upd)
		}
		if rng.IntN(100) < 12 {
			g.add("ItemStock", num(int64(c.code)), num(int64(it.id)), g.x.str("DMG"), qty(int64(1+rng.IntN(20))), qty(0), upd)
		}
	}
}

// goodsIn writes a year of goods received notes and returns how many
// lines accepted something.
func (g *gen) goodsIn(c companySpec, items []*item, rng *rand.Rand) int {
	type grn struct {
		at    time.Time
		sup   string
		lines []*item
	}
	grns := make([]grn, max(1, len(items)/2))
	for i := range grns {
		at := g.start.AddDate(0, 0, rng.IntN(historyDays))
		n := 1 + rng.IntN(6)
		var lines []*item
		for j := 0; j < n; j++ {
			it := items[rng.IntN(len(items))]
			if !slices.Contains(lines, it) {
				lines = append(lines, it)
			}
		}
		grns[i] = grn{at: at, sup: g.suppliers[rng.IntN(len(g.suppliers))], lines: lines}
	}
	sort.SliceStable(grns, func(i, j int) bool { return grns[i].at.Before(grns[j].at) })
	seq := map[string]int{}
	accepted := 0
	for _, gr := range grns {
		tag := fyTag(gr.at)
		seq[tag]++
		no := fmt.Sprintf("GRN/%s/%04d", tag, seq[tag])
		g.add("GRNHdr", num(int64(c.code)), g.x.str(no), day(gr.at), g.x.str(gr.sup),
			g.x.str(fmt.Sprintf("INV-%05d", rng.IntN(100000))), day(gr.at.AddDate(0, 0, -rng.IntN(4))))
		for k, it := range gr.lines {
			rec := it.conv * int64(5+rng.IntN(46))
			rej := int64(0)
			if rng.IntN(100) < 7 {
				rej = 1 + rng.Int64N(it.conv)
			}
			accepted++
			g.add("GRNDtl", num(int64(c.code)), g.x.str(no), num(int64(k+1)), num(int64(it.id)), qty(rec), qty(rec-rej), qty(rej), rupees(it.price*7/10))
		}
	}
	return accepted
}
