package legacyerp

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// companySpec is one of the five companies sharing the database.
type companySpec struct {
	code         int
	name, short  string
	gstin, city  string
	items, lines int
	share        float64 // of the shared parties it deals with
}

func companies(o Options) []companySpec {
	part := func(n, d int) int { return max(1, n/d) }
	return []companySpec{
		{1, "Apple Exports Private Limited", "AEPL", "27AAFCA4721B1Z2", "Mumbai", part(o.Items, 4), part(o.SalesLines, 20), 0.3},
		{2, "Shree Balaji Traders", "SBT", "07ABQPG8812K1Z9", "Delhi", part(o.Items, 4), part(o.SalesLines, 20), 0.3},
		{CompanyCode, CompanyName, "ALIL", "07AAJCA5513E1ZT", "New Delhi", o.Items, o.SalesLines, 0.85},
		{4, "Apple Lifestyle Industries Limited - Unit II", "ALU2", "02AAJCA5513E2ZR", "Baddi", part(o.Items, 4), part(o.SalesLines, 20), 0.3},
		{5, "Kanha Packaging LLP", "KPL", "09AAQFK2290M1ZC", "Noida", part(o.Items, 4), part(o.SalesLines, 20), 0.3},
	}
}

// gen fills the ERP. Every company draws from its own random stream, so
// what one company holds does not depend on the others' sizes.
type gen struct {
	x     sqlText
	o     Options
	now   time.Time // o.Now in Zone
	today time.Time // midnight of now
	start time.Time // the first day of history
	ins   map[string]*inserter

	parties   []*party
	suppliers []string
	nextItem  int
	nextOrder int
	nextRcpt  int
	facts     Facts
	mapped    []*item // the mapped company's items, for the upload table
}

// historyDays is how far back the sales history reaches.
const historyDays = 365

var tables = map[string][]string{
	"CompanyMaster":   {"CompCd", "CompNm", "ShortNm", "GSTIN", "Addr1", "City", "StateCd", "FYFrom", "ActiveYN"},
	"GodownMaster":    {"CompCd", "GdnCd", "GdnNm", "RejGdn"},
	"ItemMaster":      {"ItmId", "Company", "ItmCd", "ItmNm", "ShortNm", "GrpNm", "UOM", "AltUOM", "ConvFact", "Rt", "MRP", "TaxPer", "HSNCd", "ReOrdLvl", "CreatedOn", "ModifiedOn"},
	"ItemStock":       {"CompCd", "ItmId", "GdnCd", "ClQty", "WIPQty", "LastUpd"},
	"PartyMaster":     {"PartyCd", "PartyNm", "Alias", "PartyType", "Mob", "Email", "Addr1", "City", "GSTIN", "CrLmt", "CrDays", "PayMode", "CreatedOn"},
	"PartyBal":        {"CompCd", "PartyCd", "OpBal", "DrTot", "CrTot", "ClBal", "LastTxnDt"},
	"SupplierMaster":  {"SupCd", "SupNm", "SupplerPhone", "GSTIN", "City"},
	"SalesOrdHdr":     {"OrdId", "CompCd", "OrdNo", "OrdDt", "PartyCd", "SmanCd", "AMT", "StatCd", "Remarks", "CreatedOn", "ModifiedOn", "ModifiedBy"},
	"SalesOrdDtl":     {"OrdId", "SrNo", "ItmId", "Qty", "Rt", "TaxPer", "Amt", "TaxAmt"},
	"BillRegister":    {"CompCd", "BillNo", "BillDt", "PartyCd", "OrdId", "Amount", "BalAmt", "DueDt", "CancYN"},
	"Receipts":        {"RcptId", "CompName", "RcptNo", "RcptDt", "PartyCd", "RcptAmt", "PayMode", "RefNo", "BankNm", "Narration", "EntryOn"},
	"GRNHdr":          {"CompCd", "GRNNo", "GRNDt", "SupCd", "SupInvNo", "SupInvDt"},
	"GRNDtl":          {"CompCd", "GRNNo", "SrNo", "ItmId", "RecQty", "AccQty", "RejQty", "Rt"},
	"AuditTrail":      {"LogId", "TblNm", "KeyVal", "Action", "OldVal", "NewVal", "UserId", "LogTime"},
	"SalesOrdHdr_Bak": {"OrdId", "CompCd", "OrdNo", "OrdDt", "PartyCd", "SmanCd", "AMT", "StatCd", "Remarks", "CreatedOn", "ModifiedOn", "ModifiedBy"},
	"TmpStkUpload":    {"ItmCd", "ItmNm", "ClQty", "UpldOn"},
}

func fill(ctx context.Context, tx *sql.Tx, x sqlText, o Options) (Facts, error) {
	now := o.Now.In(Zone)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, Zone)
	g := &gen{x: x, o: o, now: now, today: today, start: today.AddDate(0, 0, -historyDays), ins: map[string]*inserter{}}
	names := make([]string, 0, len(tables))
	for t, cols := range tables {
		g.ins[t] = x.inserter(ctx, tx, t, cols...)
		names = append(names, t)
	}
	g.partyMaster()
	g.supplierMaster()
	for _, c := range companies(o) {
		g.company(c)
		if err := ctx.Err(); err != nil {
			return Facts{}, fmt.Errorf("legacyerp: %w", err)
		}
	}
	g.partyRows()
	g.junk()
	sort.Strings(names)
	for _, t := range names {
		if err := g.ins[t].close(); err != nil {
			return Facts{}, err
		}
	}
	return g.facts, nil
}

func (g *gen) add(table string, vals ...string) { g.ins[table].add(vals...) }

// str is a text literal, or NULL for "".
func (g *gen) str(s string) string {
	if s == "" {
		return null
	}
	return g.x.str(s)
}

// party is one row of the shared party master.
type party struct {
	code, name, alias string // name as stored: stray spaces and casing
	ptype, mob, email string
	city, gstin       string
	crLimit           int64 // paise
	bought            int64 // paise, from the mapped company in the year
	row               []string
	crDays            int
	payMode           string // CASH CREDIT CHQ UPI NEFT
	profile           payer
	createdOn         time.Time
	weight            float64
	dr, cr            int64 // this company's bills and receipts, while it is built
	lastTxn           time.Time
}

// payer is how a party pays its bills.
type payer int

const (
	prompt payer = iota
	regular
	slow
	defaulter
)

var demoParties = []struct{ name, alias, ptype, mode string }{
	{"Rajesh Kirana Store", "Rajesh", "KRN", "CASH"},
	{"Sharma General Store", "Sharma ji", "GEN", "CREDIT"},
	{"Mehta Traders", "Mehta", "WHS", "CHQ"},
	{"Gupta Supermart", "Gupta", "SUP", "NEFT"},
	{"Hotel Shivam", "Shivam", "HRC", "CASH"},
	{"City Hospital", "hospital", "INS", "CHQ"},
	{"Agarwal Medical Stores", "Agarwal", "PHM", "UPI"},
	{"Ashok Provision Store", "Ashok", "KRN", "CREDIT"},
	{"Gupta Brothers", "Gupta bros", "WHS", "NEFT"},
}

var surnames = []string{"Sharma", "Gupta", "Agarwal", "Mehta", "Jain", "Singh", "Verma", "Khan", "Patel", "Reddy",
	"Bansal", "Goyal", "Mittal", "Arora", "Sethi", "Khanna", "Bhatia", "Joshi", "Yadav", "Chauhan",
	"Mishra", "Tiwari", "Pandey", "Saxena", "Kapoor", "Malhotra", "Garg", "Aggarwal", "Chopra", "Kohli",
	"Shivam", "Balaji", "Ganesh", "Laxmi", "Krishna", "Durga", "Om", "Sai", "New", "Royal"}

var trades = []struct{ name, ptype string }{
	{"Kirana Store", "KRN"}, {"General Store", "GEN"}, {"Traders", "WHS"}, {"Supermart", "SUP"},
	{"Medical Stores", "PHM"}, {"Provision Store", "KRN"}, {"Brothers", "WHS"}, {"Enterprises", "WHS"},
	{"Departmental Store", "SUP"}, {"Restaurant", "HRC"}, {"Caterers", "HRC"}, {"Nursing Home", "INS"},
	{"Public School", "INS"}, {"Stores", "GEN"}, {"Chemists", "PHM"}, {"Sweets", "HRC"},
}

var areas = []string{"Rohini", "Pitampura", "Karol Bagh", "Lajpat Nagar", "Janakpuri", "Dwarka", "Saket", "Mayur Vihar",
	"Shahdara", "Laxmi Nagar", "Chandni Chowk", "Sadar Bazar", "Noida", "Gurgaon", "Faridabad", "Ghaziabad"}

// limits are credit limits by party type, in rupees.
var limits = map[string][]int64{
	"KRN": {50000, 75000, 100000, 150000}, "GEN": {100000, 150000, 200000}, "WHS": {300000, 500000, 800000},
	"SUP": {200000, 300000, 500000}, "HRC": {50000, 75000, 100000}, "INS": {200000, 400000}, "PHM": {50000, 60000, 100000},
}

var modesByType = map[string][]string{
	"KRN": {"CASH", "CREDIT", "UPI"}, "GEN": {"CREDIT", "CASH", "UPI", "CHQ"}, "WHS": {"CHQ", "NEFT", "CREDIT"},
	"SUP": {"NEFT", "CHQ", "UPI"}, "HRC": {"CASH", "UPI"}, "INS": {"CHQ", "NEFT"}, "PHM": {"UPI", "CASH"},
}

// oddly stores a name the way twenty years of data entry left it.
func oddly(rng *rand.Rand, s string) string {
	switch r := rng.IntN(100); {
	case r < 5:
		return s + "  "
	case r < 10:
		return strings.ToUpper(s)
	case r < 12:
		return strings.ToLower(s) + " "
	}
	return s
}

// mobile writes an Indian mobile number in one of the ways people type it.
func mobile(rng *rand.Rand, n int64) string {
	d := strconv.FormatInt(n, 10)
	switch rng.IntN(6) {
	case 0:
		return d[:5] + " " + d[5:]
	case 1:
		return "+91-" + d
	case 2:
		return "0" + d
	case 3:
		return d
	case 4:
		return "+91 " + d[:5] + " " + d[5:]
	}
	return "+91" + d
}

func gstin(rng *rand.Rand, state string) string {
	const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	b := []byte(state)
	for i := 0; i < 5; i++ {
		b = append(b, letters[rng.IntN(26)])
	}
	b = append(b, []byte(fmt.Sprintf("%04d", rng.IntN(10000)))...)
	b = append(b, letters[rng.IntN(26)], '1', 'Z', "0123456789"[rng.IntN(10)])
	return string(b)
}

func (g *gen) partyMaster() {
	rng := rand.New(rand.NewPCG(uint64(g.o.Seed), 0))
	used := map[string]bool{}
	for i := 1; i <= g.o.Customers; i++ {
		p := &party{code: fmt.Sprintf("P%04d", i)}
		if i <= len(demoParties) {
			d := demoParties[i-1]
			p.name, p.alias, p.ptype, p.payMode = d.name, d.alias, d.ptype, d.mode
		} else {
			s, t := surnames[rng.IntN(len(surnames))], trades[rng.IntN(len(trades))]
			p.name, p.ptype = s+" "+t.name, t.ptype
			if t.ptype == "HRC" && rng.IntN(2) == 0 {
				p.name = "Hotel " + s
			}
			if rng.IntN(4) == 0 {
				p.alias = s
			}
			modes := modesByType[p.ptype]
			p.payMode = modes[rng.IntN(len(modes))]
		}
		for n := 0; used[strings.ToUpper(p.name)]; n++ {
			p.name = strings.SplitN(p.name, " (", 2)[0] + " (" + areas[(i+n)%len(areas)] + ")"
		}
		used[strings.ToUpper(p.name)] = true
		p.city = areas[rng.IntN(len(areas))]
		lim := limits[p.ptype]
		p.crLimit = lim[rng.IntN(len(lim))] * 100
		p.crDays = []int{15, 30, 30, 45}[rng.IntN(4)]
		switch r := rng.IntN(100); {
		case r < 50:
			p.profile = prompt
		case r < 85:
			p.profile = regular
		case r < 96:
			p.profile = slow
		default:
			p.profile = defaulter
		}
		switch r := rng.IntN(100); {
		case r < 4: // no mobile
		case r < 6:
			p.mob = " "
		default:
			p.mob = mobile(rng, 9810000000+int64(i))
		}
		if rng.IntN(3) > 0 {
			p.email = strings.ToLower(strings.ReplaceAll(strings.SplitN(p.name, " (", 2)[0], " ", ".")) + "@gmail.com"
		}
		if rng.IntN(10) < 7 {
			p.gstin = gstin(rng, "07")
		}
		p.createdOn = time.Date(2005+rng.IntN(20), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 10+rng.IntN(8), rng.IntN(60), 0, 0, Zone)
		stored, ptype := p.name, p.ptype
		if i > len(demoParties) {
			stored = oddly(rng, p.name)
			if rng.IntN(20) == 0 {
				ptype = strings.ToLower(ptype) + " "
			}
		}
		mob := g.str(p.mob)
		if p.mob == " " {
			mob = g.x.str(" ")
		}
		// The credit limit is written once the mapped company's sales are
		// known (see partyRows).
		p.row = []string{g.x.str(p.code), g.x.str(stored), g.str(p.alias), g.x.str(ptype), mob, g.str(p.email),
			g.x.str(fmt.Sprintf("Shop %d, Main Market", 1+rng.IntN(200))), g.x.str(p.city), g.str(p.gstin),
			"", num(int64(p.crDays)), g.x.str(p.payMode), stamp(p.createdOn)}
		g.parties = append(g.parties, p)
	}
}

// partyRows writes the party master. A party's credit limit is about a
// month of what it buys from the mapped company, give or take, so that
// most parties are within it and the slow payers and defaulters are not;
// a party that does not buy from it has its type's usual limit.
func (g *gen) partyRows() {
	rng := rand.New(rand.NewPCG(uint64(g.o.Seed), 300))
	const step = 25000_00
	for _, p := range g.parties {
		f := []float64{0.75, 1, 1, 1.5, 2}[rng.IntN(5)]
		if monthly := float64(p.bought) / 12; monthly > 0 {
			p.crLimit = max(step, int64(math.Ceil(monthly*f/step))*step)
		}
		p.row[9] = rupees(p.crLimit)
		g.add("PartyMaster", p.row...)
	}
}

var supplierNames = []string{"Hindustan Chemicals", "Reliable Plastics", "Sunrise Packaging", "Ganga Polymers", "Shakti Detergents",
	"Bharat Paper Mills", "National Brush Works", "Om Aroma Chemicals", "Pioneer Containers", "Jyoti Soaps"}

func (g *gen) supplierMaster() {
	rng := rand.New(rand.NewPCG(uint64(g.o.Seed), 100))
	for i := 1; i <= 40; i++ {
		code := fmt.Sprintf("SUP%03d", i)
		name := supplierNames[(i-1)%len(supplierNames)]
		if i > len(supplierNames) {
			name += " " + []string{"Pvt Ltd", "& Co", "Industries", "LLP"}[(i-1)/len(supplierNames)%4]
		}
		phone := mobile(rng, 9871000000+int64(i))
		if rng.IntN(4) == 0 {
			phone = fmt.Sprintf("011-%04d %04d", 2000+rng.IntN(8000), rng.IntN(10000))
		}
		g.suppliers = append(g.suppliers, code)
		g.add("SupplierMaster", g.x.str(code), g.x.str(oddly(rng, name)), g.x.str(phone), g.x.str(gstin(rng, "07")), g.x.str(areas[rng.IntN(len(areas))]))
	}
}

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
