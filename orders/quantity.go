package orders

import (
	"sort"
	"strings"

	"github.com/munshi/munshi/intent"
)

// quantity is a number with the unit written beside it.
type quantity struct {
	value      float64
	unit       string // canonical unit; "" is the base unit
	measure    string // set when written as a size: "50kg"
	start, end int    // token span, unit included
	used       bool
	each       bool // said of every product of a list: "5-5 carton"
	// of is the product a size is the quantity of, when attachSizes
	// found it so ("100 cup dahi, 30 kg paneer"); nil for the others.
	of *mention
}

// byStart puts quantities in the order they are written.
func byStart(qs []*quantity) {
	sort.SliceStable(qs, func(a, b int) bool { return qs[a].start < qs[b].start })
}

// repeatedWord reports a number said twice, the first time in a word the
// normaliser left as a word: "paanch-paanch", "do-do".
func (r *reading) repeatedWord(e intent.Entity) bool {
	i := e.Start - 1
	if i < 0 || r.ent[i] >= 0 || strings.TrimSpace(r.between(i, e.Start)) != "-" {
		return false
	}
	es := intent.Normalize(r.word(i) + " dozen").Entities
	return len(es) > 0 && es[0].Kind == intent.EntityNumber && es[0].Value == e.Value
}

// notQuantity reports a number that is something else: a list marker
// ("1. GC 5 ctn" at a line's start), a price ("@ 90", "₹90", "rate 90"), a
// duration, time, date or percentage ("15 days", "5 baje", "10%"), a phone
// number or a paper's ("PO AGH/1147"), a scheme's count ("12+1 wali
// scheme").
func (r *reading) notQuantity(i int) bool {
	t := r.toks[i]
	after := r.source(t.End, t.End+3)
	before := strings.TrimRight(r.source(t.Start-4, t.Start), " ")
	if afterNotQuantity[r.word(i+1)] || beforeNotQuantity[r.word(i-1)] {
		return true
	}
	if strings.HasPrefix(strings.TrimLeft(after, " "), "%") || strings.HasPrefix(after, "/-") ||
		strings.HasSuffix(before, "₹") || strings.HasSuffix(before, "@") || strings.HasSuffix(before, "#") {
		return true
	}
	if r.schemeCount(t) {
		return true
	}
	// 5:30, 12/05: times and dates.
	if (strings.HasPrefix(after, ":") || strings.HasPrefix(after, "/")) && len(after) > 1 && after[1] >= '0' && after[1] <= '9' {
		return true
	}
	if b := r.source(t.Start-2, t.Start); len(b) == 2 && (b[1] == ':' || b[1] == '/') && b[0] >= '0' && b[0] <= '9' {
		return true
	}
	// A paper's number glued by a slash to its letters: "PO AGH/1147",
	// "INV/1147".
	if b := r.source(t.Start-2, t.Start); len(b) == 2 && b[1] == '/' && (b[0]|0x20 >= 'a' && b[0]|0x20 <= 'z') {
		return true
	}
	if len(t.Text) >= 10 && !strings.Contains(t.Text, ".") {
		return true
	}
	// A list marker: a small number first on its line, then "." or ")".
	if (strings.HasPrefix(after, ".") || strings.HasPrefix(after, ")")) && len(t.Text) <= 2 && r.lineStart(i) &&
		i+1 < len(r.toks) && !r.newline(i, i+1) {
		return true
	}
	return false
}

// schemeCount reports a number joined to another by "+": "12+1", "10 +
// 2" are one free with so many, not two quantities.
func (r *reading) schemeCount(t intent.Token) bool {
	after := strings.TrimLeft(r.source(t.End, t.End+4), " ")
	before := strings.TrimRight(r.source(t.Start-4, t.Start), " ")
	digit := func(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }
	if rest, ok := strings.CutPrefix(after, "+"); ok && digit(strings.TrimLeft(rest, " ")) {
		return true
	}
	if rest, ok := strings.CutSuffix(before, "+"); ok {
		rest = strings.TrimRight(rest, " ")
		return rest != "" && digit(rest[len(rest)-1:])
	}
	return false
}

// unitsAfterNames reads "5 GC carton" and "10 rassi bundle": a bare number
// before a product and a unit of the product after it.
func (p *Parser) unitsAfterNames(r *reading, ms []*mention, qs []*quantity) {
	covered := make([]bool, len(r.toks))
	for _, q := range qs {
		for i := q.start; i < q.end && i < len(covered); i++ {
			covered[i] = true
		}
	}
	for _, m := range ms {
		i := m.end
		if len(m.skus) != 1 || i >= len(r.toks) || covered[i] || r.newline(i-1, i) {
			continue
		}
		var unit string
		switch r.kind(i) {
		case intent.EntityUnit:
			unit = r.ents[r.ent[i]].ID
		case "":
			// A unit that is an ordinary word too ("bundle", "can") counts
			// only when the product comes in it.
			if u, ok := p.unitSpellings[r.word(i)]; ok && p.units[m.skus[0]][u] > 0 {
				unit = u
			}
		}
		if unit == "" {
			continue
		}
		for _, q := range qs {
			if q.end == m.start && q.unit == "" && q.measure == "" {
				q.unit, covered[i] = unit, true
				r.used[i] = true
				break
			}
		}
	}
}
