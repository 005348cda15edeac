package legacyerp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// The parties of the fixture: customers of every trade and area, their
// phones, GSTINs and credit terms written as a clerk would, and the
// suppliers.

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
