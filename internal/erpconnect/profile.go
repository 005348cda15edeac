package erpconnect

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// profile is what a column's sampled values look like.
type profile struct {
	n      int // values present (not null, not blank)
	nulls  int // null or blank
	unique bool
	// distinct values, and distinct once trimmed and case-folded
	distinct, folded int
	// collisions: values that are one value in several casings
	collisions []string

	num, whole, twoDP, moreDP int // numbers; whole numbers; with two decimals or fewer; more
	decimalText               int // numbers sent as decimal text with exactly two places ("1250.50")
	minNum, maxNum, sumAbs    float64
	slabs                     int // numbers that are a GST rate (0, 5, 12, 18, 28 …)

	text, phone, date, datetime, code, sku, upperCode, name, mode, unit int
	maxLen                                                              int
	avgLen                                                              float64

	// top is every distinct value (trimmed) with its count, most frequent
	// first, when there are few of them (modes, statuses, units, companies).
	top []valueCount
}

type valueCount struct {
	v string
	n int
}

// few is how many distinct values still make a column a code list.
const few = 40

func profileValues(vals []any) profile {
	var p profile
	seen := map[string]int{}
	folds := map[string]map[string]bool{}
	totalLen := 0
	first := true
	for _, v := range vals {
		s, isText := text(v)
		if v == nil || strings.TrimSpace(s) == "" {
			p.nulls++
			continue
		}
		p.n++
		t := strings.TrimSpace(s)
		seen[t]++
		f := strings.ToUpper(t)
		if folds[f] == nil {
			folds[f] = map[string]bool{}
		}
		folds[f][t] = true
		totalLen += len([]rune(t))
		p.maxLen = max(p.maxLen, len([]rune(t)))

		if x, places, ok := number(v); ok {
			p.num++
			if first {
				p.minNum, p.maxNum, first = x, x, false
			}
			p.minNum, p.maxNum = math.Min(p.minNum, x), math.Max(p.maxNum, x)
			p.sumAbs += math.Abs(x)
			switch {
			case x == math.Trunc(x):
				p.whole++
			case places <= 2:
				p.twoDP++
			default:
				p.moreDP++
			}
			if places == 2 && isText {
				p.decimalText++
			}
			if gstSlab(x) {
				p.slabs++
			}
		}
		if _, ok := v.(time.Time); ok {
			p.date++
			if tt := v.(time.Time); tt.Hour() != 0 || tt.Minute() != 0 || tt.Second() != 0 {
				p.datetime++
			}
		} else if isText {
			if d, dt := dateText(t); d {
				p.date++
				if dt {
					p.datetime++
				}
			}
		}
		if isText {
			p.text++
		}
		if phoneLike(t) {
			p.phone++
		}
		if c, sku, upper := codeLike(t); c {
			p.code++
			if sku {
				p.sku++
			}
			if upper {
				p.upperCode++
			}
		}
		if isText && nameLike(t) {
			p.name++
		}
		if isText && modeWord(t) != "" {
			p.mode++
		}
		if isText && unitWords[strings.ToLower(strings.TrimRight(t, "."))] {
			p.unit++
		}
	}
	p.distinct = len(seen)
	p.folded = len(folds)
	p.unique = p.n > 0 && p.distinct == p.n && p.nulls == 0
	if p.n > 0 {
		p.avgLen = float64(totalLen) / float64(p.n)
	}
	for f, raw := range folds {
		if len(raw) > 1 {
			p.collisions = append(p.collisions, strings.Join(sortedKeys(raw), "/"))
		}
		_ = f
	}
	sort.Strings(p.collisions)
	if len(seen) <= few {
		for v, n := range seen {
			p.top = append(p.top, valueCount{v, n})
		}
		sort.Slice(p.top, func(i, j int) bool {
			if p.top[i].n != p.top[j].n {
				return p.top[i].n > p.top[j].n
			}
			return p.top[i].v < p.top[j].v
		})
	}
	return p
}

// share is part of the values present, 0 when there are none.
func (p profile) share(k int) float64 {
	if p.n == 0 {
		return 0
	}
	return float64(k) / float64(p.n)
}

// text writes a sampled value as a person would read it, and says whether
// it came as text.
func text(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", false
	case string:
		return x, true
	case []byte:
		return "", false // a binary says nothing a field needs
	case int64:
		return strconv.FormatInt(x, 10), false
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), false
	case bool:
		return strconv.FormatBool(x), false
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 {
			return x.Format("2006-01-02"), false
		}
		return x.Format("2006-01-02 15:04:05"), false
	}
	return fmt.Sprint(v), false
}

// number reads a numeric value and how many decimal places it was written
// with.
func number(v any) (float64, int, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), 0, true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, 0, false
		}
		s := strconv.FormatFloat(x, 'f', -1, 64)
		_, frac, _ := strings.Cut(s, ".")
		return x, len(frac), true
	case string:
		t := strings.TrimSpace(x)
		if t == "" || len(t) > 24 {
			return 0, 0, false
		}
		body := strings.TrimPrefix(t, "-")
		whole, frac, has := strings.Cut(body, ".")
		if !isASCIIDigits(whole) || (has && !isASCIIDigits(frac)) {
			return 0, 0, false
		}
		f, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return 0, 0, false
		}
		return f, len(frac), true
	}
	return 0, 0, false
}

func isASCIIDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func gstSlab(x float64) bool {
	for _, r := range []float64{0, 0.1, 0.25, 1, 1.5, 3, 5, 6, 7.5, 12, 14, 18, 28} {
		if x == r {
			return true
		}
	}
	return false
}

var dateLayouts = []string{
	"2006-01-02", "2006-01-02 15:04:05", "2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05",
	"2006-01-02 15:04:05.000", "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04",
	"02/01/2006", "02-01-2006", "02.01.2006", "02-Jan-2006", "02 Jan 2006", "2-Jan-06", "02/01/2006 15:04:05",
}

// dateText reads a date written as text, and whether it has a time of day.
func dateText(s string) (date, withTime bool) {
	if len(s) < 8 || len(s) > 40 {
		return false, false
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return true, t.Hour() != 0 || t.Minute() != 0 || t.Second() != 0
		}
	}
	return false, false
}

// phoneLike is an Indian mobile number in any of the ways people keep one:
// 9810012345, 098100 12345, +91 98100-12345, (91) 9810012345.
func phoneLike(s string) bool {
	var d []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			d = append(d, c)
		case c == ' ' || c == '-' || c == '(' || c == ')' || c == '+' || c == '.':
		default:
			return false
		}
	}
	n := string(d)
	switch {
	case len(n) == 12 && strings.HasPrefix(n, "91"):
		n = n[2:]
	case len(n) == 11 && n[0] == '0':
		n = n[1:]
	}
	return len(n) == 10 && n[0] >= '6' && n[0] <= '9'
}

// codeLike is a short identifier with no spaces; sku says it mixes letters
// and digits as item codes do; upper that its letters are capitals.
func codeLike(s string) (code, sku, upper bool) {
	if len(s) == 0 || len(s) > 24 {
		return false, false, false
	}
	letters, digits, lower := 0, 0, 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case unicode.IsLetter(r):
			letters++
			if unicode.IsLower(r) {
				lower++
			}
		case r == '-' || r == '_' || r == '/' || r == '.':
		default:
			return false, false, false
		}
	}
	return true, letters > 0 && digits > 0 && len(s) <= 16, letters > 0 && lower == 0
}

// nameLike is text made mostly of letters and spaces, long enough to name
// a person, a firm or a product.
func nameLike(s string) bool {
	if len([]rune(s)) < 3 {
		return false
	}
	letters, other := 0, 0
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsMark(r):
			letters++
		case r == ' ' || r == '.' || r == '&' || r == '\'' || r == '-' || r == '(' || r == ')' || r == ',' || r == '/':
		default:
			other++
		}
	}
	return letters >= 3 && letters > 2*other
}

// modeWord reads how a payment was made as ERPs write it: CASH, Chq, NEFT…
func modeWord(s string) string {
	w := strings.ToLower(strings.TrimSpace(strings.TrimRight(s, ".")))
	w = strings.NewReplacer("-", " ", "_", " ", "/", " ").Replace(w)
	switch w {
	case "cash", "csh", "cash memo", "cod", "c":
		return "cod"
	case "chq", "cheque", "check", "chk", "cheq", "dd", "demand draft", "pdc", "chq dd":
		return "cheque"
	case "neft", "rtgs", "imps", "bank", "bank transfer", "online", "net banking", "netbanking", "transfer", "ecs", "nach", "bt":
		return "bank_transfer"
	case "upi", "gpay", "google pay", "phonepe", "phone pe", "paytm", "bhim", "qr":
		return "upi"
	case "credit", "cr", "on credit", "udhaar", "udhar":
		return "credit"
	}
	return ""
}

// unitWords are the units of measure item masters carry.
var unitWords = map[string]bool{}

func init() {
	for _, u := range strings.Fields(`pcs pc piece pieces nos no number each ea unit units kg kgs kilo gm gms g gram
		grams ltr ltrs l litre litres liter ml box boxes bag bags ctn carton cartons cs case dozen doz dz pkt pkts packet
		pack packs bottle bottles btl bar bars set sets mtr mtrs m metre meter roll rolls bundle bdl tin tins jar jars pair prs
		ton tonne qtl quintal sqft sqm ft tube strip strips can cans drum drums sheet sheets reel`) {
		unitWords[u] = true
	}
}

// unitWord is the unit Munshi writes for a unit of measure as item
// masters spell it: PCS and NOS are pieces, BTL a bottle.
func unitWord(s string) string {
	w := strings.ToLower(strings.TrimRight(strings.TrimSpace(s), "."))
	switch w {
	case "pcs", "pc", "piece", "pieces", "nos", "no", "number", "each", "ea", "unit", "units":
		return "piece"
	case "btl", "bottle", "bottles":
		return "bottle"
	case "pkt", "pkts", "packet", "pack", "packs":
		return "pack"
	case "ctn", "carton", "cartons", "cs", "case":
		return "carton"
	case "box", "boxes":
		return "box"
	case "bag", "bags":
		return "bag"
	case "doz", "dozen", "dz":
		return "dozen"
	case "kg", "kgs", "kilo":
		return "kg"
	case "gm", "gms", "g", "gram", "grams":
		return "gram"
	case "ltr", "ltrs", "l", "litre", "litres", "liter":
		return "litre"
	case "ml":
		return "ml"
	case "bar", "bars":
		return "bar"
	case "roll", "rolls":
		return "roll"
	case "can", "cans":
		return "can"
	case "tin", "tins":
		return "tin"
	case "jar", "jars":
		return "jar"
	case "set", "sets":
		return "set"
	case "mtr", "mtrs", "m", "metre", "meter":
		return "metre"
	case "tube":
		return "tube"
	case "strip", "strips":
		return "strip"
	}
	return ""
}

// statusWord reads an order status as ERPs write it.
func statusWord(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "o", "open", "p", "pending", "pend", "new", "n", "confirmed", "approved", "a", "booked", "b", "placed", "ordered":
		return "committed"
	case "d", "delivered", "dispatched", "despatched", "shipped", "closed", "c", "completed", "complete", "done",
		"billed", "invoiced", "i", "f", "fulfilled", "executed", "e":
		return "delivered"
	case "x", "cancelled", "canceled", "cancel", "cnl", "cncl", "void", "v", "r", "rejected", "deleted":
		return "cancelled"
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func pct(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }
